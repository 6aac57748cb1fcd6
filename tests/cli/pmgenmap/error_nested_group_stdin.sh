# PCP names no file here ("[:4] nested group?"); pmkit says <stdin>
printf "g {\n a.b A\n\th {\n c.d C\n}\n" | pmgenmap
