export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# an @ line without a key: warning (exit 1), its text is skipped
printf '@ demo.uptime up\ntext\n@\nskipped\n@  \t\nskipped too\n@ demo.load load\n' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
od -An -c -v out.pag
