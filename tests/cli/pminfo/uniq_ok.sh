export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\ta\t1:0:1\n\td1\t33:*:*\n\td2\t33:*:*\n\tb\t1:0:2\n}\n' >ns
pminfo -N ns -m
