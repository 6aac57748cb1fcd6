export PACKAGE_BUILD_DATE=today
# PCP's form: the map up to the error, then the error, on stdout
printf "g {\n a.b A\n}\nthree words here\n" >spec; pmgenmap spec
