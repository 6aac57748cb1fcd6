#!/bin/sh
# daemon_diff.sh SRCDIR OURS THEIRS
#
# Daemon agents under Debian's dbpmda, which plays pmcd's part: the same
# agent sources built against pmkit's libpcp_pmda (OURS) and Debian's
# (THEIRS) must answer identically.  Each directory holds five agents
# (tests/oracle/CMakeLists.txt builds them): pcp_simple and pcp_trivial
# (PCP's sources from Debian's pcp package), pmkit_simple and
# pmkit_trivial (SRCDIR/pmdas), and dmn (daemon_agent.c: every PDU type,
# a dynamic subtree, labels, check/done/end-context callbacks, "not
# ready").  The sessions are daemon_dbpmda.in's: over pipes, and dmn over a
# unix and an inet socket it listens on.  Compared per session: dbpmda's
# stdout and exit status, dmn's callback record (-e), whether the agent
# exited by itself once dbpmda closed the connection (socket sessions: its
# exit status), with addresses, pids, paths and clock values masked.  Any
# sanitizer report in an agent's log fails the test.
#
# Needs no root: the seeds' -U names the user running the test.
# DAEMON_DIFF_KEEP=DIR keeps both sides' outputs in DIR.
# Exit 0 identical, 1 a difference or failure, 2 usage, 77 skip (Debian's
# dbpmda, newhelp, agent sources or libraries missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
if [ $# -ne 3 ]; then
    echo "Usage: daemon_diff.sh SRCDIR OURS THEIRS" >&2
    exit 2
fi
src=$(cd "$1" && pwd) || exit 2
ours=$2 theirs=$3
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
dbpmda=$oracle/usr/bin/dbpmda
newhelp=$oracle/usr/lib/pcp/bin/newhelp
need_oracle "$dbpmda" "Debian's dbpmda"
need_oracle "$newhelp" "Debian's newhelp"
agents="dmn pcp_simple pcp_trivial pmkit_simple pmkit_trivial"
for a in $agents; do
    if [ ! -x "$theirs/$a" ]; then
        echo "SKIP: the agents built against Debian's libpcp_pmda are missing ($theirs/$a;" \
            "Debian's libpcp-pmda3-dev or the pcp extract: make test-deps)"
        exit 77
    fi
    need_ours "$ours/$a" "agent $a"
done
ours=$(cd "$ours" && pwd) theirs=$(cd "$theirs" && pwd)
make_tmp daemon_diff
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin
PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_PMCDCONF_PATH
user=$(id -un)
# Agents built with ASan: pmdaDaemon's copy of the default log name is
# lost when -l replaces it, in PCP's library as in pmkit's (the pmdaExt
# lives as long as the agent); any other leak is reported in the log.
printf 'leak:pmdaDaemon\n' >"$tmp/lsan.supp"
LSAN_OPTIONS=suppressions=$tmp/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
export LSAN_OPTIONS

# $PCP_PMDAS_DIR for each HELP kind: help files compiled by Debian's
# newhelp from PCP's sources (pcp) or pmkit's (pmkit), and simple.conf
pmns=$here/daemon.pmns
seeds=$oracle/usr/lib/pcp/pmdas
for kind in pcp pmkit none; do
    for a in simple trivial; do
        mkdir -p "$tmp/$kind/$a" || exit 1
        [ $kind = none ] && continue
        if [ $kind = pcp ]; then hs=$seeds/$a/help; else hs=$src/pmdas/$a/help; fi
        if [ ! -f "$hs" ]; then
            echo "SKIP: $hs not found (run: sh scripts/deps.sh test)"
            exit 77
        fi
        sed 's/^@ SIMPLE\./@ 253./' "$hs" >"$tmp/$kind/$a/help.src"
        if ! "$newhelp" -n "$pmns" -v 2 -o "$tmp/$kind/$a/help" <"$tmp/$kind/$a/help.src"; then
            echo "FAIL: Debian's newhelp on $hs"
            exit 1
        fi
    done
done

# wait_for TEST...: up to 5 s for the shell test TEST to hold
wait_for() {
    n=0
    until "$@"; do
        n=$((n + 1))
        [ $n -gt 50 ] && return 1
        sleep 0.1
    done
}
listening() { ss -ltn 2>/dev/null | grep -q ":$1 "; }

# session SIDE BIN NAME HELP MODE: one section of daemon_dbpmda.in
session() {
    side=$1 bin=$2 name=$3 help=$4 mode=$5
    t=$tmp/$side.$name
    sock=$t.sock port=0 pid=
    echo "sec,min,hour" >"$tmp/$help/simple/simple.conf"
    awk -v want="$name" '/^== /{on = ($2 == want); next} on && !/^#/' "$here/daemon_dbpmda.in" |
        sed -e "s|@BIN@|$bin|g" -e "s|@TMP@|$t|g" -e "s|@USER@|$user|g" \
            -e "s|@SOCK@|$sock|g" >"$t.in"
    case $mode in
    unix)
        "$bin/dmn" -d 243 -u "$sock" -l "$t.log" -e "$t.events" &
        pid=$!
        wait_for test -S "$sock" || echo "agent never listened on $sock"
        ;;
    inet)
        # a port of our own: the pid spreads concurrent runs apart
        port=$((20000 + ($$ % 20000)))
        [ "$side" = theirs ] && port=$((port + 1))
        sed -i "s|@PORT@|$port|g" "$t.in"
        "$bin/dmn" -d 243 -i "$port" -l "$t.log" -e "$t.events" &
        pid=$!
        if command -v ss >/dev/null 2>&1; then
            wait_for listening "$port" || echo "agent never listened on port $port"
        else
            sleep 1
        fi
        ;;
    esac
    echo "== $name"
    PCP_PMDAS_DIR=$tmp/$help timeout 60 "$dbpmda" -n "$pmns" -e <"$t.in"
    echo "== exit $?"
    if [ -n "$pid" ]; then
        # closing the connection must end the agent
        wait_for sh -c "! kill -0 $pid 2>/dev/null" || kill "$pid"
        wait "$pid"
        echo "== agent exit $?"
    fi
    # the agent's last callbacks come after dbpmda is gone: wait for its
    # exit (pmOpenLog's last line; both libraries write it)
    wait_for grep -q 'Log finished' "$t.log" || echo "== agent still running"
    if [ -f "$t.events" ]; then
        echo "== callbacks"
        cat "$t.events"
    fi
}

