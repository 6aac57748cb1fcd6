# -f replaces an existing outfile (by rename: no temporary file is left)
printf 'root { a 1:0:1 }\n' >ns
echo old >out.bin
pmnscomp -f -n ns out.bin >/dev/null && pmnscomp --check out.bin && ls
