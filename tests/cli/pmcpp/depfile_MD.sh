printf "x\n" > a.h; printf "#include \"a.h\"\nA\n" > src.pmns; pmcpp -MD -MP src.pmns out.pmns; echo "exit $?"; cat out.d; pmcpp -MD -MF deps.mk -MT tgt src.pmns out.pmns; cat deps.mk
