export PACKAGE_BUILD_DATE=today
export PCP_DERIVED_CONFIG=
printf "root {\n\tkernel\n}\nkernel {\n\tload\t1:0:1\n}\n" >ns
printf "g {\n kernel.load L\n kernel.lode X\n\tkernel\tK\n}\nh {\n\tno.such\tY\n}\n" >spec; pmgenmap -n ns spec
