#!/bin/sh
# compare.sh - run two builds of an oracle probe and require identical output.
#
# usage: compare.sh PROBE_A PROBE_B [label]
#
# PROBE_A is normally the probe linked against pmkit and PROBE_B the same
# source linked against the reference libpcp (Debian).  Both are run with
# stdout and stderr captured to temporary files.  Exit status:
#   0  stdout and stderr identical; prints "oracle: N lines identical"
#   1  outputs differ (first differing lines shown as a unified diff)
#   2  usage error, or a probe could not be run / exited non-zero
set -eu

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 PROBE_A PROBE_B [label]" >&2
    exit 2
fi
A=$1
B=$2
LABEL=${3:-oracle}
MAXLINES=${ORACLE_DIFF_LINES:-40}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/oracle.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

run_probe() {
    # $1 = binary, $2 = tag (a or b)
    if [ ! -x "$1" ]; then
        echo "$LABEL: FAIL: probe '$1' is not an executable file" >&2
        return 2
    fi
    rc=0
    "$1" >"$tmp/$2.out" 2>"$tmp/$2.err" </dev/null || rc=$?
    if [ "$rc" -ne 0 ]; then
        echo "$LABEL: FAIL: probe '$1' exited with status $rc" >&2
        if [ -s "$tmp/$2.err" ]; then
            echo "--- stderr of $1 (first 20 lines) ---" >&2
            head -n 20 "$tmp/$2.err" >&2
        fi
        return 2
    fi
    return 0
}

run_probe "$A" a || exit 2
run_probe "$B" b || exit 2

# GNU and busybox diff treat files holding odd bytes as binary without -a
DIFFOPT=-u
if diff -a /dev/null /dev/null >/dev/null 2>&1; then
    DIFFOPT=-au
fi

show_diff() {
    # $1 = suffix (out or err), $2 = description
    echo "$LABEL: FAIL: $2 differs ($A vs $B)"
    # cmp names the files a.out/b.out (A/B); shows byte and line of the first difference
    where=$(cd "$tmp" && cmp "a.$1" "b.$1" 2>&1 | head -n 1 || true)
    nrm=$(diff "$tmp/a.$1" "$tmp/b.$1" | grep -c '^<' || true)
    nadd=$(diff "$tmp/a.$1" "$tmp/b.$1" | grep -c '^>' || true)
    echo "$LABEL: $where"
    echo "$LABEL: $nrm lines only in A, $nadd lines only in B"
    echo "$LABEL: first $MAXLINES changed lines (- = A = $A, + = B = $B):"
    diff $DIFFOPT "$tmp/a.$1" "$tmp/b.$1" | sed -n '3,$p' |
        awk -v max="$MAXLINES" '
            /^[-+]/ { n++ }
            { print }
            n >= max { exit }'
}

status=0
if ! cmp -s "$tmp/a.out" "$tmp/b.out"; then
    show_diff out stdout
    status=1
fi
if ! cmp -s "$tmp/a.err" "$tmp/b.err"; then
    show_diff err stderr
    status=1
fi
if [ "$status" -ne 0 ]; then
    exit 1
fi

nlines=$(wc -l <"$tmp/a.out" | tr -d ' ')
nerr=$(wc -l <"$tmp/a.err" | tr -d ' ')
if [ "$nlines" -eq 0 ]; then
    echo "$LABEL: FAIL: neither probe printed anything (nothing was compared)"
    exit 1
fi
if [ "$nerr" -gt 0 ]; then
    echo "$LABEL: $nlines lines identical (plus $nerr identical stderr lines)"
else
    echo "$LABEL: $nlines lines identical"
fi
exit 0
