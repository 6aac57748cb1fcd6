export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\n\ta\t1:0:1\n  \t  \n\tb\n}\n\nb {\n\tc\t1:0:2\n\n\n\tc\t1:0:3\n}\n' >ns
pminfo -n ns
