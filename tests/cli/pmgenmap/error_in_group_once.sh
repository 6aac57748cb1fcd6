# PCP adds "unterminated group?" after any error inside a group; one error here
printf "g {\n a.b A\n c.d\n e.f E\n}\n" >spec; pmgenmap spec
