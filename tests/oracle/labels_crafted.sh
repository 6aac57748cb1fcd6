# labels_crafted.sh - sourced by the oracle scripts that compare pmdumplog
# -e and the label sets' table over archives with label records added
# (debian_archive_readers.sh, pmdumplog_diff.sh): the records and how the
# archives are made, in one place.
# shellcheck shell=sh

# labels_crafted FN (its variables lc_*): in the current directory, which holds omnibus_v3 and
# omnibus_v2 (their .0, .index and .meta), copies of each with label
# records added (PMKIT_GEN_LABELS, the gen_labels program; one line of
# records a copy), crafted$V-$N (V the version), each then given to FN: a class and
# identifier observed again at the same time (the same sets, others, some
# of the same instances), before, between and after those there, with no
# sets (the newest, which starts a second chain, or not; the older chain
# with sets left, of context labels and of others), context labels with
# identifiers other than PM_ID_NULL
labels_crafted() {
    for lc_v in 3 2; do
        # the base's second and third times of observation
        case $lc_v in
        3) lc_t2=1648968657.702968878 lc_t3=1648968659.981786652 ;;
        2) lc_t2=1648968650.843730000 lc_t3=1648968653.122439000 ;;
        esac
        lc_s2=${lc_t2%.*} lc_s3=${lc_t3%.*} lc_n=0
        while read -r lc_recs; do
            lc_n=$((lc_n + 1))
            lc_c=crafted$lc_v-$lc_n
            cp "omnibus_v$lc_v.0" "$lc_c.0"
            cp "omnibus_v$lc_v.index" "$lc_c.index"
            # shellcheck disable=SC2086 # the records are words
            "$PMKIT_GEN_LABELS" "omnibus_v$lc_v.meta" "$lc_c.meta" $lc_recs || exit 1
            "$1" "$lc_c"
        done <<EOF
$((lc_s3 + 1)).000005000:2:29:-1={"agent":"later"} $lc_t2:2:29:-1={"agent":"sample","role":"testing"} $lc_t2:4:0x7400001:-1={"model":"XYZ"} $((lc_s2 - 1)).000001000:16:0x740000e:-1=?{"changed":true} $lc_t3:1:-1:-1={"hostname":"h2"} $((lc_s3 + 2)).0:32:0x7400001:0={"a":1};1={"a":2}
$lc_t2:2:29:-1={"agent":"x"} $lc_t2:2:29:-1={"agent":"sample","role":"testing"} $((lc_s3 + 4)).0:2:29:-1={"agent":"x"} $((lc_s3 + 4)).0:2:29:-1={"agent":"y"} $((lc_s3 + 4)).0:2:29:-1={"agent":"y"} $((lc_s3 + 4)).0:2:29:-1={"agent":"x"}
$lc_t2:2:29:-1=?{"agent":"sample","role":"testing"} $((lc_s2 - 1)).0:8:0x7400000:-1={"cluster":"zero"} $((lc_s3 + 1)).0:8:0x7800000:-1={"cluster":"zero"}
$((lc_s3 + 2)).0:32:0x7400001:0={"a":1};1={"a":2} $((lc_s3 + 2)).0:32:0x7400001:0={"a":1};1={"a":3} $((lc_s3 + 2)).0:32:0x7400001:0={"a":1} $((lc_s3 + 2)).0:32:0x7400001:0={"a":1} $((lc_s3 + 2)).0:32:0x7400001:5={"a":1};1={"a":2} $((lc_s3 + 2)).0:32:0x7400001:1={"a":2};5={"a":1} $((lc_s3 + 2)).0:32:0x7400001:7={"a":2};5={"a":1} $((lc_s3 + 2)).0:32:0x7400001:5={"a":2};7={"a":1} $((lc_s3 + 3)).0:32:0x7400001:0={"a":1};1={"a":2};2={"a":3} $((lc_s3 + 3)).0:32:0x7400001:1={"a":2}
$((lc_s3 + 1)).0:2:29:-1={"agent":"later"} $((lc_s2 + 1)).0:2:29:-1={"agent":"sample","role":"testing"} $((lc_s2 + 1)).000000005:2:29:-1={"agent":"mid"} $((lc_s2 - 1)).0:2:29:-1={"agent":"mid"} $((lc_s2 + 1)).0:2:77: $((lc_s2 - 2)).0:1:-1: $((lc_s3 + 5)).0:1:-1:-1= $((lc_s3 + 6)).0:1:-1:-1={"x":1}
$((lc_s3 + 4)).0:1:-1: $((lc_s3 + 5)).0:1:-1:-1={"x":1} $((lc_s3 + 3)).0:1:-1:-1={"y":1} $((lc_s3 + 4)).0:1:-1:-1={"z":1} $((lc_s3 + 3)).0:32:0x7400001: $((lc_s3 + 2)).0:32:0x7400001:0={"a":1};1={"a":2} $((lc_s3 + 2)).0:32:0x7400001:0={"a":1}
$((lc_s2 + 1)).0:2:77: $((lc_s2 + 2)).0:2:77:-1={"x":1} $((lc_s2 - 1)).0:2:77:-1={"y":1} $((lc_s2 - 1)).0:2:78:-1={"y":1} $((lc_s2 + 2)).0:2:78:
$((lc_s3 + 10)).0:1:-1:-1={"a":1} $((lc_s3 + 12)).0:1:-1: $((lc_s3 + 10)).0:1:-1:-1={"c":1} $((lc_s3 + 10)).0:1:-1:-1={"d":1} $((lc_s3 + 13)).0:1:-1:-1={"e":1}
$((lc_s3 + 10)).0:2:77:-1={"a":1} $((lc_s3 + 12)).0:2:77: $((lc_s3 + 11)).0:2:77:-1={"c":1} $((lc_s3 + 10)).0:32:0x7400005:0={"a":1} $((lc_s3 + 12)).0:32:0x7400005: $((lc_s3 + 11)).0:32:0x7400005:0={"c":1}
$((lc_s3 + 10)).0:1:5:-1={"a":1} $((lc_s3 + 10)).0:1:-1:-1={"c":1} $((lc_s3 + 11)).0:1:7:-1={"d":1} $((lc_s3 + 11)).0:8:0x7400000:-1={"c":0}
EOF
    done
}
