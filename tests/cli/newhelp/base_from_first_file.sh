export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# no -o: the output is named after the first input; all inputs go in
printf '@ demo.uptime up\nfirst file\n' >one
printf 'text before the first @ is ignored\n@ demo.load load\nsecond file\n' >two
newhelp -n "$CASE_DIR/demo.pmns" one two
echo "exit $?"
ls
od -An -c -v one.pag
od -An -tx1 -v one.dir
