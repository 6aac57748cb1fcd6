export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases);
# stderr is pmkit's (PCP's message texts in pmkit's diagnostic format)
# a last line without a newline is an ordinary line (PCP warns that it
# split a long line and exits 1); the database is the same as PCP's
printf '@ demo.uptime up\ntext\nlast' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
od -An -c -v out.pag
