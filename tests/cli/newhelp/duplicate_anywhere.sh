export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases);
# -S: a key defined twice is an error wherever the entries are (PCP only sees
# a repeat of the entry just stored, and stores the others twice)
printf '@ demo.uptime a\n@ demo.load b\n@ demo.uptime c\n@ demo.alias same PMID as demo.load\n@ 245.0.0 numeric form of demo.uptime\n@ 245.1 x\n@ 245.1 y\n' >src
newhelp -S -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
ls
