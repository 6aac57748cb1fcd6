# --dump gives the source's form back: hidden empty groups stay, a leaf
# "event" stays a leaf, the derived event.flags/event.missed are left out
printf 'root {\n\tevent\t3:0:1\n\tempty\n\tdyn\t30:*:*\n}\nempty {\n}\n' >ns
pmnscomp -n ns out.bin >/dev/null && pmnscomp --dump out.bin
