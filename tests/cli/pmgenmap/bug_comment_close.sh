# expected: Debian's output for the same input with "* /" in place of "*/"
export PACKAGE_BUILD_DATE=today
printf "# ends */ early\n# a*/b */*/\ng {\n a.b A\n}\n" | pmgenmap
