# reported at the line that opened the group (PCP: at the last line)
printf "g {\n a.b A\n}\nh {\n c.d C\n\n" >spec; pmgenmap spec
