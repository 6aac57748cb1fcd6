export PACKAGE_BUILD_DATE=today
printf "map {\n\tkernel.all.load\tLOAD\n}\n" >spec.map; pmgenmap spec.map
