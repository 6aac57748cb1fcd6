export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# pmkit differs from PCP here on purpose (docs/compat.md, help databases);
# a missing input fails the run before anything is written (PCP leaves a
# partial one.pag behind); every input is still checked
printf '@ demo.uptime up\n' >one
printf '@ no.such x\n' >three
newhelp -n "$CASE_DIR/demo.pmns" one nosuchfile three
echo "exit $?"
ls
