#!/bin/sh
# pmns_diff.sh PROBE_PMKIT PROBE_PCP GEN|DIR [SEED] [COUNT]
#
# Differential test of pmkit's PMNS loader and name services against
# Debian's libpcp.  PROBE_PMKIT and PROBE_PCP are tests/oracle/probe_pmns.c
# built against pmkit and against Debian's libpcp.  GEN is either the
# gen_pmns executable, run as `GEN SEED COUNT DIR` (default seed 1, count
# 200), or a directory of fixed namespaces (tests/oracle/pmns_good,
# tests/oracle/pmns_bad).
#
# A case is a namespace file; an optional FILE.names lists names (one per
# line) given to the probe as extra pmLookupName arguments.  In a directory,
# files ending in .names and README* are not cases.  Each case is run in
# the modes ascii and ascii-nodup, and also raw (pmLoadNameSpace, no
# preprocessor) unless it holds a C comment or a cpp directive (#define,
# #include, #ifdef, ...) -- in a *_bad directory raw mode is always run.
# For every run the two probes' stdout and exit status must be identical;
# stderr (the parser's messages) may differ.  Cases listed in
# pmns_known_diffs (deliberate fixes, docs/compat.md) must instead differ in
# at least one run; their runs are reported as KNOWN.
#
# Sanity of the corpus: Debian must load every generated case and every
# case of a directory not named *_bad in ascii mode (else GENERATOR BUG /
# BAD CASE); in a *_bad directory it must reject every case in at least one
# mode (else BAD CASE).
#
# Environment of both probes: PCP_BINADM_DIR (where the real libpcp finds
# pmcpp) defaults to .cache/oracle/pcp/usr/lib/pcp/bin of this repository
# when it is not set or holds no pmcpp; PCP_DERIVED_CONFIG is set empty so
# only the built-in derived metrics event.flags/event.missed exist;
# PMNS_DEFAULT and PCP_ALT_CPP are removed.
# PMNS_DIFF_KEEP=DIR keeps the generated cases in DIR (must not exist).
#
# Exit 0 all identical, 1 any difference or bad case, 2 usage, 77 skip
# (PROBE_PCP or Debian's pmcpp missing).
set -u
if [ $# -lt 3 ] || [ $# -gt 5 ]; then
    echo "Usage: pmns_diff.sh PROBE_PMKIT PROBE_PCP GEN|DIR [SEED] [COUNT]" >&2
    exit 2
fi
ours=$1 theirs=$2 gen=$3 seed=${4:-1} count=${5:-200}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$theirs" "probe built against Debian's libpcp" "install libpcp3-dev"
if [ -z "${PCP_BINADM_DIR:-}" ] || [ ! -x "$PCP_BINADM_DIR/pmcpp" ]; then
    PCP_BINADM_DIR=$here/../../.cache/oracle/pcp/usr/lib/pcp/bin
fi
need_oracle "$PCP_BINADM_DIR/pmcpp" "Debian's pmcpp"
PCP_BINADM_DIR=$(cd "$PCP_BINADM_DIR" && pwd)
export PCP_BINADM_DIR
PCP_DERIVED_CONFIG=
export PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_ALT_CPP
need_ours "$ours" probe
ours=$(abspath "$ours") theirs=$(abspath "$theirs") gen=$(abspath "$gen")
make_tmp pmns_diff

expect=load
if [ -d "$gen" ]; then
    cases=$gen
    label="namespaces in $gen"
    case ${gen%/} in
    *_bad) expect=fail ;;
    esac
elif [ -f "$gen" ] && [ -x "$gen" ]; then
    label="generated namespaces (seed $seed)"
    generate PMNS_DIFF_KEEP
else
    echo "FAIL: GEN is neither an executable nor a directory: $gen"
    exit 1
fi

