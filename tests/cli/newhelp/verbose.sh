export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# -V lists the entries stored; stderr is pmkit's for the warnings
printf '@ demo.uptime up\ntext\n@ demo.load no help\n@ demo.cpu.user\ntext\n@ 245.0\n@ 245.1 indom\nindom text\n' >src
newhelp -V -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
od -An -c -v out.pag
