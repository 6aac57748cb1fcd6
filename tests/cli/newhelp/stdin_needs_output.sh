export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
printf '@ demo.uptime from stdin\n' | newhelp -n "$CASE_DIR/demo.pmns"
echo "exit $?"
ls
