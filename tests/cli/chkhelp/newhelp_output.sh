export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# demo.dir/demo.pag: Debian's newhelp -n demo.pmns on ../newhelp/demo.help
# pmkit's newhelp writes what Debian's chkhelp shows (the demo database)
cp "$CASE_DIR/demo.pmns" ns && cp "$CASE_DIR/../newhelp/demo.help" help
newhelp -n ns -o out help
chkhelp -n ns -p -i -O -H out
