#!/bin/sh
# logctl_diff.sh BUILDDIR TESTSUITE_SRC DEBIAN_LIBPCP
#
# pmlogger's control clients against Debian's real pmlogger, on Debian's
# libpcp and on pmkit's: Debian's pmcd (its own agent only) on a free
# loopback port (of 127.0.0.1 and 127.0.0.2, which neither library takes
# for this host) and a unix socket in a scratch directory, and for each
# side a fresh Debian pmlogger, the primary (-P), with the same
# configuration.  On each side: Debian's pmlc (on pmkit's side with
# LD_LIBRARY_PATH=BUILDDIR/lib) connected to the primary, by pid (the
# unix socket), by -h localhost -p PORT (TCP) and through 127.0.0.2's pmcd
# (by pid, the primary, a pid with no logger), reading the same commands
# (status, query, log mandatory/advisory on/off/maybe, a bad name);
# pcp-testsuite's logcontrol and chknumval (TESTSUITE_SRC) built unchanged
# against each library: logcontrol by pid, by port, to the primary,
# through 127.0.0.2, with a bad name and for a pid with no logger;
# chknumval's controls of no metrics and of value sets that are empty or
# errors; then, the logger stopped, pmlc finding none.  stdout, stderr and
# exit status must be identical once the pids, the port, the clock, the
# archive's size and the result dumps' addresses and times are named.
#
# Needs no network beyond loopback; pmlogger runs as the user running the
# test (-U).  LOGCTL_DIFF_KEEP=DIR keeps both sides' outputs in DIR.
# Exit 0 identical, 1 a difference or failure, 2 usage, 77 skip (Debian's
# pmcd, pmlogger, pmlc, libpcp_archive, libpcp or the testsuite missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/oracle/oracle_lib.sh
. "$here/oracle_lib.sh"
[ $# = 3 ] || { echo "Usage: logctl_diff.sh BUILDDIR TESTSUITE_SRC DEBIAN_LIBPCP" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
ts=$2 debian_lib=$3
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
pmcd=$oracle/usr/lib/pcp/bin/pmcd
pmlogger=$oracle/usr/lib/pcp/bin/pmlogger
pmlc=$oracle/usr/bin/pmlc
archlib=$oracle/../libpcp-archive1/usr/lib
need_oracle "$pmcd" "Debian's pmcd"
need_oracle "$pmlogger" "Debian's pmlogger"
need_oracle "$pmlc" "Debian's pmlc"
for f in "$oracle/usr/lib/pcp/pmdas/pmcd/pmda_pmcd.so" "$oracle/usr/lib/pcp/pmns/root_pmcd" \
    "$archlib/libpcp_archive.so.1" "$ts/logcontrol.c" "$ts/libpcp.h" "$debian_lib"; do
    [ -f "$f" ] || { echo "SKIP: $f not found (sh scripts/deps.sh test)"; exit 77; }
done
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed to pick free ports"; exit 77; }
cc=${CC:-cc}

make_tmp logctl_diff
pmcd_pid='' logger_pid=''
stop_logger() {
    stop_pid "$logger_pid"
    logger_pid=
}
trap 'stop_logger; stop_pmcd; cd /; rm -rf "$tmp"' EXIT

# logcontrol and chknumval, as testsuite_diff.sh builds the testsuite's
# programs
mkdir "$tmp/inc" "$tmp/pmkit" "$tmp/pcp" "$tmp/run" "$tmp/tmp"
printf '#define PCP_PLATFORM linux\n#define PCP_VER 60003\n' >"$tmp/inc/localconfig.h"
for prog in logcontrol chknumval; do
    # shellcheck disable=SC2086 # $PMKIT_SAN_CFLAGS: the sanitizers of an ASan build
    if ! "$cc" ${PMKIT_SAN_CFLAGS:-} -DDEBUG -D_GNU_SOURCE -Werror=implicit-function-declaration \
        -I"$tmp/inc" -I"$build/include/pcp" -I"$build/include" -o "$tmp/pmkit/$prog" \
        "$ts/$prog.c" -Wl,--no-undefined -L"$build/lib" -Wl,-rpath,"$build/lib" -lpcp \
        2>"$tmp/cc.err"; then
        echo "FAIL: $prog.c does not build against pmkit:"
        shorten <"$tmp/cc.err"
        exit 1
    fi
    if ! "$cc" -w -DDEBUG -D_GNU_SOURCE -I"$tmp/inc" -I"$ts" -o "$tmp/pcp/$prog" "$ts/$prog.c" \
        "$debian_lib" 2>"$tmp/cc.err"; then
        echo "SKIP: $prog.c does not build against Debian's libpcp"
        exit 77
    fi
done

# pmcd with its own agent
user=$(id -un)
echo "pmcd	2	dso	pmcd_init	$oracle/usr/lib/pcp/pmdas/pmcd/pmda_pmcd.so" >"$tmp/pmcd.conf"
free_port() {
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
PMCD_PORT=$(free_port)
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin
PCP_RUN_DIR=$tmp/run
PCP_TMP_DIR=$tmp/tmp
PCP_DERIVED_CONFIG=
export PMCD_PORT PCP_BINADM_DIR PCP_RUN_DIR PCP_TMP_DIR PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_PMCDCONF_PATH PMLOGGER_REQUEST_TIMEOUT
"$pmcd" -f -A -i 127.0.0.1 -i 127.0.0.2 -p "$PMCD_PORT" -c "$tmp/pmcd.conf" -n "$oracle/usr/lib/pcp/pmns/root_pmcd" \
    -l "$tmp/pmcd.log" -s "$tmp/run/pmcd.socket" -x "$tmp/pmcd.err" >"$tmp/pmcd.out" 2>&1 &
pmcd_pid=$!
wait_pmcd "$tmp/run/pmcd.socket" pmcd

cat >"$tmp/logger.conf" <<'EOF'
log mandatory on 1 sec { pmcd.pdu_in.total pmcd.numclients }
log advisory off { pmcd.control.timeout }
[access]
allow * : all;
EOF
cat >"$tmp/pmlc.in" <<'EOF'
query { pmcd.pdu_in.total pmcd.numclients pmcd.control.timeout }
log mandatory on 3 sec pmcd.numclients
log advisory on 1 min pmcd.control.timeout
query { pmcd.numclients pmcd.control.timeout }
log mandatory maybe { pmcd.control.timeout }
log mandatory off { pmcd.pdu_in.total }
query pmcd.pdu_in
query pmcd.control
log mandatory off pmcd.nosuch
status
EOF

printf 'leak:chknumval\n' >"$tmp/chknumval.supp"
out=${LOGCTL_DIFF_KEEP:-$tmp/out}
mkdir -p "$out" || exit 1

# start_logger SIDE: a fresh primary pmlogger, its pid and port known
start_logger() {
    PMLOGGER_PORT=$(free_port)
    export PMLOGGER_PORT
    rm -rf "$tmp/tmp/pmlogger" "$tmp/run/pmlogger."*
    LD_LIBRARY_PATH=$archlib "$pmlogger" -P -U "$user" -c "$tmp/logger.conf" -l "$tmp/$1.log" \
        "$tmp/$1-arch" >"$tmp/$1.out" 2>&1 &
    logger_pid=$! logger_seen=$!
    i=0
    until [ -s "$tmp/tmp/pmlogger/primary" ] && [ -S "$tmp/run/pmlogger.primary.socket" ]; do
        if ! kill -0 "$logger_pid" 2>/dev/null || [ $i -ge 100 ]; then
            echo "FAIL: pmlogger did not start"
            cat "$tmp/$1.log" "$tmp/$1.out" 2>/dev/null | shorten
            exit 1
        fi
        sleep 0.1
        i=$((i + 1))
    done
}

# run SIDE NAME CMD...: CMD's stdout, stderr and status into $out/NAME.SIDE,
# the side's logger's pid (even once stopped), port, times and sizes named;
# and whether a metric is in the archive yet (pmlc's "nl", logcontrol's
# "inlog" and its bit in the state) and had values when last logged
# (pmlc's "na", logcontrol's "avail"), which are the logger's race with the
# client after a change, not the library's ("avail" differed once in 20
# runs under ASan; "na" never has, but it is the same flag)

run() {
    r_side=$1 r_name=$2 r_try=0
    shift 2
    # a logger serves one client at a time, and refuses another
    # (EADDRINUSE) until it has seen the last one go: a client run just
    # before may not have been seen yet (once in 40 runs, on a loaded
    # machine), so a refused run is made again, after a pause
    while :; do
        "$@" <"$tmp/pmlc.in" >"$out/$r_name.$r_side.raw" 2>&1
        r_sts=$?
        grep -q 'Address already in use' "$out/$r_name.$r_side.raw" && [ $r_try -lt 50 ] || break
        r_try=$((r_try + 1))
        sleep 0.2
    done
    echo "exit $r_sts" >>"$out/$r_name.$r_side.raw"
    sed -e "s/\\b$logger_seen\\b/PID/g" -e "s/\\b$PMLOGGER_PORT\\b/PORT/g" \
        -e 's/^\(log started  *\|last log entry  *\|current time  *\).*/\1TIME/' \
        -e 's/^log size .*/log size SIZE/' \
        -e 's/^\(    .... ... \)n[la]/\1  /' \
        -e 's/^\([a-z][a-z_.]*  \)[0-9][0-9]* (/\1N (/' -e 's/, inlog//' -e 's/, avail//' \
        -e 's/dump from 0x[0-9a-f]* timestamp: [0-9.]* [0-9:.]* /dump from ADDR timestamp: TIME /' \
        "$out/$r_name.$r_side.raw" >"$out/$r_name.$r_side"
}

dead=$(sh -c 'echo $$')
san=$(sanitizer_env "$build/lib/libpcp.so.3")
for side in pcp pmkit; do
    # Debian's pmlc on pmkit's libpcp (with an ASan build's runtimes)
    if [ $side = pmkit ]; then lib="LD_LIBRARY_PATH=$build/lib $san"; else lib=; fi
    start_logger $side
    # shellcheck disable=SC2086 # $lib: the assignments pmkit's side needs
    run $side pmlc-primary env $lib "$pmlc" -P
    # shellcheck disable=SC2086
    run $side pmlc-pid env $lib "$pmlc" "$logger_pid"
    # shellcheck disable=SC2086
    run $side pmlc-port env $lib "$pmlc" -h localhost -p "$PMLOGGER_PORT"
    # another host, as far as either library can tell: its pmcd is asked
    # for the port (pmcd.pmlogger.port)
    # shellcheck disable=SC2086
    run $side pmlc-remote env $lib "$pmlc" -h 127.0.0.2 "$logger_pid"
    # shellcheck disable=SC2086
    run $side pmlc-remote-primary env $lib "$pmlc" -h 127.0.0.2 -P
    # shellcheck disable=SC2086
    run $side pmlc-remote-none env $lib "$pmlc" -h 127.0.0.2 "$dead"
    # (logcontrol sleeps a second before it exits well)
    run $side logcontrol-pid "$tmp/$side/logcontrol" -p "$logger_pid" enquire pmcd.pdu_in.total \
        pmcd.numclients pmcd.control.timeout
    run $side logcontrol-port "$tmp/$side/logcontrol" -P "$PMLOGGER_PORT" -r 2000 advisory on \
        pmcd.control.timeout pmcd.pdu_in.total
    run $side logcontrol-primary "$tmp/$side/logcontrol" mandatory maybe pmcd.control.timeout \
        pmcd.numclients
    run $side logcontrol-remote "$tmp/$side/logcontrol" -h 127.0.0.2 -p "$logger_pid" enquire \
        pmcd.numclients
    run $side logcontrol-bad "$tmp/$side/logcontrol" -p "$logger_pid" enquire pmcd.nosuch
    # the primary's control of values that are errors, empty or missing
    # (its stores fail the same way on both sides, changing nothing); it
    # never frees the answer to its first control, which an ASan build
    # would report
    run $side chknumval env LSAN_OPTIONS="suppressions=$tmp/chknumval.supp:print_suppressions=0" \
        "$tmp/$side/chknumval" pmcd.control.register pmcd.control.timeout pmcd.numclients
    run $side logcontrol-dead "$tmp/$side/logcontrol" -p "$dead" enquire pmcd.numclients
    stop_logger
    # shellcheck disable=SC2086
    run $side pmlc-none env $lib "$pmlc" -P
done

ndiff=0 n=0
for f in "$out"/*.pcp; do
    name=$(basename "$f" .pcp)
    n=$((n + 1))
    if ! cmp -s "$f" "$out/$name.pmkit"; then
        ndiff=$((ndiff + 1))
        echo "DIFF: $name (< Debian's libpcp, > pmkit's)"
        diff "$f" "$out/$name.pmkit" | shorten
    fi
done
if [ $ndiff -ne 0 ]; then
    echo "FAIL: $ndiff of $n runs differ"
    exit 1
fi
echo "PASS: $n runs of pmlc and logcontrol against Debian's pmlogger identical on both libraries"
