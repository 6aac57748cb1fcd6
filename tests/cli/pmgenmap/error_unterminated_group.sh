export PACKAGE_BUILD_DATE=today
# PCP's form: at the last line (the rich form names the line that opened the group)
printf "g {\n a.b A\n}\nh {\n c.d C\n\n" >spec; pmgenmap spec
