#!/bin/sh
# pcp_qa.sh MODE BINDIR ORACLE [TESTSUITE]
#
# PCP's own QA tests of the developer tools (Debian's pcp-testsuite, the
# tests listed in pcp_qa_tests) run as PCP runs them, each output compared
# with its NNN.out.  MODE "pmkit" puts pmkit's pmcpp, newhelp, chkhelp,
# pminfo, pmgenmap, pmnsmerge, pmnsadd and pmnsdel (from BINDIR) first on
# PATH, in front of Debian's other tools; MODE "debian" runs Debian's
# alone, to show the environment is sound.  ORACLE is Debian's pcp package unpacked (.cache/oracle/pcp);
# TESTSUITE is pcp-testsuite unpacked, by default ORACLE's sibling
# pcp-testsuite, which is made with apt-get download and dpkg-deb when it
# is missing (skip, 77, when that cannot be done).
#
# The environment is PCP's QA environment without a pmcd or an installed
# PCP: pcp.env from ORACLE, $PCP_* variables pointing at a scratch
# PCP_VAR_DIR (the namespace files of ORACLE, stdpmid and root made by
# PCP's own Make.stdpmid and Rebuild) and at the tools' directory, the QA
# directory copied to scratch with its localconfig made by mk.localconfig,
# $PCP_SHARE_DIR/lib holding ORACLE's lockpmns and unlockpmns (Rebuild
# takes its lock with them).  Run by root, the tests run as "nobody"
# (setpriv), as PCP's QA runs them as a user of its own: the tests of file
# permissions mean nothing to root.
# The tests chosen are those of pmcpp, newhelp, chkhelp, pmgenmap and
# namespace loading that need no pmcd, no sample agent and no second host.
#
# In pmkit mode a test listed with a reason in pcp_qa_tests must fail (a
# deliberate difference, docs/compat.md) and every other must pass; in
# debian mode every test must pass.  PCP_QA_KEEP=DIR keeps the outputs.
#
# Exit 0 as expected, 1 otherwise, 2 usage, 77 skip.
set -u
if [ $# -lt 3 ] || [ $# -gt 4 ]; then
    echo "Usage: pcp_qa.sh pmkit|debian BINDIR ORACLE [TESTSUITE]" >&2
    exit 2
fi
mode=$1 bindir=$2 oracle=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$oracle/usr/lib/pcp/bin/pmcpp" "Debian's pmcpp"
oracle=$(abspath "$oracle")
suite=${4:-$(dirname "$oracle")/pcp-testsuite}
if [ ! -d "$suite/var/lib/pcp/testsuite" ]; then
    mkdir -p "$suite.dl" &&
        (cd "$suite.dl" && apt-get download pcp-testsuite >/dev/null 2>&1) &&
        dpkg-deb -x "$suite.dl"/pcp-testsuite_*.deb "$suite" 2>/dev/null
    rm -rf "$suite.dl"
fi
if [ ! -d "$suite/var/lib/pcp/testsuite" ]; then
    echo "SKIP: Debian's pcp-testsuite is not unpacked at $suite and apt-get download pcp-testsuite failed"
    exit 77
fi
conf=${PCP_CONF:-/etc/pcp.conf}
if [ ! -f "$conf" ]; then
    echo "SKIP: no pcp.conf at $conf (Debian's pcp-conf package; scripts/deps.sh test installs it)"
    exit 77
fi
suite=$(abspath "$suite")
ours="pmcpp newhelp chkhelp pminfo pmgenmap pmnsmerge pmnsadd pmnsdel"
if [ "$mode" = pmkit ]; then
    for t in $ours; do
        need_ours "$bindir/$t" "$t"
    done
    bindir=$(abspath "$bindir")
elif [ "$mode" != debian ]; then
    echo "Usage: pcp_qa.sh pmkit|debian BINDIR ORACLE [TESTSUITE]" >&2
    exit 2
fi
make_tmp pcp_qa
[ -n "${PCP_QA_KEEP:-}" ] && tmp=$(abspath "$PCP_QA_KEEP") && mkdir -p "$tmp"

# the tools: Debian's, then (pmkit mode) pmkit's five in their place
mkdir -p "$tmp/bin" "$tmp/var/pmns" "$tmp/log" "$tmp/run"
for f in "$oracle"/usr/bin/* "$oracle"/usr/lib/pcp/bin/*; do
    ln -sf "$f" "$tmp/bin/"
done
rm -f "$tmp/bin/pmgenmap" # a script that sources $PCP_DIR/etc/pcp.env
printf '#!/bin/sh\nPCP_DIR=%s exec %s "$@"\n' "$oracle" "$oracle/usr/bin/pmgenmap" \
    >"$tmp/bin/pmgenmap"
chmod +x "$tmp/bin/pmgenmap"
if [ "$mode" = pmkit ]; then
    for t in $ours; do
        rm -f "$tmp/bin/$t"
        ln -s "$bindir/$t" "$tmp/bin/$t"
    done
fi

mkdir -p "$tmp/share/lib"
ln -s "$oracle"/usr/share/pcp/lib/* "$tmp/share/lib/"

PCP_DIR=$oracle PCP_CONF=$conf PCP_BIN_DIR=$tmp/bin PCP_BINADM_DIR=$tmp/bin PCP_SHARE_DIR=$tmp/share
PCP_VAR_DIR=$tmp/var PCP_LOG_DIR=$tmp/log PCP_TMP_DIR=$tmp/run PCP_TMPFILE_DIR=$tmp/run
PCP_DERIVED_CONFIG= MSGVERB=text:action PATH=$tmp/bin:$PATH
export PCP_DIR PCP_CONF PCP_BIN_DIR PCP_BINADM_DIR PCP_SHARE_DIR PCP_VAR_DIR PCP_LOG_DIR PCP_TMP_DIR
export PCP_TMPFILE_DIR PCP_DERIVED_CONFIG MSGVERB PATH
unset PCP_ENV_DONE PMKIT_DIAGNOSTICS PMNS_DEFAULT PCP_ALT_CPP

# the namespace files, as an installed PCP has them (Debian's tools make them)
cp "$oracle"/usr/lib/pcp/pmns/* "$tmp/var/pmns/"
if ! (cd "$tmp/var/pmns" && PATH=$oracle/usr/lib/pcp/bin:$PATH PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin \
    sh ./Make.stdpmid && PATH=$oracle/usr/lib/pcp/bin:$PATH \
    PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin sh ./Rebuild -s) >"$tmp/log/pmns" 2>&1 ||
    [ ! -f "$tmp/var/pmns/stdpmid" ] || [ ! -f "$tmp/var/pmns/root" ]; then
    echo "FAIL: cannot make stdpmid and root with Debian's Make.stdpmid and Rebuild:"
    shorten <"$tmp/log/pmns"
    exit 1
fi
cp -R "$suite/var/lib/pcp/testsuite" "$tmp/qa"
(cd "$tmp/qa" && ./mk.localconfig) >/dev/null 2>&1
if [ ! -f "$tmp/qa/localconfig" ]; then
    echo "FAIL: mk.localconfig made no localconfig"
    exit 1
fi

as=
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 && id nobody >/dev/null 2>&1; then
    as="setpriv --reuid=nobody --regid=nogroup --clear-groups"
    chmod 755 "$tmp"
    chown -R nobody:nogroup "$tmp"
fi

npass=0 nfail=0 nknown=0 nstale=0 n=0
while read -r test reason; do
    case $test in '' | '#'*) continue ;; esac
    n=$((n + 1))
    [ "$mode" = debian ] && reason=
    (cd "$tmp/qa" && timeout 120 $as sh "./$test" </dev/null >"$tmp/$test.got" 2>&1)
    if cmp -s "$tmp/qa/$test.out" "$tmp/$test.got"; then
        if [ -n "$reason" ]; then
            nstale=$((nstale + 1))
            echo "STALE $test: passes, but is listed as a known failure ($reason)"
        else
            npass=$((npass + 1))
            echo "pass $test"
        fi
    elif [ -n "$reason" ]; then
        nknown=$((nknown + 1))
        echo "known $test: $reason"
    else
        nfail=$((nfail + 1))
        echo "FAIL $test (diff $test.out, < PCP's expected, > $mode):"
        diff "$tmp/qa/$test.out" "$tmp/$test.got" | shorten | sed 's/^/  /'
    fi
done <"$here/pcp_qa_tests"
label="$n QA tests with $mode's tools: $npass passed, $nknown known failures${as:+ (as nobody)}"
if [ $nfail != 0 ] || [ $nstale != 0 ] || [ $n = 0 ]; then
    echo "PCP QA: FAILED: $label, $nfail failed, $nstale known failures passed"
    exit 1
fi
echo "PCP QA: $label"
exit 0
