# -MD on standard input without an outfile has no name for the rule's file
# (pmcpp used to crash here); -MF gives it one
printf 'A\n' | pmcpp -MD -MT x; echo "exit $?"
printf 'A\n' | pmcpp -MD -MT x -MF deps.mk; echo "exit $?"; cat deps.mk
