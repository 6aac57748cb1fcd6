#!/bin/sh
# diag_diff.sh BINDIR ORACLE GEN [SEED] [COUNT]
#
# Differential test of pmkit's diagnostics against Debian's tools: pmcpp,
# the ASCII PMNS loader (pminfo -n, -N), newhelp, chkhelp and pmgenmap on
# bad inputs.  BINDIR holds pmkit's tools, ORACLE is Debian's pcp package
# unpacked, GEN is gen_diag (run as `GEN SEED COUNT DIR`, default seed 1,
# count 330: every kind ten times).
#
# Each case is a directory with its input files, `run` (shell commands)
# and `kind`.  It is run twice in the same scratch path, once with
# Debian's tools first on PATH and once with pmkit's, stderr a file (so
# pmkit gives PCP's form of diagnostics, its default there); stdout,
# stderr and the exit status of the commands must be identical, byte for
# byte.  A kind listed in diag_known_diffs (a PCP bug pmkit fixes, listed
# in docs/compat.md) must instead differ in every case of it: the test
# fails if one stops differing.
#
# Environment of both sides: PCP_BINADM_DIR is the oracle's (Debian's
# pminfo runs Debian's pmcpp from there), PCP_DERIVED_CONFIG empty,
# PACKAGE_BUILD_DATE fixed; PMKIT_DIAGNOSTICS, PMNS_DEFAULT and
# PCP_ALT_CPP are removed.  DIAG_DIFF_KEEP=DIR keeps the generated cases.
#
# Exit 0 all as expected, 1 any unexpected difference or sameness, 2 usage,
# 77 skip (no oracle, no pcp.conf, no gawk for Debian's pmgenmap).
set -u
if [ $# -lt 3 ] || [ $# -gt 5 ]; then
    echo "Usage: diag_diff.sh BINDIR ORACLE GEN [SEED] [COUNT]" >&2
    exit 2
fi
bindir=$1 oracle=$2 gen=$3 seed=${4:-1} count=${5:-330}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
for t in usr/lib/pcp/bin/pmcpp usr/lib/pcp/bin/newhelp usr/lib/pcp/bin/chkhelp usr/bin/pminfo \
    usr/bin/pmgenmap; do
    need_oracle "$oracle/$t" "Debian's ${t##*/}"
done
conf=${PCP_CONF:-/etc/pcp.conf}
if [ ! -f "$conf" ]; then
    echo "SKIP: no pcp.conf at $conf (Debian's pcp-conf package; scripts/deps.sh test installs it)"
    exit 77
fi
awkprog=$(sed -n 's/^PCP_AWK_PROG=//p' "$conf" | tr -d '"')
if ! command -v "${awkprog%% *}" >/dev/null 2>&1; then
    echo "SKIP: Debian's pmgenmap runs '$awkprog' (from $conf), which is not installed"
    exit 77
fi
for t in pmcpp newhelp chkhelp pminfo pmgenmap; do
    need_ours "$bindir/$t" "$t"
done
bindir=$(abspath "$bindir") oracle=$(abspath "$oracle") gen=$(abspath "$gen")
make_tmp diag_diff
generate DIAG_DIFF_KEEP

# the two sides' tools, found first on PATH
mkdir "$tmp/pcp-bin" "$tmp/pmkit-bin"
for t in pmcpp newhelp chkhelp; do
    ln -s "$oracle/usr/lib/pcp/bin/$t" "$tmp/pcp-bin/$t"
done
ln -s "$oracle/usr/bin/pminfo" "$tmp/pcp-bin/pminfo"
printf '#!/bin/sh\nPCP_DIR=%s exec %s "$@"\n' "$oracle" "$oracle/usr/bin/pmgenmap" \
    >"$tmp/pcp-bin/pmgenmap"
chmod +x "$tmp/pcp-bin/pmgenmap"
for t in pmcpp newhelp chkhelp pminfo pmgenmap; do
    ln -s "$bindir/$t" "$tmp/pmkit-bin/$t"
done
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin PCP_CONF=$conf PCP_DERIVED_CONFIG=
PACKAGE_BUILD_DATE='Thu Jan  1 00:00:00 UTC 1970'
export PCP_BINADM_DIR PCP_CONF PCP_DERIVED_CONFIG PACKAGE_BUILD_DATE
unset PMKIT_DIAGNOSTICS PMNS_DEFAULT PCP_ALT_CPP SOURCE_DATE_EPOCH PCP_ENV_DONE PCP_DIR

# known KIND: the compat.md bullet for a kind that must differ, or nothing
known() {
    awk -v k="$1" '$1 == k { $1 = ""; sub(/^ +/, ""); print; exit }' "$here/diag_known_diffs"
}

# side SIDE CASE: run CASE's commands in $tmp/run with SIDE's tools
side() {
    rm -rf "$tmp/run" && cp -R "$2" "$tmp/run" && cd "$tmp/run" || exit 1
    PATH=$tmp/$1-bin:$PATH sh ./run >"$tmp/$1.out" 2>"$tmp/$1.err" </dev/null
    echo "exit $?" >>"$tmp/$1.out"
    cd "$top" || exit 1
}

n=0 ndiff=0 nknown=0 nstale=0
kinds_seen=
for c in "$cases"/*/; do
    c=${c%/}
    [ -f "$c/run" ] || continue
    n=$((n + 1))
    kind=$(cat "$c/kind")
    name=${c##*/}
    case " $kinds_seen " in *" $kind "*) ;; *) kinds_seen="$kinds_seen $kind" ;; esac
    side pcp "$c"
    side pmkit "$c"
    reason=$(known "$kind")
    if cmp -s "$tmp/pcp.out" "$tmp/pmkit.out" && cmp -s "$tmp/pcp.err" "$tmp/pmkit.err"; then
        if [ -n "$reason" ]; then
            nstale=$((nstale + 1))
            echo "STALE $name ($kind): listed as a known difference ($reason), but identical"
        fi
        continue
    fi
    if [ -n "$reason" ]; then
        nknown=$((nknown + 1))
        continue
    fi
    ndiff=$((ndiff + 1))
    echo "DIFF $name ($kind): $(tr '\n' ';' <"$c/run")"
    echo "  --- stderr (< Debian, > pmkit):"
    diff "$tmp/pcp.err" "$tmp/pmkit.err" | shorten | sed 's/^/  /'
    echo "  --- stdout (< Debian, > pmkit):"
    diff "$tmp/pcp.out" "$tmp/pmkit.out" | shorten | sed 's/^/  /'
done
nkinds=$(echo $kinds_seen | wc -w)
if [ $n = 0 ]; then
    echo "FAIL: no cases in $cases"
    exit 1
fi
label="$n cases of $nkinds kinds (seed $seed): $((n - ndiff - nknown - nstale)) identical, $nknown known differences"
if [ $ndiff != 0 ] || [ $nstale != 0 ]; then
    keep_hint DIAG_DIFF_KEEP
    echo "diagnostics oracle: FAILED on $label, $ndiff unexpected differences, $nstale known differences gone"
    exit 1
fi
echo "diagnostics oracle: $label"
exit 0
