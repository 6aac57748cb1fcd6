export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# stderr is pmkit's (PCP's message texts in pmkit's diagnostic format)
# stderr is pmkit's for the namespace, PCP's for newhelp's own line
newhelp -n nofile -o out "$CASE_DIR/demo.help"
echo "exit $?"
ls
