# expected: Debian's output with the three guard lines added
export PACKAGE_BUILD_DATE=today
printf "g {\n a.b A\n}\n" | pmgenmap -g PMNSMAP_H
