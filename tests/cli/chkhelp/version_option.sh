export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
chkhelp -v 2 -n "$CASE_DIR/demo.pmns" -p "$CASE_DIR/demo"
echo "exit $?"
chkhelp -v 3 "$CASE_DIR/demo"
echo "exit $?"
chkhelp -v x "$CASE_DIR/demo"
echo "exit $?"
