#!/bin/sh
# interp_cache.sh OURS TESTSUITE GEN
#
# pmkit's cache between interpolated fetches (libpcp/context/
# archive_interp.c) must not change an answer: probe_interp.c built against
# pmkit (OURS) walks archives of Debian's pcp-testsuite (TESTSUITE is its
# unpacked var/lib/pcp/testsuite) and archives gen_archive writes (GEN: -k,
# -k -o with metrics logged once or only at the end, and two -k ones about
# 30 seconds apart as one set) with its wSEED
# cases (pmSetModeHighRes at random times, near the last fetch or at it,
# steps of 0 to 40 intervals either way, the metric list and the profile
# changed now and then, with the cache kept across them), and
# the output must be the same with the cache as without it
# (PMKIT_INTERP_CACHE=0: every fetch computed afresh from the records
# around its time, which oracle.interp compares with Debian's libpcp).
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
[ $# -eq 3 ] || {
    echo "usage: interp_cache.sh OURS TESTSUITE GEN" >&2
    exit 2
}
ours=$(abspath "$1")
suite=$2
gen=$(abspath "$3")
need_ours "$ours" "probe_interp (pmkit)"
need_testsuite "$suite"
suite=$(cd "$suite/archives" && pwd)
make_tmp interp_cache
export PCP_DERIVED_CONFIG=

"$gen" -k -V 3 -m 24 -i 4 -n 40 -x 3 "$tmp/gen-v3" &&
    "$gen" -k -o -m 24 -i 4 -n 40 "$tmp/gen-once" &&
    "$gen" -k -m 24 -i 4 -n 40 -s 1700000000 "$tmp/gen-set1" &&
    "$gen" -k -m 24 -i 4 -n 40 -s 1700000080 "$tmp/gen-set2" || {
    echo "FAIL: $gen could not write its archives"
    exit 1
}

cases="w1 w2 w3 w4"
archives="gap gap2 changeinst count-mark interpmark instant-1 mark-bug dyninsts wrap markmerge
omnibus_v3 bug1057 multi multi-xz $tmp/gen-v3 $tmp/gen-once $tmp/gen-set1,$tmp/gen-set2"
n=0
ndiff=0
for a in $archives; do
    n=$((n + 1))
    (cd "$suite" && timeout 60 "$ours" -S "$a" $cases) >"$tmp/cached" 2>&1
    echo "exit $?" >>"$tmp/cached"
    (cd "$suite" && PMKIT_INTERP_CACHE=0 timeout 60 "$ours" -S "$a" $cases) >"$tmp/fresh" 2>&1
    echo "exit $?" >>"$tmp/fresh"
    if ! grep -q '^[0-9]*: [0-9]' "$tmp/fresh"; then
        echo "FAIL $(basename "$a"): no values fetched"
        ndiff=$((ndiff + 1))
    elif ! cmp -s "$tmp/fresh" "$tmp/cached"; then
        echo "DIFF $(basename "$a"): < afresh, > cached"
        diff "$tmp/fresh" "$tmp/cached" | cut -c1-300 | head -8 | sed 's/^/  /'
        ndiff=$((ndiff + 1))
    fi
done
if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $n archives differ"
    exit 1
fi
echo "oracle.interp_cache: $n archives, $cases: identical with and without the cache"
exit 0
