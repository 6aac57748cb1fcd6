# -MD writes the image and, with -MF, a make rule naming every file read
mkdir inc
printf '#define DOM 42\n' >inc/domain.h
printf '#include "domain.h"\nroot {\n\ta\tDOM:0:1\n}\n' >ns
pmnscomp -MD -MF out.d -I inc -n ns out.bin >/dev/null && cat out.d && pmnscomp --check out.bin
