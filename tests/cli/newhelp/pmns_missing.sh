export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
newhelp -n nofile -o out "$CASE_DIR/demo.help"
echo "exit $?"
ls
