printf "x\n" > stdpmid; mkdir sub; printf "#include <stdpmid>\n#include \"sub/two words\"\n" > root; printf "y\n" > "sub/two words"; pmcpp -M root
