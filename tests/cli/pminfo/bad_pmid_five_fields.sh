export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\ta\t1:0:1\n\tb\t1 : 2 :3:4:5\n}\n' >ns
pminfo -n ns