# run SIDE BIN: every session, normalised, into $tmp/SIDE.out
run() {
    grep '^== ' "$here/daemon_dbpmda.in" | while read -r _ name help mode; do
        session "$1" "$2" "$name" "$help" "${mode:-pipe}"
    done >"$tmp/$1.raw" 2>"$tmp/$1.err"
    sed -e "s|$2|BIN|g" -e "s|$tmp/$1\.|TMP/|g" -e "s|$tmp/|TMP/|g" \
        -e 's/dump from 0x[0-9a-f]*/dump from ADDR/' -e 's/(pid: [0-9]*)/(pid: PID)/' \
        -e 's/inet \(port \)\{0,1\}[0-9][0-9]*/inet PORT/' -e 's/\b1[0-9]\{9\}\b/EPOCH/g' \
        "$tmp/$1.raw" >"$tmp/$1.out"
}
run ours "$ours"
run theirs "$theirs"

# The context's labels, which pmdaLabel reads from $PCP_SYSCONF_DIR/labels,
# over label directories as machines have them: none (no labels/), empty,
# only an empty optional/ (what Debian's pcp package installs), one file
# whose nesting and order are kept (with and without optional/), files
# after an empty object, a subdirectory and an empty file, and files with
# optional ones.  "lastbad" is a known difference (docs/compat.md): PCP
# answers no set when the last file does not parse, pmkit the labels.
labeldirs="none empty onlyopt single single_opt lead_empty entries files lastbad"
for d in $labeldirs; do
    mkdir -p "$tmp/sysconf/$d"
    [ "$d" = none ] || mkdir -p "$tmp/sysconf/$d/labels"
