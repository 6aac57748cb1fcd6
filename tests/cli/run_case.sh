#!/bin/sh
# run_case.sh CASE.sh BINDIR: run one golden CLI case in a scratch directory
# with BINDIR first on PATH and compare stdout, stderr and exit status with
# the CASE.stdout / CASE.stderr / CASE.exit sidecars.
set -u
case_sh=$1 bindir=$2
base=${case_sh%.sh}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work"
(cd "$tmp/work" && PATH="$bindir:$PATH" CASE_DIR=$(dirname "$case_sh") sh "$case_sh" \
    >"$tmp/out" 2>"$tmp/err")
status=$?
want_status=0
[ -f "$base.exit" ] && want_status=$(cat "$base.exit")
[ -f "$base.stderr" ] || : >"$tmp/empty"
fail=0
if ! cmp -s "$tmp/out" "$base.stdout"; then
    echo "stdout differs:"; diff "$base.stdout" "$tmp/out" | head -20; fail=1
fi
want_err=$base.stderr
[ -f "$want_err" ] || want_err=$tmp/empty
if ! cmp -s "$tmp/err" "$want_err"; then
    echo "stderr differs:"; diff "$want_err" "$tmp/err" | head -20; fail=1
fi
if [ "$status" != "$want_status" ]; then
    echo "exit status $status, expected $want_status"; fail=1
fi
exit $fail
