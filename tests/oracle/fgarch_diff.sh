#!/bin/sh
# fgarch_diff.sh OURS THEIRS TESTSUITE
#
# Fetch groups over archives in PM_MODE_INTERP: probe_fgarch.c built
# against pmkit (OURS) and against Debian's libpcp (THEIRS) over archives
# of Debian's pcp-testsuite (TESTSUITE: its unpacked var/lib/pcp/testsuite):
# forwards and backwards, steps of 0 to 3 s, from inside and outside each
# archive, counters as the group's rates.  Each archive's two outputs must
# be identical.  Left out: omnibus_v3, where Debian's answers depend on the
# fetches before (docs/compat.md, Interpolation, "history").
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
[ $# -eq 3 ] || {
    echo "usage: fgarch_diff.sh OURS THEIRS TESTSUITE" >&2
    exit 2
}
need_ours "$1" "probe_fgarch (pmkit)"
need_built "$2"
need_testsuite "$3"
suite=$(cd "$3/archives" && pwd)
make_tmp fgarch_diff
export PCP_DERIVED_CONFIG=

n=0 bad=0 lines=0
for a in ok-foo gap gap2 wrap count-mark changeinst interpmark multi bug1057 dyninsts \
    markmerge instant-1 mark-bug 20180415.09.16; do
    n=$((n + 1))
    "$1" "$suite/$a" >"$tmp/ours" 2>&1
    echo "exit $?" >>"$tmp/ours"
    "$2" "$suite/$a" >"$tmp/theirs" 2>&1
    echo "exit $?" >>"$tmp/theirs"
    lines=$((lines + $(wc -l <"$tmp/theirs")))
    if ! grep -q '^fetch .*: ok at' "$tmp/theirs"; then
        echo "FAIL: $a: Debian's probe fetched nothing"
        bad=$((bad + 1))
    elif ! cmp -s "$tmp/ours" "$tmp/theirs"; then
        echo "DIFF $a (< pmkit, > Debian):"
        diff "$tmp/ours" "$tmp/theirs" | head -20
        bad=$((bad + 1))
    fi
done
if [ $bad != 0 ]; then
    echo "FAIL: $bad of $n archives differ"
    exit 1
fi
echo "oracle: fetch groups over $n archives in PM_MODE_INTERP, $lines lines identical"
exit 0
