export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
newhelp -n
echo "exit $?"
newhelp -o
echo "exit $?"
