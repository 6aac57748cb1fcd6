#!/bin/sh
# pmgenmap_diff.sh OURS THEIRS GEN [SEED] [COUNT]
#
# Differential test of pmkit's pmgenmap (OURS) against Debian's (THEIRS, a
# shell script that needs pcp.env, a pcp.conf and gawk).  GEN is the
# gen_pmgenmap executable, run as `GEN SEED COUNT DIR` (default seed 1,
# count 300); each case is a directory with an `input` file and, for a
# case holding one error, an `invalid` file.
#
# Both run in the case directory with PACKAGE_BUILD_DATE set.
#  - valid case: `pmgenmap input`, and for every third case also
#    `pmgenmap < input`.  Debian's must exit 0 (else GENERATOR BUG); stdout
#    and exit status must be identical and ours must write nothing to stderr.
#  - invalid case: `pmgenmap input`.  Both must exit 1.  By default (PCP's
#    form of diagnostics: stderr is not a terminal) ours must write
#    Debian's stdout byte for byte (the map up to the error, `[input:N]
#    MESSAGE` and PCP's follow-on `unterminated group?`) and nothing on
#    stderr.  Then with PMKIT_DIAGNOSTICS=rich ours must write nothing to
#    stdout and exactly one `input:N:COL: error: MESSAGE` to stderr, with
#    Debian's N and MESSAGE (for "unterminated group?" ours names the line
#    that opened the group, Debian's the last line, so only the message is
#    compared).
#
# PMGENMAP_DIFF_KEEP=DIR writes the generated cases to DIR (which must not
# exist yet) and keeps them, to reproduce a failure by hand.
#
# Exit 0 all identical, 1 any difference, 2 usage, 77 skip (no oracle, no
# pcp.conf or no gawk).
set -u
if [ $# -lt 3 ] || [ $# -gt 5 ]; then
    echo "Usage: pmgenmap_diff.sh OURS THEIRS GEN [SEED] [COUNT]" >&2
    exit 2
fi
ours=$1 theirs=$2 gen=$3 seed=${4:-1} count=${5:-300}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$theirs" "Debian's pmgenmap"
oracle=$(cd "$(dirname "$theirs")/../.." && pwd)
if [ ! -f "$oracle/etc/pcp.env" ]; then
    echo "SKIP: $oracle/etc/pcp.env is missing (Debian's pmgenmap sources it)"
    exit 77
fi
conf=${PCP_CONF:-/etc/pcp.conf}
if [ ! -f "$conf" ]; then
    echo "SKIP: no pcp.conf at $conf (Debian's pcp-conf package; scripts/deps.sh test installs it)"
    exit 77
fi
awkprog=$(sed -n 's/^PCP_AWK_PROG=//p' "$conf" | tr -d '"')
if ! command -v "${awkprog%% *}" >/dev/null 2>&1; then
    echo "SKIP: Debian's pmgenmap runs '$awkprog' (from $conf), which is not installed (apt-get install gawk)"
    exit 77
fi
need_ours "$ours" pmgenmap
ours=$(abspath "$ours") theirs=$(abspath "$theirs") gen=$(abspath "$gen")
make_tmp pmgenmap_diff
generate PMGENMAP_DIFF_KEEP

PACKAGE_BUILD_DATE='Thu Jan  1 00:00:00 UTC 1970'
PCP_DIR=$oracle PCP_CONF=$conf
export PACKAGE_BUILD_DATE PCP_DIR PCP_CONF
unset SOURCE_DATE_EPOCH PCP_ENV_DONE

# run WHO MODE: WHO is ours or theirs, MODE is file or stdin; sets $rc
run() {
    if [ "$1" = ours ]; then bin=$ours; else bin=$theirs; fi
    if [ "$2" = stdin ]; then
        "$bin" <input >"$tmp/$1.out" 2>"$tmp/$1.err"
    else
        "$bin" input </dev/null >"$tmp/$1.out" 2>"$tmp/$1.err"
    fi
    rc=$?
}

n=0 nvalid=0 ninvalid=0 nruns=0 ndiff=0 nbad=0
for c in "$cases"/*/; do
    c=${c%/}
    [ -f "$c/input" ] || continue
    name=${c##*/}
    n=$((n + 1))
    cd "$c" || { echo "FAIL: cannot cd to $c"; ndiff=$((ndiff + 1)); continue; }
    if [ -f invalid ]; then
        ninvalid=$((ninvalid + 1)) nruns=$((nruns + 1))
        run theirs file; rc2=$rc
        run ours file; rc1=$rc
        if [ $rc2 = 1 ] && { [ $rc1 != 1 ] || [ -s "$tmp/ours.err" ] ||
            ! cmp -s "$tmp/ours.out" "$tmp/theirs.out"; }; then
            report_diff "$name: PCP's form (exit $rc1)" "(cd $c && pmgenmap input)"
        fi
        PMKIT_DIAGNOSTICS=rich run ours file; rc1=$rc
        # Debian's first [input:N] line; ours: the error lines on stderr
        want=$(sed -n 's/^\[input:\([0-9]*\)\] \(.*\)$/\1 \2/p' "$tmp/theirs.out" | head -n 1)
        got=$(sed -n 's/^input:\([0-9]*\):[0-9]*: error: \(.*\)$/\1 \2/p' "$tmp/ours.err")
        nerr=$(grep -c ': error: ' "$tmp/ours.err")
        if [ $rc2 != 1 ] || [ -z "$want" ]; then
            echo "GENERATOR BUG $name: Debian's pmgenmap accepts it (exit $rc2, kind $(cat invalid))"
            nbad=$((nbad + 1))
        else
            bad=
            [ $rc1 = 1 ] || bad="$bad exit($rc1 vs 1)"
            [ -s "$tmp/ours.out" ] && bad="$bad stdout(not empty)"
            [ "$nerr" = 1 ] || bad="$bad errors($nerr, expected 1)"
            case $want in
            *' unterminated group?') [ "${got#* }" = "unterminated group?" ] || bad="$bad message" ;;
            *) [ "$got" = "$want" ] || bad="$bad line/message(ours '$got', Debian '$want')" ;;
            esac
            [ -z "$bad" ] || report_diff "$name:$bad" "(cd $c && pmgenmap input)"
        fi
        cd "$top" || exit 1
        continue
    fi
    nvalid=$((nvalid + 1))
    modes=file
    [ $((n % 3)) = 0 ] && modes="file stdin"
    for mode in $modes; do
        nruns=$((nruns + 1))
        run theirs "$mode"; rc2=$rc
        run ours "$mode"; rc1=$rc
        if [ "$mode" = stdin ]; then how="< input"; else how=input; fi
        if [ $rc2 != 0 ] || [ -s "$tmp/theirs.err" ]; then
            echo "GENERATOR BUG $name: Debian's pmgenmap rejects it: pmgenmap $how -> exit $rc2"
            shorten <"$tmp/theirs.err"
            grep '^\[' "$tmp/theirs.out" | shorten
            nbad=$((nbad + 1))
            continue
        fi
        bad=
        [ $rc1 = $rc2 ] || bad="$bad exit($rc1 vs $rc2)"
        cmp -s "$tmp/ours.out" "$tmp/theirs.out" || bad="$bad stdout"
        [ -s "$tmp/ours.err" ] && bad="$bad stderr(not empty)"
        [ -z "$bad" ] || report_diff "$name:$bad" "(cd $c && pmgenmap $how)"
    done
    cd "$top" || exit 1
done

if [ $n = 0 ]; then
    echo "FAIL: no cases found in $cases"
    exit 1
fi
label="generated cases (seed $seed): $nvalid valid, $ninvalid with one error"
if [ $ndiff != 0 ] || [ $nbad != 0 ]; then
    keep_hint PMGENMAP_DIFF_KEEP
    echo "pmgenmap oracle: FAILED on $label: $ndiff differing runs, $nbad generator bugs ($nruns runs)"
    exit 1
fi
echo "pmgenmap oracle: $n cases identical ($nruns runs, $label)"
exit 0
