export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
newhelp -v 3 -n "$CASE_DIR/demo.pmns" -o a "$CASE_DIR/demo.help"
echo "exit $?"
newhelp -v x -n "$CASE_DIR/demo.pmns" -o a "$CASE_DIR/demo.help"
echo "exit $?"
newhelp -v 2x -n "$CASE_DIR/demo.pmns" -o a "$CASE_DIR/demo.help"
echo "exit $?"
ls
