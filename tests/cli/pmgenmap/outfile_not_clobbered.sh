printf "old\n" >map.h; printf "g {\n a.b A\n" >spec; pmgenmap -o map.h spec; echo "exit $?"; cat map.h; ls
