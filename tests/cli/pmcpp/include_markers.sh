mkdir sub; printf "in-x\n" > x; printf "in-b\n#include \"x\"\nafter-x\n" > sub/b; printf "a\n#include \"sub/b\"\nb\n#include <x>\nc\n" > main; pmcpp main
