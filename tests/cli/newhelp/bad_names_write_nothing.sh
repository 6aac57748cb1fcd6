export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases);
# an entry that cannot be resolved fails the run: nothing is written (PCP
# writes the other entries and exits 2)
printf '@ demo.uptime ok\ntext\n@ no.such x\n@ demo.cpu not a leaf\n@ 1.2.3junk x\n@ 1.2.x y\n' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
ls
