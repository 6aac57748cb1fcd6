export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases);
# stderr is pmkit's (PCP's message texts in pmkit's diagnostic format)
# no line length limit (PCP splits lines at 127 bytes, with a warning)
long=$(printf '%0300d' 0 | tr 0 x)
printf '@ demo.uptime %s\n%s\nshort\n%s\n' "one-$long" "text-$long" "end-$long" >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
chkhelp -n "$CASE_DIR/demo.pmns" -O -H out demo.uptime | tr -s x
chkhelp -n "$CASE_DIR/demo.pmns" -O -H out demo.uptime | wc -c
