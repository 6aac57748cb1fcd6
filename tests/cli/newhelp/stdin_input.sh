export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
printf '@ demo.uptime from stdin\nlong text\n' | newhelp -n "$CASE_DIR/demo.pmns" -o out
echo "exit $?"
od -An -c -v out.pag
