export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\ta\n\td2\t300:*:*\n}\na {\n\tx\t1:0:1\n\tdyn\t42:*:*\n\ty\t0:0:0\n}\n' >ns
pminfo -n ns -M
