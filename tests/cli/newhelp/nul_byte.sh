export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases);
# a NUL byte cannot be stored in a help text: an error
printf '@ demo.uptime one\ntext\000more\n@ demo.load two\n' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
ls
