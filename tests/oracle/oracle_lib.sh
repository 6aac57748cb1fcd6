# oracle_lib.sh - sourced by the differential scripts of tests/oracle,
# before they change directory: the pieces they share.  Callers of generate
# and keep_hint set $gen, $seed and $count; callers of differ set $name.
# shellcheck shell=sh disable=SC2154

# The directory the script started in; relative paths are taken from it.
top=$(pwd)

# abspath PATH: PATH made absolute from $top
abspath() {
    case $1 in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$top" "$1" ;;
    esac
}

# make_tmp NAME: $tmp, a new directory ${TMPDIR:-/tmp}/NAME.XXXXXX removed
# when the script exits; HUP, INT, PIPE or TERM make it exit 1
make_tmp() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX") || exit 1
    # leave $tmp first: the scripts run their cases inside it
    trap 'cd /; rm -rf "$tmp"' EXIT
    trap 'exit 1' HUP INT PIPE TERM
}

# stop_pid PID: stops process PID, if PID is not empty: TERM, up to 5 s
# to go, then KILL.
stop_pid() {
    if [ -n "$1" ]; then
        kill -TERM "$1" 2>/dev/null
        i=0
        while kill -0 "$1" 2>/dev/null && [ $i -lt 50 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        kill -KILL "$1" 2>/dev/null
    fi
}

# stop_pmcd: stops the pmcd whose process is $pmcd_pid, if any (and with
# it its agents).  Scripts that start one set pmcd_pid= first and call
# this from their EXIT trap.
stop_pmcd() {
    stop_pid "$pmcd_pid"
    pmcd_pid=
}

# wait_pmcd SOCKET AGENT: waits, 10 s at most, until the pmcd of $pmcd_pid
# has made SOCKET and logged AGENT's start in $tmp/pmcd.log; if pmcd ends
# or the time runs out, fails the test with the start of its logs.
wait_pmcd() {
    i=0
    until [ -S "$1" ] && grep -q "^$2" "$tmp/pmcd.log" 2>/dev/null; do
        if ! kill -0 "$pmcd_pid" 2>/dev/null || [ $i -ge 100 ]; then
            echo "FAIL: pmcd did not start"
            cat "$tmp/pmcd.log" "$tmp/pmcd.out" "$tmp/pmcd.err" 2>/dev/null | shorten
            exit 1
        fi
        sleep 0.1
        i=$((i + 1))
    done
}

# need_testsuite DIR: exits 77 (skip), saying so, unless DIR holds the
# archives and badarchives of Debian's pcp-testsuite.
need_testsuite() {
    if [ ! -d "$1/archives" ] || [ ! -d "$1/badarchives" ]; then
        echo "SKIP: Debian's pcp-testsuite archives not found at $1 (run: sh scripts/deps.sh test)"
        exit 77
    fi
}

# need_oracle PATH WHAT [HINT]: exits 77 (skip) with "SKIP: WHAT not found
# at PATH (HINT)" unless PATH is an executable file; HINT defaults to
# how to get Debian's pcp extract
need_oracle() {
    if [ ! -f "$1" ] || [ ! -x "$1" ]; then
        echo "SKIP: $2 not found at $1 (${3:-run: sh scripts/deps.sh test})"
        exit 77
    fi
}

# need_built FILE...: exits 77 (skip) unless each FILE, built against
# Debian's libraries, exists (it is not built when their -dev packages are
# missing)
need_built() {
    for f in "$@"; do
        if [ ! -f "$f" ]; then
            echo "SKIP: $f was not built (Debian's libpcp3-dev or libpcp-pmda3-dev is missing)"
            exit 77
        fi
    done
}

# need_ours PATH WHAT: exits 1 with "FAIL: WHAT under test not executable:
# PATH" unless PATH is an executable file
need_ours() {
    if [ ! -f "$1" ] || [ ! -x "$1" ]; then
        echo "FAIL: $2 under test not executable: $1"
        exit 1
    fi
}

# generate KEEPVAR: the cases of `$gen $seed $count DIR` into $cases, which
# is $tmp/cases or, when the variable named KEEPVAR is set, its value (a
# directory that must not exist yet, kept after the run); exits 1 on failure
generate() {
    eval "keep=\${$1:-}"
    cases=$tmp/cases
    if [ -n "$keep" ]; then
        cases=$(abspath "$keep")
        if [ -e "$cases" ]; then
            echo "FAIL: $1=$cases already exists"
            exit 1
        fi
    fi
    if ! "$gen" "$seed" "$count" "$cases"; then
        echo "FAIL: $gen $seed $count failed"
        exit 1
    fi
}

# keep_hint KEEPVAR: after a failure on generated cases, how to get them
# (nothing when they were kept, or when $gen is a directory of fixed cases
# rather than a generator)
keep_hint() {
    eval "keep=\${$1:-}"
    if [ -z "$keep" ] && [ ! -d "$gen" ]; then
        echo "to get the cases: $gen $seed $count DIR (or rerun with $1=DIR)"
    fi
}

# shorten: the first 20 lines of stdin, each cut to 200 bytes
shorten() { head -20 | cut -c1-200; }

# unstamp: stdin to stdout with the stamp a daemon or agent starts its log
# lines with ("[Sun Nov 29 18:42:46] pmie(1234) ...") as "[DATE] pmie(PID)".
unstamp() { sed 's/^\[[^]]*\] \([a-z]*\)([0-9]*)/[DATE] \1(PID)/'; }

# differ WHAT...: counts a difference of case $name in $ndiff and says so
differ() {
    ndiff=$((ndiff + 1))
    echo "DIFF $name: $*"
}

# report_diff WHAT RUN: counts a differing run in $ndiff and shows it:
# "DIFF WHAT", the command line RUN, both stderrs when either is not empty
# and the diff of the stdouts ($tmp/{ours,theirs}.{out,err})
report_diff() {
    ndiff=$((ndiff + 1))
    echo "DIFF $1"
    echo "  run: $2"
    if [ -s "$tmp/ours.err" ] || [ -s "$tmp/theirs.err" ]; then
        echo "  --- stderr ours / theirs:"
        shorten <"$tmp/ours.err" | sed 's/^/  < /'
        shorten <"$tmp/theirs.err" | sed 's/^/  > /'
    fi
    echo "  --- stdout diff (< ours, > theirs):"
    diff "$tmp/ours.out" "$tmp/theirs.out" | shorten | sed 's/^/  /'
}

# run_sides CMD [FILTER]: the shell command line CMD run in $tmp/pmkit and
# in $tmp/pcp; stdout and "exit STATUS" into $tmp/SIDE.out, stderr into
# $tmp/SIDE.err (through the command FILTER when one is named).  A
# difference between the two sides is counted in $ndiff and shown as
# "DIFF: CMD" and the diffs (< Debian, > pmkit)
run_sides() {
    for side in pmkit pcp; do
        (cd "$tmp/$side" && eval "$1") >"$tmp/$side.out" 2>"$tmp/$side.raw"
        echo "exit $?" >>"$tmp/$side.out"
        if [ -n "${2:-}" ]; then
            "$2" <"$tmp/$side.raw" >"$tmp/$side.err"
        else
            mv "$tmp/$side.raw" "$tmp/$side.err"
        fi
    done
    if ! cmp -s "$tmp/pmkit.out" "$tmp/pcp.out" || ! cmp -s "$tmp/pmkit.err" "$tmp/pcp.err"; then
        ndiff=$((ndiff + 1))
        echo "DIFF: $1"
        diff "$tmp/pcp.out" "$tmp/pmkit.out" | shorten | sed 's/^/  out /'
        diff "$tmp/pcp.err" "$tmp/pmkit.err" | shorten | sed 's/^/  err /'
    fi
}

# sanitizer_env LIB: where LIB (a pmkit library) was built with the
# sanitizers, the assignments a Debian binary needs to load it: their
# runtimes preloaded (they must come first; the list colon-separated) and leak checks off (Debian's
# binaries do not free everything); nothing otherwise.  For env(1).
sanitizer_env() {
    rt=$(ldd "$1" 2>/dev/null | awk '/lib(a|ub)san\.so/ { print $3 }' | tr '\n' ':' | sed 's/:$//')
    [ -z "$rt" ] || printf 'LD_PRELOAD=%s ASAN_OPTIONS=detect_leaks=0\n' "$rt"
}

# debian_on_ours PROG NAME: makes $tmp/lib, holding only a link to pmkit's
# libpcp.so.3 (in $lib), for LD_LIBRARY_PATH; fails the test unless Debian's
# PROG (called NAME in messages) loads pmkit's libpcp from there (with $san,
# sanitizer_env's assignments), skips it unless Debian's own libpcp.so.3 is
# installed for the other side.
# The setting of a test running Debian's binaries on both libraries, once
# need_ours has checked $lib: lib made absolute, san for pmkit's side, no
# library path or PCP configuration inherited, UTC and the C locale, and
# no derived metrics (Debian's libpcp would add the machine's; pmkit has
# none).
debian_setup() {
    lib=$(abspath "$lib")
    san=$(sanitizer_env "$lib/libpcp.so.3")
    unset LD_LIBRARY_PATH PCP_CONF PCP_DIR
    export TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG=
}

debian_on_ours() {
    if [ ! -e "$tmp/lib/libpcp.so.3" ]; then
        mkdir -p "$tmp/lib" && ln -s "$lib/libpcp.so.3" "$tmp/lib/libpcp.so.3" || exit 1
    fi
    # shellcheck disable=SC2086
    loaded=$(env $san LD_LIBRARY_PATH="$tmp/lib" LD_TRACE_LOADED_OBJECTS=1 "$1" 2>&1)
    if ! printf '%s\n' "$loaded" | grep -q "libpcp.so.3 => $tmp/lib/libpcp.so.3"; then
        echo "FAIL: Debian's $2 does not load pmkit's libpcp:"
        printf '%s\n' "$loaded" | sed 's/^/    /'
        exit 1
    fi
    case $(env LD_TRACE_LOADED_OBJECTS=1 "$1" 2>&1 | grep 'libpcp.so.3 =>') in
    *"=> not found"* | "")
        echo "SKIP: Debian's libpcp.so.3 is not installed here (libpcp3)"
        exit 77
        ;;
    esac
}
