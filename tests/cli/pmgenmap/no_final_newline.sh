export PACKAGE_BUILD_DATE=today
printf "g {\n a.b A\n}\n# last" | pmgenmap
