export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
# names: found, without help, not a leaf, unknown, numeric, dynamic
chkhelp -n "$CASE_DIR/demo.pmns" "$CASE_DIR/demo" demo.uptime demo.load other.nohelp demo.cpu no.such 245.0.0 demo.proc.x demo.alias
echo "exit $?"
