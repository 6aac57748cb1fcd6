export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
newhelp -v 2 -n "$CASE_DIR/demo.pmns" -o a "$CASE_DIR/demo.help"
echo "exit $?"
newhelp --version=2 -n "$CASE_DIR/demo.pmns" -o b "$CASE_DIR/demo.help"
echo "exit $?"
cmp a.dir b.dir && cmp a.pag b.pag && echo same
