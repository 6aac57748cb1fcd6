# without -f an existing outfile is refused and left alone
printf 'root { a 1:0:1 }\n' >ns
echo precious >out.bin
pmnscomp -n ns out.bin
status=$?
cat out.bin
exit $status
