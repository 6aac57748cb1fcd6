export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\ta\t1:2:3\n\tb\n\tc\t1:2:4\n}\nb {\n\tx\t1:2:3\n}\n' >ns
pminfo -N ns -m a
