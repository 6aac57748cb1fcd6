#!/bin/sh
# interp_grow.sh OURS THEIRS GEN
#
# Interpolated fetches from an archive that grows while it is open:
# probe_interp_grow.c built against pmkit (OURS) and against Debian's
# libpcp (THEIRS) cuts a gen_archive (GEN) archive's volume after a few
# records, fetches at 1 s steps until the end, appends the rest and
# fetches on in the same context; both must print the same (the records
# added are seen, pmkit's kept end notwithstanding, and a fetch past the
# end still moves the time on, as Debian's does).  Versions 2 and 3, cut
# after 1, 8 and 19 of 20 records.  Exit 0 identical, 1 any difference, 2
# usage, 77 skip.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
[ $# -eq 3 ] || {
    echo "usage: interp_grow.sh OURS THEIRS GEN" >&2
    exit 2
}
ours=$(abspath "$1")
theirs=$(abspath "$2")
gen=$(abspath "$3")
need_ours "$ours" "probe_interp_grow (pmkit)"
need_built "$theirs"
make_tmp interp_grow
export PCP_DERIVED_CONFIG=

n=0
ndiff=0
for v in 2 3; do
    for keep in 1 8 19; do
        n=$((n + 1))
        for side in ours theirs; do
            d=$tmp/$side
            rm -rf "$d" && mkdir "$d" || exit 1
            "$gen" -V $v -m 6 -i 2 -n 20 "$d/a" >/dev/null || {
                echo "FAIL: $gen could not write its archive"
                exit 1
            }
            rm -f "$d/a.index" # its entries would name offsets past the cut
            eval "prog=\$$side"
            timeout 60 "$prog" "$d/a" $keep >"$tmp/$side.out" 2>&1
            echo "exit $?" >>"$tmp/$side.out"
        done
        if ! grep -q '^grown' "$tmp/theirs.out"; then
            echo "FAIL v$v keep $keep: Debian's probe did not get to the growth"
            ndiff=$((ndiff + 1))
        elif ! cmp -s "$tmp/theirs.out" "$tmp/ours.out"; then
            echo "DIFF v$v keep $keep: < Debian, > pmkit"
            diff "$tmp/theirs.out" "$tmp/ours.out" | cut -c1-200 | head -8 | sed 's/^/  /'
            ndiff=$((ndiff + 1))
        fi
    done
done
if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $n cases differ"
    exit 1
fi
echo "oracle.interp_grow: $n cases identical"
exit 0
