export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
newhelp -D appl0 -n "$CASE_DIR/demo.pmns" -o a "$CASE_DIR/demo.help"
echo "exit $?"
newhelp -D nosuchflag -n "$CASE_DIR/demo.pmns" -o b "$CASE_DIR/demo.help"
echo "exit $?"
ls
