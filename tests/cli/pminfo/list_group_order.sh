export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'a.b {\n\tc\n\td\t3:0:1\n}\na.b.c {\n\tx\t3:1:0\n}\nroot {\n\ta\n\tlast\t3:9:9\n}\na {\n\tfirst\t3:0:0\n\tb\n\tz\t3:0:2\n}\n' >ns
pminfo -n ns -m
