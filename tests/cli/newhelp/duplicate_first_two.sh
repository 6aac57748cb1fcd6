export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# PCP's rule counts stored entries: the first two may share a key (both are
# stored), the third may not repeat the second; the database is Debian's
printf '@ demo.uptime a\none\n@ demo.uptime b\ntwo\n' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
od -An -tx1 -v out.dir
od -An -c -v out.pag