done
l=$tmp/sysconf
mkdir -p "$l/onlyopt/labels/optional" "$l/single_opt/labels/optional" \
    "$l/entries/labels/a_dir" "$l/files/labels/optional"
for d in single single_opt lead_empty entries; do
    echo '{"z":{"m":1,"k":"v"},"a":true}' >"$l/$d/labels/b.json"
done
echo '{}' >"$l/lead_empty/labels/a.json"
: >"$l/entries/labels/a_empty"
echo '{"site":"lab","rack":{"row":3}}' >"$l/files/labels/a.json"
echo '{"rack":{"row":4},"k":1}' >"$l/files/labels/b.conf"
echo '{"k":2,"opt":"yes"}' >"$l/files/labels/optional/o"
echo '{"site":"lab"}' >"$l/lastbad/labels/a.json"
echo '"not an object"' >"$l/lastbad/labels/z.json"
# ctx_labels SIDE BIN: `label context` asked of BIN/dmn in each directory
ctx_labels() {
    for d in $labeldirs; do
        echo "== labels $d"
        printf 'open pipe %s/dmn -d 243 -l %s\nlabel context\nclose\n' "$2" "$tmp/$1.ctx.$d.log" |
            PCP_SYSCONF_DIR=$tmp/sysconf/$d PCP_PMDAS_DIR=$tmp/none timeout 60 "$dbpmda" -n "$pmns" -e
        echo "== exit $?"
    done 2>>"$tmp/$1.err" | sed -e "s|$2|BIN|g" -e "s|$tmp/$1\.|TMP/|g" >"$tmp/$1.ctx"
}
ctx_labels ours "$ours"
ctx_labels theirs "$theirs"
# lastbad apart: each side as it should be, then the rest alike
lastbad() { sed -n '/^== labels lastbad/,/^== exit/p' "$1"; }
if ! lastbad "$tmp/theirs.ctx" | grep -q 'returns 0 label sets' ||
    ! lastbad "$tmp/ours.ctx" | grep -q 'site="lab"'; then
    echo "FAIL: known difference lastbad: Debian's should answer no set, pmkit's site=\"lab\""
    lastbad "$tmp/theirs.ctx"
    lastbad "$tmp/ours.ctx"
    echo 'lastbad differs' >>"$tmp/ours.out"
fi
for s in ours theirs; do
    sed '/^== labels lastbad/,/^== exit/d' "$tmp/$s.ctx" >>"$tmp/$s.out"
done

verdict=0
if grep -l 'Sanitizer\|runtime error' "$tmp"/*.log 2>/dev/null; then
    echo "FAIL: sanitizer reports in the agents' logs (above):"
    grep -h -A20 'Sanitizer\|runtime error' "$tmp"/*.log | head -60
    verdict=1
fi
if ! grep -q 'Start dmn PMDA' "$tmp/ours.out" || ! grep -q 'inst: 5' "$tmp/ours.out"; then
    echo "FAIL: the sessions did not run (stderr follows)"
    head -20 "$tmp/ours.err"
    verdict=1
fi
if ! cmp -s "$tmp/ours.out" "$tmp/theirs.out"; then
    echo "FAIL: daemon agents answer differently (< pmkit's libpcp_pmda, > Debian's)"
    diff "$tmp/ours.out" "$tmp/theirs.out" | head -80
    verdict=1
fi
if [ -n "${DAEMON_DIFF_KEEP:-}" ]; then
    mkdir -p "$DAEMON_DIFF_KEEP" && cp "$tmp"/*.out "$tmp"/*.err "$tmp"/*.log "$DAEMON_DIFF_KEEP"/
fi
[ $verdict = 0 ] || exit 1
echo "daemon oracle: $(grep -c '^== exit' "$tmp/ours.out") dbpmda sessions," \
    "$(grep -c . "$tmp/ours.out") lines, identical for pmkit's and Debian's libpcp_pmda" \
    "(context labels over $(echo $labeldirs | wc -w) label directories, lastbad as known)"
exit 0
