# --check and --dump refuse damaged images, naming the problem and offset
printf 'root {\n\ta\t1:0:1\n}\n' >ns
pmnscomp -n ns good.bin >/dev/null
pmnscomp --check good.bin && echo sound
head -c 100 good.bin >short.bin
pmnscomp --check short.bin
echo "exit $?"
# the leaf's name (offset 128 + 36) changed: --dump shows it (opening checks
# only the header), --check finds it by the section checksum
{ head -c 164 good.bin; printf 'X'; tail -c +166 good.bin; } >flipped.bin
pmnscomp --dump flipped.bin
# the root record (offset 128 + 8) changed: refused when opened
{ head -c 136 good.bin; printf 'X'; tail -c +138 good.bin; } >root.bin
pmnscomp --dump root.bin
echo "exit $?"
pmnscomp --check flipped.bin
echo "exit $?"
pmnscomp --dump ns
echo "exit $?"
