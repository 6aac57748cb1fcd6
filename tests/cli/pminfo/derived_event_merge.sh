export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\tevent\n\ta\t1:0:1\n}\nevent {\n\tfoo\t1:0:5\n\tflags\t2:0:0\n}\n' >ns
pminfo -n ns -m && pminfo -n ns -m 511.0.1 511.0.2
