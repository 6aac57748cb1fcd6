export PACKAGE_BUILD_DATE="release day" SOURCE_DATE_EPOCH=1700000000
printf "g {\n a.b A\n}\n" | pmgenmap
