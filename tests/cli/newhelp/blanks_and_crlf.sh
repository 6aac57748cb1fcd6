export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# blanks after @ and around the key; CR kept in texts; only trailing
# newlines are removed from the long text
printf '@\tdemo.uptime\t\tsum with tab\r\ntext\r\n\r\n' >src
printf '@demo.load   x  y  \n  indented  \n\n   \n\n\n' >>src
printf '@ demo.cpu.user   \n@ demo.cpu.sys\vvt\n\fff\n' >>src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
od -An -c -v out.pag
od -An -tx1 -v out.dir
