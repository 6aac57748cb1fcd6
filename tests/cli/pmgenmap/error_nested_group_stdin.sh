export PACKAGE_BUILD_DATE=today
# PCP names no file here ("[:4] nested group?"), nor does pmkit in PCP's form
printf "g {\n a.b A\n\th {\n c.d C\n}\n" | pmgenmap
