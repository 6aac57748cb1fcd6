export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf '#ifdef X\nroot {\n\ta\t1:0:1\n}\n' >ns
pminfo -n ns
