export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
chkhelp "$CASE_DIR/demo" -n "$CASE_DIR/demo.pmns" demo.uptime -H
echo "exit $?"
