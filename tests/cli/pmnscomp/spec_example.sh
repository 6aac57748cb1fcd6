# docs/pmns-format.md §9: root { a 1:0:1 } gives a 320-byte image with 6
# name-index slots, one leaf, one non-leaf (the root) and 112 bytes of nodes
printf 'root { a 1:0:1 }\n' >ns
pmnscomp -n ns out.bin && wc -c <out.bin
