export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
cp "$CASE_DIR/demo.pmns" ns && cp "$CASE_DIR/demo.help" help
newhelp -n ns -o out help
echo "exit $?"
od -An -tx1 -v out.dir
od -An -c -v out.pag
