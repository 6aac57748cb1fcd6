export PACKAGE_BUILD_DATE=today
# PCP writes "};" for a "}" outside any group and exits 0
printf "g {\n a.b A\n}\n}\n" >spec; pmgenmap spec
