printf "old\n" > result; printf "#define X a b\n" > in; pmcpp in result; echo "exit $?"; cat result; ls
