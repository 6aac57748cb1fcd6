#!/bin/sh
# units_diff.sh PROBE_PMKIT PROBE_PCP CASES KNOWN
#
# pmParseUnitsStr, pmkit against Debian's libpcp: probe_units.c, built once
# against each library, parses every case of CASES (units_cases); the two
# outputs must be identical.  The records of KNOWN (units_known_diffs) are
# inputs on which Debian's libpcp crashes: each runs alone through both
# probes, pmkit's must print the line the record expects, and Debian's must
# still crash or answer differently (otherwise the record is stale).
# Skips (77) when PROBE_PCP, the probe built against Debian's libpcp, is
# missing.
set -u
[ $# -eq 4 ] || { echo "usage: $0 PROBE_PMKIT PROBE_PCP CASES KNOWN" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
ours=$(abspath "$1") theirs=$(abspath "$2") cases=$(abspath "$3") known=$(abspath "$4")
need_ours "$ours" "pmkit's probe_units"
need_oracle "$theirs" "probe_units built against Debian's libpcp" \
    "make test-deps installs libpcp3-dev"
make_tmp units_diff
ulimit -c 0 2>/dev/null # Debian's probe crashes on the known cases

fail=0
"$ours" "$cases" >"$tmp/ours.out" 2>"$tmp/ours.err" || {
    echo "FAIL: $ours exited with status $?"
    fail=1
}
"$theirs" "$cases" >"$tmp/theirs.out" 2>"$tmp/theirs.err" || {
    echo "FAIL: $theirs exited with status $?"
    fail=1
}
n=$(wc -l <"$tmp/theirs.out" | tr -d ' ')
ndiff=0
if ! cmp -s "$tmp/ours.out" "$tmp/theirs.out" || ! cmp -s "$tmp/ours.err" "$tmp/theirs.err"; then
    report_diff "pmParseUnitsStr cases" "PROBE $cases"
fi
if [ "$n" -eq 0 ]; then
    echo "FAIL: no case was run from $cases"
    fail=1
fi

# the known differences: a case line, then "= " and pmkit's expected output
k=0 case=
while IFS= read -r line; do
    case $line in
    '#'*) continue ;;
    '= '*)
        k=$((k + 1))
        printf '%s\n' "$case" >"$tmp/one"
        got=$("$ours" "$tmp/one" 2>&1)
        if [ "$got" != "${line#= }" ]; then
            echo "FAIL: known case '$case': pmkit printed"
            echo "  $got"
            echo "  expected ${line#= }"
            fail=1
        fi
        # (the shell reports the crash on the stderr of the braces: dropped)
        theirs_out=$({ "$theirs" "$tmp/one"; } 2>/dev/null) && [ "$theirs_out" = "$got" ] && {
            echo "STALE: known case '$case' no longer differs from Debian's libpcp"
            fail=1
        }
        ;;
    *) case=$line ;;
    esac
done <"$known"

if [ "$fail" -ne 0 ] || [ "$ndiff" -ne 0 ]; then
    exit 1
fi
echo "PASS: $n pmParseUnitsStr cases identical, $k known differences (docs/compat.md)"
