#!/bin/sh
# derived_gen_diff.sh PROBE_PMKIT PROBE_PCP GEN [SEED] [COUNT]
#
# Generated derived-metric registrations (gen_derived SEED COUNT: random
# sentences of the language, many of them broken, and nesting around the
# parser stack's limit) through probe_derived_parse.c built against pmkit
# and against Debian's libpcp: the outputs must be identical.
# DERIVED_GEN_KEEP=FILE keeps the cases.  Skips (77) when PROBE_PCP is
# missing.
set -u
[ $# -ge 3 ] && [ $# -le 5 ] || { echo "usage: $0 PROBE_PMKIT PROBE_PCP GEN [SEED] [COUNT]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
ours=$(abspath "$1") theirs=$(abspath "$2") gen=$(abspath "$3")
seed=${4:-1} count=${5:-2000}
need_ours "$ours" "pmkit's derived parse probe"
need_oracle "$theirs" "the derived parse probe built against Debian's libpcp" \
    "make test-deps installs libpcp3-dev"
make_tmp derived_gen_diff
export PCP_DERIVED_CONFIG=
cases=$tmp/cases
"$gen" "$seed" "$count" >"$cases" || { echo "FAIL: $gen $seed $count"; exit 1; }
[ -n "${DERIVED_GEN_KEEP:-}" ] && cp "$cases" "$DERIVED_GEN_KEEP"
"$ours" "$cases" >"$tmp/ours.out" 2>"$tmp/ours.err" || { echo "FAIL: pmkit's probe exited $?"; exit 1; }
"$theirs" "$cases" >"$tmp/theirs.out" 2>"$tmp/theirs.err" || { echo "FAIL: Debian's probe exited $?"; exit 1; }
ndiff=0
if ! cmp -s "$tmp/ours.out" "$tmp/theirs.out" || ! cmp -s "$tmp/ours.err" "$tmp/theirs.err"; then
    report_diff "generated cases (seed $seed)" "$gen $seed $count | PROBE"
    echo "to get the cases: $gen $seed $count (or DERIVED_GEN_KEEP=FILE)"
    exit 1
fi
ok=$(grep -c ': ok ' "$tmp/ours.out")
bad=$(grep -c ': at ' "$tmp/ours.out")
echo "PASS: $count generated registrations and the nesting cases identical ($ok accepted, $bad refused)"
