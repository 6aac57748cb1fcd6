export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\ta\t1:0:1\n\tb\t1:0:2\n\tc\t1:0:3\n\tc\t1:0:4\n\tb\t1:0:5\n}\n' >ns
pminfo -n ns
