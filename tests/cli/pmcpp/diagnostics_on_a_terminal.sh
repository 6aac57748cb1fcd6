# stderr a terminal (script(1) gives a pty): the rich form, every error;
# PMKIT_DIAGNOSTICS=pcp there gives PCP's; the library's loader the same
printf '#define X a b\n#endif\nok\n' > in
printf 'root {\n\ta\t511:0:1\n\tb\n}\n' > ns
unset PMKIT_DIAGNOSTICS
script -qec "pmcpp -P in" /dev/null | tr -d '\r'
script -qec "PMKIT_DIAGNOSTICS=pcp pmcpp -P in" /dev/null | tr -d '\r'
script -qec "PCP_DERIVED_CONFIG= pminfo -n ns" /dev/null | tr -d '\r'
