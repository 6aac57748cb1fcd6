# expected: Debian's output for the same input with LF line ends
export PACKAGE_BUILD_DATE=today
printf "# a comment\r\ng {\r\n a.b A\r\n\r\n c.d C\r\n}\r\n" | pmgenmap
