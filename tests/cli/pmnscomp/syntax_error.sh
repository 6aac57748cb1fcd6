# errors in the text are the loader's, with file, line and column
printf 'root {\n\ta\t1:2:*\n}\n' >ns
pmnscomp -n ns out.bin
status=$?
ls
exit $status
