export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\tz\t1:0:1\n\tevent\t1:0:9\n\ta\t1:0:2\n}\n' >ns
pminfo -n ns -m && pminfo -n ns -m 1.0.9
