export PACKAGE_BUILD_DATE=today
printf "\n \t \ng {\n\t\n  a.b A\n   \n}\n\t\n\n" | pmgenmap
