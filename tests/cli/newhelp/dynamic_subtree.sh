export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# names below a dynamic root take the root's PMID
printf '@ demo.proc.anything dynamic\ntext\n' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
od -An -tx1 -v out.dir
