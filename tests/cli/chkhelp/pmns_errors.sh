export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# stderr is pmkit's for the namespace (PCP's message texts in pmkit's diagnostic format)
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
# stderr is pmkit's for the namespace, PCP's for chkhelp's own line
chkhelp -n nosuch "$CASE_DIR/demo"
echo "exit $?"
