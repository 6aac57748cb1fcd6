export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
chkhelp -n nosuch "$CASE_DIR/demo"
echo "exit $?"
