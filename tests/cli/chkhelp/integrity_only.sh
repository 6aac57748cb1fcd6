export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
chkhelp -n "$CASE_DIR/demo.pmns" "$CASE_DIR/demo"
echo "exit $?"
