#!/bin/sh
# clock_values_check.sh DIR: the bounds clock_values.awk (in DIR) puts on
# the agents' clock values, so that the check cannot drift into accepting
# anything: trivial.time from t0 - 1 (the coarse clock the agents' time()
# reads can trail date +%s by a tick) to t1 and nothing else, simple.now
# 0..59, simple.time.* non-negative numbers, other metrics untouched.
# Exit 0 when every value is judged as expected, 1 otherwise.
set -u
dir=${1:?usage: clock_values_check.sh DIR}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/clock_values_check.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
# metric, value, verdict (ok: masked, bad: INVALID, other: left alone);
# t0 is 1000 and t1 1005
cat >"$tmp/cases" <<'CASES'
trivial.time 1000 ok
trivial.time 999 ok
trivial.time 998 bad
trivial.time 1005 ok
trivial.time 1006 bad
trivial.time 0 bad
trivial.time 1000.5 bad
trivial.time -1000 bad
simple.now 0 ok
simple.now 59 ok
simple.now 60 bad
simple.time.user 1.5e3 ok
simple.time.sys -1 bad
other.metric 12 other
CASES
cat >"$tmp/check.awk" <<'AWK'
{
    cur = $1
    v = $2
    want = $3
    $0 = "    value " v
    clock_value(cur, v)
    got = $0 ~ /value <.*>$/ ? "ok" : $0 ~ /INVALID/ ? "bad" : "other"
    if (got != want) {
        printf "FAIL: %s %s judged %s, not %s (%s)\n", cur, v, got, want, $0
        failed = 1
    }
    n++
}
END {
    if (!failed)
        printf "PASS: %d clock values judged as expected\n", n
    exit failed
}
AWK
awk -v t0=1000 -v t1=1005 -f "$dir/clock_values.awk" -f "$tmp/check.awk" "$tmp/cases"
