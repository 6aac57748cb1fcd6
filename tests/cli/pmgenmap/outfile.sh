# expected: Debian's stdout, in the file
export PACKAGE_BUILD_DATE=today
printf "g {\n a.b A\n}\n" >spec; pmgenmap -o map.h spec; echo "exit $?"; cat map.h; ls
