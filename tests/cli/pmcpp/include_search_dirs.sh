mkdir top inc; printf "from-inc\n" > inc/i; printf "from-top\n" > top/t; printf "#include \"t\"\n#include \"i\"\nend\n" > top/main; pmcpp -I inc top/main
