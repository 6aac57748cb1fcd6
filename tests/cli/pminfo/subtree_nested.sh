export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\ta\n\tb\t1:0:9\n}\na {\n\tx\t1:0:1\n\tb\n\ty\t1:0:3\n}\na.b {\n\tc\n\tq\t1:1:1\n}\na.b.c {\n\td\t1:2:2\n}\n' >ns
pminfo -n ns a.b a a.b.c.d b -m
