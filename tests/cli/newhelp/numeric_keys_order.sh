export PCP_BINADM_DIR="$(dirname "$(command -v newhelp)")" PCP_DERIVED_CONFIG=
# PMIDs before InDoms, each by cluster.item (or serial) alone: keys that tie
# keep their input order
printf '@ 2.0.1 a\n@ 1.0.1 b\n@ 3.0.0 c\n@ 1.1.0 d\n@ 5.3 e\n@ 4.3 f\n@ 2.1.1 g\n@ 7.0.1 h\n@ 6.2 i\n@ 1.0.0 j\n@ 511.4095.1023 k\n@ 511.4194303 l\n@ 0.0.0 m\n@ 01.002.0003 n\n' >src
newhelp -n "$CASE_DIR/demo.pmns" -o out src
echo "exit $?"
od -An -tx1 -v -w12 out.dir
od -An -c -v out.pag
