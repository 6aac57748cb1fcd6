# A group of 603 children (the duplicate check's hash set outgrows the
# stack) repeating three names: the one named first is reported, as by
# Debian's pminfo.
export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
{
    printf 'root {\n\tx\t2:0:0\n\tg\n}\ng {\n'
    i=0
    while [ $i -lt 600 ]; do printf '\tm%d\t1:0:%d\n' $i $((i % 1000)); i=$((i + 1)); done
    printf '\tm37\n\tm5\t1:2:1\n\tm599\t1:2:0\n}\n'
} >ns
pminfo -n ns
