export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases);
# stderr is pmkit's (PCP's message texts in pmkit's diagnostic format)
# no entry size limit (PCP truncates at 1024 bytes and loses the next entry)
i=0
while [ $i -lt 200 ]; do echo "line $i of a long help text"; i=$((i + 1)); done >body
{ echo '@ demo.uptime big'; cat body; echo '@ demo.load after the big one'; echo 'kept'; } >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
chkhelp -n "$CASE_DIR/demo.pmns" -H out demo.uptime >shown
printf '\nPMID 245.0.0 demo.uptime:' >want
cat body >>want
cmp shown want && echo text intact
chkhelp -n "$CASE_DIR/demo.pmns" -O -H out demo.load
