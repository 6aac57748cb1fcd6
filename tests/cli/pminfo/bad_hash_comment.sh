export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
# stderr: PCP's layout with the line fixed (PCP names no line: docs/compat.md)
printf '# a comment\nroot {\n\ta\t1:0:1\n}\n' >ns
pminfo -n ns
