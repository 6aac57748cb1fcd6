export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
: >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
od -An -tx1 -v out.dir
od -An -c -v out.pag
printf 'just text\n# and a comment\n' >src2
newhelp -n "$CASE_DIR/demo.pmns" -o out2 src2
echo "exit $?"
cmp out.dir out2.dir && cmp out.pag out2.pag && echo same
