export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases);
# each error names its own file and the line of its @ (PCP: the line that
# ended the entry, counted across all the files)
printf '@ demo.uptime up\ntext\n\n@ bad.one x\nmore\n' >first
printf '# comment\n@ demo.load ok\n@ bad.two y\n' >second
newhelp -n "$CASE_DIR/demo.pmns" -o out first second
echo "exit $?"
