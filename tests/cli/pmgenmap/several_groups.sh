export PACKAGE_BUILD_DATE=today
printf "first {\n a.b A\n c.d C\n}\nempty {\n}\nsecond {\n e.f E\n g.h G\n i.j I\n}\nthird {\n a.b A\n}\n" | pmgenmap
