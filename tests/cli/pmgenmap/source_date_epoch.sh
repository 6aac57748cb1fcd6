# expected: Debian 6.0.3 run with PACKAGE_BUILD_DATE="$(date -u -d @1700000000)",
# the date line current PCP derives from SOURCE_DATE_EPOCH
unset PACKAGE_BUILD_DATE; export SOURCE_DATE_EPOCH=1700000000
printf "g {\n a.b A\n}\n" | pmgenmap
