export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf '#define D 42\n/* C comments are stripped by pmcpp */\nroot {\n\ta\tD:0:1\t/* x */\n\tb\tD:*:*\n}\n' >ns
pminfo -n ns -M
