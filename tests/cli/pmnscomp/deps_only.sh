# -M prints the rule instead of writing the image
printf 'root {\n\ta\t1:0:1\n}\n' >ns
pmnscomp -M -n ns out.bin && ls
