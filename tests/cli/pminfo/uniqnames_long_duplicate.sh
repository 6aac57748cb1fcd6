export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
printf 'root {\n\tzeta\t1:0:1\n\talpha\n\tmid\t1:0:1\n\tdyn\t42:*:*\n\tempty\n\tbeta\t2:3:4\n}\nalpha {\n\tz\t1:0:1\n\tb\t1:0:2\n\ta\t1:0:1\n}\nempty {\n}\n' >ns
pminfo --uniqnames=ns
