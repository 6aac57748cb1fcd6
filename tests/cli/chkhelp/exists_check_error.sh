export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
chkhelp -n "$CASE_DIR/demo.pmns" -e "$CASE_DIR/demo" no.such other
echo "exit $?"
