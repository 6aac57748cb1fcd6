export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\n\ta\t1:0:1\n  \t  \n\n\tb\t1:0:2  \n\tc  1:0: \n}\n' >ns
pminfo -n ns
