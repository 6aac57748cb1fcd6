export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# stderr is pmkit's (PCP's message texts; pmkit adds the reason)
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
printf 'this is not a help index' >bad.dir
cp "$CASE_DIR/demo.pag" bad.pag
chkhelp -n "$CASE_DIR/demo.pmns" bad
echo "exit $?"
