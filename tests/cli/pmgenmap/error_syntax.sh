# stderr is pmkit's (PCP's message in pmkit's diagnostic format); nothing on stdout
printf "g {\n a.b A\n}\nthree words here\n" >spec; pmgenmap spec
