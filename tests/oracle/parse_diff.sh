#!/bin/sh
# parse_diff.sh NAME PROBE_PMKIT PROBE_PCP CASES KNOWN
#
# A case-file driven parser probe (probe_units.c, probe_metricspec.c,
# probe_timewindow.c), pmkit against Debian's libpcp: both builds of the
# probe run over CASES and must print the same.  Every line but comments
# and "log"/"tz" lines is a case (probe_units reads an empty one as the
# empty string; the other case files have none).  KNOWN holds records of inputs where pmkit answers
# differently on purpose (docs/compat.md): any "log"/"tz" lines and the
# case, then "= " and each line pmkit's probe must print.  Each record runs
# alone through both probes: pmkit's output must be the one recorded, and
# Debian's must crash or differ (otherwise the record is stale).
# Skips (77) when PROBE_PCP is missing.
set -u
[ $# -eq 5 ] || { echo "usage: $0 NAME PROBE_PMKIT PROBE_PCP CASES KNOWN" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
name=$1
ours=$(abspath "$2") theirs=$(abspath "$3") cases=$(abspath "$4") known=$(abspath "$5")
need_ours "$ours" "pmkit's $name probe"
need_oracle "$theirs" "the $name probe built against Debian's libpcp" \
    "make test-deps installs libpcp3-dev"
make_tmp "${name}_diff"
ulimit -c 0 2>/dev/null # Debian's probes crash on some known cases

fail=0 ndiff=0
"$ours" "$cases" >"$tmp/ours.out" 2>"$tmp/ours.err" || {
    echo "FAIL: $ours exited with status $?"
    fail=1
}
"$theirs" "$cases" >"$tmp/theirs.out" 2>"$tmp/theirs.err" || {
    echo "FAIL: $theirs exited with status $?"
    fail=1
}
n=$(grep -c -v -e '^#' -e '^log ' -e '^tz ' "$cases")
if ! cmp -s "$tmp/ours.out" "$tmp/theirs.out" || ! cmp -s "$tmp/ours.err" "$tmp/theirs.err"; then
    report_diff "$name cases" "PROBE $cases"
fi
[ -s "$tmp/theirs.out" ] || { echo "FAIL: no case was run from $cases"; fail=1; }

# check_record: the record in $tmp/rec (input) and $tmp/want (expected)
k=0
check_record() {
    k=$((k + 1))
    "$ours" "$tmp/rec" >"$tmp/got" 2>&1
    if ! cmp -s "$tmp/got" "$tmp/want"; then
        echo "FAIL: known case '$(tail -n 1 "$tmp/rec")': pmkit printed"
        sed 's/^/  /' "$tmp/got"
        echo "  expected"
        sed 's/^/  /' "$tmp/want"
        fail=1
    fi
    # (the shell reports a crash on the stderr of the braces: dropped)
    if { "$theirs" "$tmp/rec" >"$tmp/theirs1"; } 2>/dev/null && cmp -s "$tmp/theirs1" "$tmp/got"
    then
        echo "STALE: known case '$(tail -n 1 "$tmp/rec")' no longer differs from Debian's libpcp"
        fail=1
    fi
}
: >"$tmp/rec"
: >"$tmp/want"
while IFS= read -r line; do
    case $line in
    '#'*) continue ;;
    '= '*) printf '%s\n' "${line#= }" >>"$tmp/want" ;;
    *)
        [ -s "$tmp/want" ] && { check_record; : >"$tmp/rec"; : >"$tmp/want"; }
        printf '%s\n' "$line" >>"$tmp/rec"
        ;;
    esac
done <"$known"
[ -s "$tmp/want" ] && check_record

if [ "$fail" -ne 0 ] || [ "$ndiff" -ne 0 ]; then
    exit 1
fi
echo "PASS: $n $name cases identical, $k known differences (docs/compat.md)"
