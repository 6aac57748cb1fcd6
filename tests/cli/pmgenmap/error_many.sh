# rich form: every error is reported (PCP, and pmkit's PCP form, stop at the first)
printf "x y z\ng {\n b c d\n}\n}\nq{\nr {\n s\n" >spec; PMKIT_DIAGNOSTICS=rich pmgenmap spec
