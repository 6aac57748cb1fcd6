export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'g {\n\te\n}\ng.e {\n}\nroot {\n\ta\t1:0:1\n\tg\n\th\n\tb\t1:0:2\n}\nh {\n\te\n\tx\t1:0:3\n}\nh.e {\n}\n' >ns
pminfo -n ns -m
