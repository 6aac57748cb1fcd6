export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
chkhelp -p "$CASE_DIR/demo" demo.uptime
echo "exit $?"
chkhelp -O "$CASE_DIR/demo"
echo "exit $?"
chkhelp -e -i "$CASE_DIR/demo"
echo "exit $?"
chkhelp -e -p "$CASE_DIR/demo" demo.uptime
echo "exit $?"
chkhelp -e -p
echo "exit $?"
chkhelp -n
echo "exit $?"
