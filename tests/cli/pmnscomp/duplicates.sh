# duplicate PMIDs need -d; a failed compile writes nothing
printf 'root {\n\ta\t1:0:1\n\tb\t1:0:1\n}\n' >ns
pmnscomp -n ns out.bin
echo "exit $?"
ls
pmnscomp -d -n ns out.bin >/dev/null && pmnscomp --dump out.bin
