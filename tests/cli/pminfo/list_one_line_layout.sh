export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root { a 1:2:3 b c 1 : 2 : 4 }\nb { x 01:002:0003 y 7 z 1:2:3:4 }\n' >ns
pminfo -n ns -m
