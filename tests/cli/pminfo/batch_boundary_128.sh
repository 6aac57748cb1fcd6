export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
{ printf 'root {\n\tbig\n\tlast\t1:0:999\n}\nbig {\n'; i=0; while [ $i -lt 128 ]; do printf '\tm%d\t1:0:%d\n' $i $i; i=$((i+1)); done; printf '}\n'; } >ns
pminfo -n ns -m last big 2.3 nosuch big.m0
