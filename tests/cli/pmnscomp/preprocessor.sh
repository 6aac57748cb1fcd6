# the input is preprocessed: -D, -I and #include, as pmcpp does it
mkdir inc
printf '#define DOM 42\n' >inc/domain.h
printf '#include "domain.h"\nroot {\n\ta\tDOM:0:1\n#ifdef EXTRA\n\tb\tDOM:0:EXTRA\n#endif\n}\n' >ns
pmnscomp -I inc -D EXTRA=7 -n ns out.bin >/dev/null && pmnscomp --dump out.bin
