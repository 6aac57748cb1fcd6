export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases);
# numeric keys must fit their fields (PCP silently truncates 600.0.0 to 88.0.0)
printf '@ 600.0.0 a\n@ 1.5000.0 b\n@ 1.0.1024 c\n@ -1.2 d\n@ 1.4194304 e\n@ 511.4095.1023 fits\n' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
ls
