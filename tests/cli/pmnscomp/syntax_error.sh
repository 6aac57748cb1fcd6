# errors in the text are the loader's, as PCP's loader prints them
printf 'root {\n\ta\t1:2:*\n}\n' >ns
pmnscomp -n ns out.bin
status=$?
ls
exit $status
