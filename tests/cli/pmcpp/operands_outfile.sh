printf "#define A 1\nA\n" > in; pmcpp -P in result; echo "exit $?"; cat result
