export PACKAGE_BUILD_DATE=today
printf 'g\\x {\n a"b%%s\\n SYM\\\n \304\205.\377 }\n } SYM2\n}\n' | pmgenmap
