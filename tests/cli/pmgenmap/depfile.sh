export PACKAGE_BUILD_DATE=today PCP_DERIVED_CONFIG=
printf "root {\n\tkernel\n}\nkernel {\n\tload\t1:0:1\n}\n" >my\ ns; printf "g {\n kernel.load L\n}\n" >spec
pmgenmap -n "my ns" -M map.d -o map.h spec; echo "exit $?"; cat map.d; ls