# run WHO MODE FILE: returns and sets $rc, output in $tmp/WHO.out, $tmp/WHO.err
run() {
    if [ "$1" = ours ]; then bin=$ours; else bin=$theirs; fi
    # names are plain words; no globbing of '*'
    set -f
    # shellcheck disable=SC2086
    "$bin" "$2" "$3" $names </dev/null >"$tmp/$1.out" 2>"$tmp/$1.err"
    rc=$?
    set +f
    return $rc
}

# known_reason NAME: the compat.md bullet for a known difference, or nothing
known_reason() {
    [ -d "$gen" ] || return 0
    awk -v c="$1" '$1 == c { $1 = ""; sub(/^ +/, ""); print; exit }' "$here/pmns_known_diffs"
}

n=0 nruns=0 ndiff=0 nbad=0 nknown=0
for f in "$cases"/*; do
    [ -f "$f" ] || continue
    case ${f##*/} in
    *.names | README*) continue ;;
    esac
    name=${f##*/}
    n=$((n + 1))
    names=
    if [ -f "$f.names" ]; then
        names=$(cat "$f.names")
    fi
    modes="ascii ascii-nodup"
    if [ $expect = fail ] || ! grep -q -e '/\*' -e '^[[:space:]]*#[[:space:]]*[a-z]' "$f"; then
        modes="$modes raw"
    fi
    loaded='' failed='' differed=''
    known=$(known_reason "$name")
    for mode in $modes; do
        nruns=$((nruns + 1))
        # both at once: the real libpcp spends most of its time in pmcpp
        run ours "$mode" "$f" &
        pid=$!
        run theirs "$mode" "$f"; rc2=$rc
        wait $pid; rc1=$?
        case $rc2 in
        0) loaded="$loaded $mode" ;;
        1) failed="$failed $mode" ;;
        *)
            echo "BAD RUN $name: Debian's probe $mode exited $rc2"
            shorten <"$tmp/theirs.err"
            nbad=$((nbad + 1))
            continue
            ;;
        esac
        bad=
        [ "$rc1" = "$rc2" ] || bad="$bad exit($rc1 vs $rc2)"
        cmp -s "$tmp/ours.out" "$tmp/theirs.out" || bad="$bad stdout"
        if [ -n "$bad" ] && [ -n "$known" ]; then
            differed=yes
            nknown=$((nknown + 1))
            echo "KNOWN $name [$mode]:$bad -- docs/compat.md: $known"
        elif [ -n "$bad" ]; then
            report_diff "$name [$mode]:$bad" "$ours $mode $f${names:+ (names from $f.names)}"
        fi
    done
    if [ -n "$known" ] && [ -z "$differed" ]; then
        echo "STALE $name: listed in pmns_known_diffs but identical in every mode"
        nbad=$((nbad + 1))
    fi
    if [ $expect = load ]; then
        case " $loaded " in
        *" ascii "*) ;;
        *)
            if [ -d "$gen" ]; then what="BAD CASE"; else what="GENERATOR BUG"; fi
            echo "$what $name: Debian's libpcp does not load it (pmLoadASCIINameSpace(f, 1))"
            run theirs ascii "$f"
            shorten <"$tmp/theirs.err" | sed 's/^/  /'
            nbad=$((nbad + 1))
            ;;
        esac
    elif [ -z "$failed" ]; then
        echo "BAD CASE $name: Debian's libpcp loads it in every mode ($modes)"
        nbad=$((nbad + 1))
    fi
done

if [ $n = 0 ]; then
    echo "FAIL: no namespaces found in $cases"
    exit 1
fi
if [ $ndiff != 0 ] || [ $nbad != 0 ]; then
    keep_hint PMNS_DIFF_KEEP
    echo "pmns oracle: FAILED on $label: $ndiff differing runs, $nbad bad cases ($n namespaces, $nruns runs)"
    exit 1
fi
extra=
[ $nknown = 0 ] || extra="; $nknown runs differ as documented in docs/compat.md"
echo "pmns oracle: $n namespaces identical ($nruns runs, $label$extra)"
exit 0
