#!/bin/sh
# pmerr_diff.sh OURS THEIRS: run both pmerr binaries over a list of argument
# vectors; stdout, stderr and exit status must match exactly.  Exit 77 (skip)
# when Debian's pmerr is not available.
set -u
ours=$1 theirs=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$theirs" "Debian's pmerr"
make_tmp pmerr_diff
fail=0 n=0
# One argument vector per line, words split by the shell.
while IFS= read -r args; do
    n=$((n + 1))
    eval "set -- $args"
    "$ours" "$@" >"$tmp/o1" 2>"$tmp/e1"; s1=$?
    "$theirs" "$@" >"$tmp/o2" 2>"$tmp/e2"; s2=$?
    if [ $s1 != $s2 ] || ! cmp -s "$tmp/o1" "$tmp/o2" || ! cmp -s "$tmp/e1" "$tmp/e2"; then
        echo "DIFF for pmerr $args (exit $s1 vs $s2)"
        diff "$tmp/o1" "$tmp/o2" | head -5
        diff "$tmp/e1" "$tmp/e2" | head -5
        fail=1
    fi
done <<'CASES'
-l
--list
-l 5
5 -l
-l -l
-ll
-L
-- -5
--
-
-?
--help
--bogus
-x -l
-l -x
''
0 -1 -2 -13 -22 -110 -111 -4000 -12344 -12345
-12346 -12352 -12357 -12367 -12393 -12445 -12446 -13393 -13394 -21344 -21345
-21346 -21369 -21376 -21444 -22344 -22345 -30000 -99999 -2147483648 2147483647
1 5 16 111 12345 12357 21345 99999
0x 0xg 0x-5 0x10 0X1F 0xffffcfbb 0x1ffffffff 0x10000000000000000
-0x10 +5 7.5 12x abc ' 7' '+-5' 18446744073709551615 99999999999999999999 -99999999999999999999
-5x
CASES
if [ $fail = 0 ]; then
    echo "oracle: pmerr identical to Debian's on $n argument vectors"
fi
exit $fail
