# a write that fails part way (here: over the file size limit) leaves the
# old outfile as it was and no temporary file behind
awk 'BEGIN { print "root {"; for (i = 0; i < 300; i++) printf "\tm%d\t1:0:%d\n", i, i; print "}" }' >ns
echo precious >out.bin
(ulimit -f 4 && pmnscomp -f -n ns out.bin)
echo "exit $?"
cat out.bin
ls
