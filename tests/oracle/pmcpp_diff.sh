#!/bin/sh
# pmcpp_diff.sh OURS THEIRS GEN [SEED] [COUNT]
#
# Differential test of pmkit's pmcpp (OURS) against Debian's (THEIRS).
# GEN is either the gen_pmcpp_corpus executable, run as `GEN SEED COUNT DIR`
# (default seed 1, count 300), or a directory of fixed cases used as-is.
#
# A case is a directory holding
#   input         the main input file
#   args          one line of pmcpp options, shell-quoted (it is eval'ed)
#   operand       optional: replaces the operand `input` (an empty file means
#                 no operand is appended: the args line then names it)
#   env           optional: one line of NAME=value words (eval'ed) put in
#                 the environment of both runs
#   allow_stderr  optional: stderr may be non-empty (e.g. a #shell warning);
#                 then ours must write to stderr too, but the text is not
#                 compared (the contract is stdout and exit status)
#   any other files the input includes
# Both binaries run in the case directory as `pmcpp ARGS input`; every
# fixed case without an `operand` file and every third generated case is
# also run as `pmcpp ARGS < input`.  stdout and exit status must be equal and
# stderr must be empty for both (see allow_stderr).
#
# THEIRS must accept every case (exit 0, empty stderr unless allow_stderr):
# the corpus only holds inputs PCP handles correctly and that avoid the bugs
# of toolchain.md §2.15.  A case THEIRS rejects is reported as a GENERATOR
# BUG (or BAD CASE for a fixed case) and fails the run: nothing is dropped
# silently.
#
# PMCPP_DIFF_KEEP=DIR writes the generated cases to DIR (which must not
# exist yet) and keeps them, to reproduce a failure by hand.
#
# Exit 0 all identical, 1 any difference or bad case, 2 usage, 77 skip
# (THEIRS not executable).
set -u
if [ $# -lt 3 ] || [ $# -gt 5 ]; then
    echo "Usage: pmcpp_diff.sh OURS THEIRS GEN|CASEDIR [SEED] [COUNT]" >&2
    exit 2
fi
ours=$1 theirs=$2 gen=$3 seed=${4:-1} count=${5:-300}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$theirs" "Debian's pmcpp"
need_ours "$ours" pmcpp
ours=$(abspath "$ours") theirs=$(abspath "$theirs") gen=$(abspath "$gen")
make_tmp pmcpp_diff

if [ -d "$gen" ]; then
    cases=$gen fixed=1
    label="fixed cases in $gen"
elif [ -x "$gen" ]; then
    fixed=0
    label="generated cases (seed $seed)"
    generate PMCPP_DIFF_KEEP
else
    echo "FAIL: GEN is neither an executable nor a directory: $gen"
    exit 1
fi

n=0 nruns=0 ndiff=0 nbad=0 idx=0
# run WHO MODE: WHO is ours or theirs, MODE is file or stdin; sets $rc
run() {
    # shellcheck disable=SC2034 # bin is used inside the eval'ed command
    if [ "$1" = ours ]; then bin=$ours; else bin=$theirs; fi
    if [ "$2" = stdin ]; then
        eval "$envset \"\$bin\" $args" <input >"$tmp/$1.out" 2>"$tmp/$1.err"
    else
        eval "$envset \"\$bin\" $args $operand" </dev/null >"$tmp/$1.out" 2>"$tmp/$1.err"
    fi
    rc=$?
}

for c in "$cases"/*/; do
    c=${c%/}
    if [ ! -f "$c/input" ] || [ ! -f "$c/args" ]; then continue; fi
    name=${c##*/}
    idx=$((idx + 1))
    n=$((n + 1))
    cd "$c" || { echo "FAIL: cannot cd to $c"; ndiff=$((ndiff + 1)); continue; }
    args=
    IFS= read -r args <"./args"
    if [ -f operand ]; then
        operand= ; IFS= read -r operand <"./operand"
        modes="file"
    else
        operand=input
        if [ $fixed = 1 ] || [ $((idx % 3)) = 0 ]; then modes="file stdin"; else modes="file"; fi
    fi
    envset=
    if [ -f env ]; then IFS= read -r envset <"./env"; envset="env $envset"; fi
    for mode in $modes; do
        nruns=$((nruns + 1))
        run theirs "$mode"; rc2=$rc
        run ours "$mode"; rc1=$rc
        how="pmcpp $args"
        if [ "$mode" = stdin ]; then how="$how < input"; else how="$how $operand"; fi
        if [ $rc2 != 0 ] || { [ ! -f allow_stderr ] && [ -s "$tmp/theirs.err" ]; }; then
            if [ $fixed = 1 ]; then what="BAD CASE"; else what="GENERATOR BUG"; fi
            echo "$what $name: Debian's pmcpp rejects it: $how -> exit $rc2"
            shorten <"$tmp/theirs.err"
            nbad=$((nbad + 1))
            continue
        fi
        bad=
        [ $rc1 = $rc2 ] || bad="$bad exit($rc1 vs $rc2)"
        cmp -s "$tmp/ours.out" "$tmp/theirs.out" || bad="$bad stdout"
        if [ -f allow_stderr ]; then
            if [ -s "$tmp/theirs.err" ] && [ ! -s "$tmp/ours.err" ]; then
                bad="$bad stderr(empty)"
            elif [ ! -s "$tmp/theirs.err" ] && [ -s "$tmp/ours.err" ]; then
                bad="$bad stderr(not empty)"
            fi
        elif [ -s "$tmp/ours.err" ]; then
            bad="$bad stderr(not empty)"
        fi
        [ -z "$bad" ] || report_diff "$name:$bad" "(cd $c && $how)"
    done
    cd "$top" || exit 1
done

if [ $n = 0 ]; then
    echo "FAIL: no cases found in $cases"
    exit 1
fi
if [ $ndiff != 0 ] || [ $nbad != 0 ]; then
    keep_hint PMCPP_DIFF_KEEP
    echo "pmcpp oracle: FAILED on $label: $ndiff differing runs, $nbad runs rejected by Debian's pmcpp ($n cases, $nruns runs)"
    exit 1
fi
echo "pmcpp oracle: $n cases identical ($nruns runs, $label)"
exit 0
