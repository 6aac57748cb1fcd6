export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
# stderr is pmkit's (PCP's message texts in pmkit's diagnostic format)
: >ns
pminfo -n ns
