# every error is reported (PCP stops at the first)
printf "x y z\ng {\n b c d\n}\n}\nq{\nr {\n s\n" >spec; pmgenmap spec
