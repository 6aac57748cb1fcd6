export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
# -e walks the namespace and lists leaves that have no entry
chkhelp -n "$CASE_DIR/demo.pmns" -e "$CASE_DIR/demo"
echo "exit $?"
chkhelp -n "$CASE_DIR/demo.pmns" -e "$CASE_DIR/demo" other demo.cpu demo.uptime
echo "exit $?"
