export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
# -p alone implies -O; names come from pmNameAll ("a or b")
chkhelp -n "$CASE_DIR/demo.pmns" -p "$CASE_DIR/demo"
echo "exit $?"
