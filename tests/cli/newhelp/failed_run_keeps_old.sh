export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases);
# a failed run leaves an existing database untouched
printf '@ demo.uptime good\ntext\n' >good
newhelp -n "$CASE_DIR/demo.pmns" -o out good
echo "exit $?"
cp out.dir saved.dir && cp out.pag saved.pag
printf '@ demo.load fine\n@ no.such bad\n' >bad
newhelp -n "$CASE_DIR/demo.pmns" -o out bad
echo "exit $?"
cmp out.dir saved.dir && cmp out.pag saved.pag && echo untouched
ls
