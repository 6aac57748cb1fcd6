# an image is not compiled again
printf 'root {\n\ta\t1:0:1\n}\n' >ns
pmnscomp -n ns one.bin >/dev/null
pmnscomp -n one.bin two.bin
