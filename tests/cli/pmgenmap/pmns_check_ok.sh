# expected: Debian's output (Debian has no -n)
export PACKAGE_BUILD_DATE=today PCP_DERIVED_CONFIG=
printf "root {\n\tkernel\n\thinv\n}\nkernel {\n\tload\t1:0:1\n}\nhinv {\n\tncpu\t1:1:0\n}\n" >ns
printf "g {\n kernel.load L\n hinv.ncpu N\n event.flags F\n}\n" | pmgenmap -n ns
