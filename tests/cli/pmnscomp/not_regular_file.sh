# an outfile that is not a regular file is never replaced, even with -f
printf 'root { a 1:0:1 }\n' >ns
mkdir out.bin
pmnscomp -f -n ns out.bin
