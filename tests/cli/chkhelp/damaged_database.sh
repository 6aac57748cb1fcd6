export PCP_BINADM_DIR="$(dirname "$(command -v chkhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases):
# a damaged database is refused with the reason; PCP reads past the data
# the index cut short by 5 bytes
head -c 115 "$CASE_DIR/demo.dir" >cut.dir
cp "$CASE_DIR/demo.pag" cut.pag
chkhelp -n "$CASE_DIR/demo.pmns" -p cut
echo "exit $?"
# the text file cut short: the last entries' texts are not terminated
cp "$CASE_DIR/demo.dir" short.dir
head -c 500 "$CASE_DIR/demo.pag" >short.pag
chkhelp -n "$CASE_DIR/demo.pmns" short
echo "exit $?"
