export PCP_BINADM_DIR="$(dirname "$(command -v pminfo)")" PCP_DERIVED_CONFIG=
{
    printf 'root {\n'
    for i in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do printf '\tc%d\t1:0:%d\n' $i $i; done
    printf '\tc9\t1:1:9\n\tc4\n\tc2\t1:1:2\n}\n'
} >ns
pminfo -n ns
