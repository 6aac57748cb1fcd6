export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# PCP's rule: a repeated key that does not follow its twin is stored twice
# (Debian's linux agent help has four); the database is Debian's, byte for byte
printf '@ demo.uptime a\nfirst\n@ demo.load b\n@ demo.uptime c\nsecond\n@ 245.1 x\n@ demo.load d\n@ 245.1 y\n' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
od -An -tx1 -v out.dir
od -An -c -v out.pag
