# PCP's limit: the input and 4 nested #include/#shell levels; a fifth is an
# error with PCP's message, and a file that includes itself stops there
printf "five\n" > f5; for i in 4 3 2 1; do printf "#include \"f$((i+1))\"\n" > f$i; done; pmcpp -P f1; echo "exit $?"
printf "#include \"f6\"\n" > f5; printf "six\n" > f6; pmcpp -P f1; echo "exit $?"
printf "self\n#include \"self\"\n" > self; pmcpp self; echo "exit $?"
printf "#shell 'cat input'\n" > input; pmcpp -P input; echo "exit $?"
