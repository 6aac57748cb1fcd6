#!/bin/sh
# archive_corrupt.sh OURS TESTSUITE [THEIRS]
#
# Damaged copies of real archives (Debian's pcp-testsuite, TESTSUITE is
# its unpacked var/lib/pcp/testsuite) read by probe_archive built against
# pmkit (OURS): every file of each archive cut short at 24 places (inside
# its label, inside records, a byte short of its end) and, in other copies,
# with a byte flipped at 24 places (the label, lengths, counts, offsets,
# payloads; the places are fixed, so runs repeat), one damage per copy.
# Every run must end normally within 60 seconds (ASan builds on a busy
# machine are slow): an error is fine, a crash, a sanitizer's report or a
# hang is not.  With THEIRS (the probe built
# against Debian's libpcp) the runs are also made with PCP, and how often
# the two agree, and how often PCP crashed, is reported (not asserted: the
# inputs are hostile, docs/compat.md says where pmkit answers otherwise).
#
# ARCHIVE_CORRUPT_KEEP=DIR keeps the damaged archives of failed runs.
# Exit 0 all well, 1 a failure, 2 usage, 77 skip (no testsuite).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
[ $# -ge 2 ] || {
    echo "usage: archive_corrupt.sh OURS TESTSUITE [THEIRS]" >&2
    exit 2
}
ours=$(abspath "$1")
suite=$2
theirs=${3:-}
[ -n "$theirs" ] && theirs=$(abspath "$theirs")
need_ours "$ours" "probe_archive (pmkit)"
need_testsuite "$suite"
suite=$(cd "$suite" && pwd)
make_tmp archive_corrupt
export PCP_DERIVED_CONFIG=

# Small archives of each kind: v2, v3, multi-volume, xz, labels, help text.
archives="ok-foo omnibus_v2 omnibus_v3 ok-mv-foo 20180606 sample-labels mmv.help"

# place FILE K: the K-th of 24 places in FILE (bytes), spread over its
# label, its first records and the rest
place() {
    size=$(wc -c <"$1")
    case $2 in
    0) echo 0 ;; 1) echo 3 ;; 2) echo 7 ;; 3) echo 12 ;; 4) echo 20 ;; 5) echo 131 ;;
    6) echo 132 ;; 7) echo 135 ;; 8) echo 140 ;; 9) echo 147 ;; 10) echo 160 ;;
    11) echo 200 ;; 12) echo 807 ;; 13) echo 811 ;;
    *) echo $((size * ($2 - 13) / 11 - ($2 == 24))) ;;
    esac
}

# flip FILE OFF: the byte at OFF of FILE inverted, in place
flip() {
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    [ -n "$b" ] || return 1
    printf "$(printf '\\%03o' $((255 - b)))" |
        dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

# The damaged copies: $tmp/case.N/ holds one archive's files, one damaged.
n=0
for a in $archives; do
    for f in "$suite/archives/$a".*; do
        [ -f "$f" ] || continue
        base=$(basename "$f")
        size=$(wc -c <"$f")
        for how in cut flip; do
            k=0
            while [ $k -lt 24 ]; do
                off=$(place "$f" $k)
                k=$((k + 1))
                [ "$off" -lt "$size" ] || continue
                n=$((n + 1))
                d=$tmp/case.$n
                mkdir "$d"
                cp "$suite/archives/$a".* "$d/"
                case $how in
                cut) head -c "$off" "$f" >"$d/$base" ;;
                flip) flip "$d/$base" "$off" || continue ;;
                esac
                echo "$n $a $base $how $off"
            done
        done
    done
done >"$tmp/cases"

# run PROBE N: the probe over case N's archive (xz'd files stay as they are);
# a case over 300 s is a hang (the slowest takes about 5 s under ASan on a
# loaded machine; 60 s was once exceeded by a sanitized run starved at
# nice 19 under a load of 20)
# (the shell's own word on a crash, "Segmentation fault", is dropped: the
# exit status says it)
run() {
    a=$(awk -v n="$2" '$1 == n { print $2 }' "$tmp/cases")
    {
        (cd "$tmp/case.$2" && exec timeout 300 "$1" -s lnditLfbsp "$a") >"$tmp/case.$2/$3.out" 2>&1
        echo "exit $?" >>"$tmp/case.$2/$3.out"
    } 2>/dev/null
}

# check I A BASE HOW OFF: case I's runs, its verdict into $tmp/case.I/verdict
check() {
    run "$ours" "$1" ours
    v=ok
    if ! tail -1 "$tmp/case.$1/ours.out" | grep -q '^exit 0$' ||
        grep -q 'Sanitizer\|runtime error' "$tmp/case.$1/ours.out"; then
        v=fail
        {
            echo "FAIL: $2 with $3 $4 at $5: $(tail -1 "$tmp/case.$1/ours.out")"
            grep -m5 'Sanitizer\|runtime error\|#[0-9]' "$tmp/case.$1/ours.out" | sed 's/^/  /'
        } >"$tmp/case.$1/report"
        if [ -n "${ARCHIVE_CORRUPT_KEEP:-}" ]; then
            mkdir -p "$ARCHIVE_CORRUPT_KEEP" && cp -R "$tmp/case.$1" "$ARCHIVE_CORRUPT_KEEP/"
        fi
    fi
    if [ -n "$theirs" ] && [ -x "$theirs" ]; then
        run "$theirs" "$1" theirs
        if ! tail -1 "$tmp/case.$1/theirs.out" | grep -q '^exit 0$'; then
            v="$v crashed"
        elif cmp -s "$tmp/case.$1/ours.out" "$tmp/case.$1/theirs.out"; then
            v="$v agree"
        fi
    fi
    echo "$v" >"$tmp/case.$1/verdict"
}

total=0
while read -r i a base how off; do
    total=$((total + 1))
    check "$i" "$a" "$base" "$how" "$off" &
    [ $((total % ${ARCHIVE_CORRUPT_JOBS:-4})) -eq 0 ] && wait
done <"$tmp/cases"
wait
fail=$(cat "$tmp"/case.*/verdict | grep -c '^fail')
agree=$(cat "$tmp"/case.*/verdict | grep -c 'agree')
crashed=$(cat "$tmp"/case.*/verdict | grep -c 'crashed')
cat "$tmp"/case.*/report 2>/dev/null
if [ -n "$theirs" ] && [ -x "$theirs" ]; then
    echo "note: Debian's libpcp gave the same answers for $agree of $total damaged archives" \
        "and crashed or hung on $crashed"
fi
if [ "$fail" -ne 0 ]; then
    echo "FAIL: $fail of $total damaged archives"
    exit 1
fi
echo "oracle.archive_corrupt: $total damaged archives read without a crash or a hang"
exit 0
