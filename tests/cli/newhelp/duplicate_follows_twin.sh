export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# PCP's rule: a key that repeats the entry stored just before it (once two
# are stored) is abandoned, exit 2; PCP names the line that ended the entry
# (4), pmkit the entry's own (3), and writes nothing (docs/compat.md)
printf '@ demo.uptime a\n@ demo.load b\n@ demo.load c\n@ 245.1 x\n' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
ls
