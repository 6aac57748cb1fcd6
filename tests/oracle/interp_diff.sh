#!/bin/sh
# interp_diff.sh OURS THEIRS TESTSUITE KNOWN GEN
#
# Interpolated fetches (PM_MODE_INTERP) from archives of Debian's
# pcp-testsuite (TESTSUITE is its unpacked var/lib/pcp/testsuite: versions 2
# and 3, gaps, counter wraps, instances that come and go, multi-archive
# contexts) and from archives gen_archive -k writes (GEN: every type and
# semantics, wraps, marks, irregular samples; -o: metrics logged once or
# only at the end), read by probe_interp.c built
# against pmkit (OURS) and against Debian's libpcp (THEIRS): every value of
# every metric at every step, forward and backward, at steps from 0.3 to
# 100 sampling intervals, doubles to the last bit.  Each archive and case
# runs apart; their outputs must be identical, with each value set's
# instances in ascending order (-S), but for the pairs KNOWN lists, each a
# line "ARCHIVE CASE WHY" (WHY names the docs/compat.md entry), which must
# still differ.  A CASE "u:C" is case C with the instances in the order
# each library gives them.
# WHY "history" claims that Debian's answers depend on the fetches before
# (docs/compat.md): then each fetch that differs is asked again of Debian
# in a new context at the same time, and that answer must be pmkit's.
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
[ $# -eq 5 ] || {
    echo "usage: interp_diff.sh OURS THEIRS TESTSUITE KNOWN GEN" >&2
    exit 2
}
ours=$(abspath "$1")
theirs=$(abspath "$2")
suite=$3
known=$(abspath "$4")
gen=$(abspath "$5")
need_ours "$ours" "probe_interp (pmkit)"
need_built "$theirs"
need_testsuite "$suite"
suite=$(cd "$suite/archives" && pwd)
make_tmp interp_diff
export PCP_DERIVED_CONFIG=

"$gen" -k -m 24 -i 4 -n 40 "$tmp/gen-v2" &&
    "$gen" -k -V 3 -m 24 -i 4 -n 40 -x 3 "$tmp/gen-v3" &&
    "$gen" -k -o -m 24 -i 4 -n 40 "$tmp/gen-once" &&
    "$gen" -k -m 24 -i 4 -n 40 -s 1700000000 "$tmp/gen-set1" &&
    "$gen" -k -m 24 -i 4 -n 40 -s 1700000080 "$tmp/gen-set2" || {
    echo "FAIL: $gen could not write its archives"
    exit 1
}

cases="f0.3 f1 F10 f100 b1 B2.5 b10 B100 e1 E1"
archives="gap gap2 changeinst count-mark interpmark instant-1 mark-bug dyninsts wrap markmerge
omnibus_v3 multi multi-vm00,multi-vm01 bug1057
$tmp/gen-v2 $tmp/gen-v3 $tmp/gen-once $tmp/gen-set1,$tmp/gen-set2"

# run PROBE ARCHIVE CASE: the probe's output and exit status
run() {
    sorted=-S
    rc=$3
    case $rc in u:*)
        sorted=
        rc=${rc#u:}
        ;;
    esac
    (cd "$suite" && timeout 60 "$1" $sorted $popt -n 80 "$2" "$rc") 2>&1
    echo "exit $?"
}

# history ARCHIVE: 0 when each fetch line of $tmp/ours that differs from
# $tmp/theirs is Debian's answer in a fresh context at that time
history() {
    diff "$tmp/theirs" "$tmp/ours" | sed -n 's/^> \([0-9]*: [0-9]*\.[0-9]*\) /\1 /p' >"$tmp/lines"
    [ -s "$tmp/lines" ] || return 1
    while read -r k when rest; do
        sec=${when%.*}
        frac=${when#*.}000000000
        frac=$(echo "$frac" | cut -c1-9)
        fresh=$(cd "$suite" && "$theirs" -S -n 1 "$1" "a$sec.$frac" 2>&1 | sed -n 's/^0: [0-9.]* //p')
        [ "$fresh" = "$rest" ] || {
            echo "  $k $when: Debian's fresh answer is not pmkit's"
            return 1
        }
    done <"$tmp/lines"
    return 0
}

popt=
n=0
ndiff=0
nknown=0
for a in $archives; do
    name=$(basename "$a")
    extra=$(awk -v a="$name" '$1 == a && $2 ~ /^u:/ { print $2 }' "$known")
    for c in $cases $extra; do
        n=$((n + 1))
        run "$ours" "$a" "$c" >"$tmp/ours"
        run "$theirs" "$a" "$c" >"$tmp/theirs"
        listed=$(awk -v a="$name" -v c="$c" '$1 == a && $2 == c' "$known")
        echo "$name $c" >>"$tmp/ran"
        if cmp -s "$tmp/ours" "$tmp/theirs"; then
            if [ -n "$listed" ]; then
                echo "STALE $name $c: listed in $(basename "$known") but identical"
                ndiff=$((ndiff + 1))
            fi
        elif [ -n "$listed" ]; then
            nknown=$((nknown + 1))
            case $listed in *" history "* | *" history")
                history "$a" || {
                    echo "HISTORY $name $c: listed as a history difference, but it is not one"
                    ndiff=$((ndiff + 1))
                }
                ;;
            esac
        else
            echo "DIFF $name $c: < Debian, > pmkit"
            diff "$tmp/theirs" "$tmp/ours" | cut -c1-300 | head -8 | sed 's/^/  /'
            ndiff=$((ndiff + 1))
        fi
    done
done
# the profile narrowed (probe_interp -p): a domain with one instance
# admitted, one with all but one
popt=-p
for a in changeinst gap $tmp/gen-v2; do
    for c in f1 b1 B2.5; do
        n=$((n + 1))
        run "$ours" "$a" "$c" >"$tmp/ours"
        run "$theirs" "$a" "$c" >"$tmp/theirs"
        if ! cmp -s "$tmp/ours" "$tmp/theirs"; then
            echo "DIFF -p $(basename "$a") $c: < Debian, > pmkit"
            diff "$tmp/theirs" "$tmp/ours" | cut -c1-300 | head -8 | sed 's/^/  /'
            ndiff=$((ndiff + 1))
        fi
    done
done
# every line of KNOWN must name a case that ran
while read -r a c why; do
    grep -qx "$a $c" "$tmp/ran" || {
        echo "STALE $a $c: listed in $(basename "$known") but not run"
        ndiff=$((ndiff + 1))
    }
done <"$known"
if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $n interpolation cases differ"
    exit 1
fi
echo "oracle.interp: $n interpolation cases, $((n - nknown)) identical, $nknown known differences"
exit 0
