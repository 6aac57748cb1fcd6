export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
printf '# top\n@ demo.uptime one\n#in text\nline 1\n# more\n#\nline 2\n#\n\n#\n@ demo.load two\n#only comments\n#\n' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
od -An -c -v out.pag
