export PACKAGE_BUILD_DATE=today
# CRLF is one line end: line numbers are the editor's (PCP counts 2 lines per CRLF)
printf "g {\r\n a.b A\r\n bad\r\n}\r\n" >spec; pmgenmap spec
