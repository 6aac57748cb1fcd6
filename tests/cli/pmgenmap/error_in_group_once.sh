# rich form: one error here (PCP adds "unterminated group?" after any error inside a group)
printf "g {\n a.b A\n c.d\n e.f E\n}\n" >spec; PMKIT_DIAGNOSTICS=rich pmgenmap spec
