#!/bin/sh
# pmdumplog_diff.sh OURS THEIRS TESTSUITE KNOWN [PMLOGEXTRACT LIBDIR]
#
# pmkit's pmdumplog (OURS) and Debian's (THEIRS, run with Debian's libpcp)
# over a sample of the archives of Debian's pcp-testsuite (TESTSUITE is
# its unpacked var/lib/pcp/testsuite): versions 2 and 3, compressed,
# multi-volume, damaged, and with PMLOGEXTRACT (Debian's, run with the
# libraries of LIBDIR) version 3 copies of version 2 ones; each archive
# with each option.  Then the usage errors: bad options, no archive, a
# missing archive, bad -S/-T/-Z values, unknown metric names.  Standard
# output, standard error and the exit status must be identical, but for
# the cases of KNOWN, each a line "CASE WHY" (WHY names the docs/compat.md
# entry), which must differ.
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
[ $# -ge 4 ] || {
    echo "usage: pmdumplog_diff.sh OURS THEIRS TESTSUITE KNOWN [PMLOGEXTRACT LIBDIR]" >&2
    exit 2
}
ours=$(abspath "$1")
theirs=$2
suite=$3
known=$(abspath "$4")
extract=${5:-}
libdir=${6:-}
need_ours "$ours" "pmdumplog (pmkit)"
need_oracle "$theirs" "Debian's pmdumplog"
"$theirs" -? >/dev/null 2>&1
if [ $? -ne 1 ]; then
    echo "SKIP: Debian's pmdumplog does not run here (Debian's libpcp3 is missing)"
    exit 77
fi
need_testsuite "$suite"
suite=$(cd "$suite" && pwd)
make_tmp pmdumplog_diff
# Debian's libpcp would add the machine's derived metrics; pmkit has none
export PCP_DERIVED_CONFIG=
export TZ=UTC

# The archives: small ones of each kind (names relative to $suite).
archives="archives/ok-foo archives/ok-mv-foo archives/omnibus_v3 archives/omnibus-nomark_v3
archives/540117-short archives/binning archives/value-test archives/rattle badarchives/badti-1
badarchives/badlen-1 badarchives/badlabel-0 archives/eventrec archives/eventrec-old archives/omnibus_v2"
if [ -n "$extract" ] && [ -x "$extract" ]; then
    mkdir "$tmp/v3"
    for a in ok-foo ok-mv-foo rattle eventrec; do
        LD_LIBRARY_PATH=$libdir "$extract" -V 3 "$suite/archives/$a" "$tmp/v3/$a" >/dev/null 2>&1 &&
            archives="$archives $tmp/v3/$a"
    done
fi

# The options, each run alone ("-" is none).
options="- -a -l -L -d -e -h -i -I -t -ldehIit -s -r -x -xx -xxx -lz -ZAEST-10 -S+2 -T-2 -r-T+3"
# the omnibus archives (large dumps) get fewer: those that dump no data
# record and some of the ways their event records' stamps are printed
omnibus_options="- -xx -l -L -d -e -h -i -I -t -ldehIit -lz"

known_case() {
    awk -v c="$1" '$1 == c { found = 1 } END { exit !found }' "$known"
}

fails=0
n=0
# check CASE ARG...: both tools with ARG..., in $suite
check() {
    c=$1
    shift
    n=$((n + 1))
    # standard output then standard error: how they interleave depends
    # on stdout's buffer, which PCP flushes when it fills
    for who in theirs ours; do
        eval "tool=\$$who"
        (cd "$suite" && "$tool" "$@") >"$tmp/$who" 2>"$tmp/$who.err"
        echo "exit $?" >>"$tmp/$who.err"
        cat "$tmp/$who.err" >>"$tmp/$who"
    done
    if known_case "$c"; then
        if cmp -s "$tmp/theirs" "$tmp/ours"; then
            echo "STALE $c: listed in $(basename "$known") but identical"
            fails=$((fails + 1))
        fi
    elif ! cmp -s "$tmp/theirs" "$tmp/ours"; then
        echo "DIFF $c: < Debian, > pmkit"
        diff "$tmp/theirs" "$tmp/ours" | head -20 | sed 's/^/  /'
        fails=$((fails + 1))
    fi
}

for a in $archives; do
    opts=$options
    case $a in *omnibus*) opts=$omnibus_options ;; esac
    for o in $opts; do
        c="$(basename "$a")$o"
        case $a in /*) c=v3:$c ;; esac
        case $o in
        -) check "$c" "$a" ;;
        -r-T+3) check "$c" -r -T+3 "$a" ;;
        -ZAEST-10) check "$c" -Z "${o#-Z}" "$a" ;;
        *) check "$c" "$o" "$a" ;;
        esac
    done
done

# Named metrics and the archive named by one of its files.
check names-two archives/ok-foo sample.colour sample.lights
check names-order archives/ok-foo pmcd.pmlogger.host sample.drift
check names-subtree archives/ok-foo sample
check names-unknown archives/ok-foo sample.nosuch sample.drift
check names-none archives/ok-foo sample.nosuch
check byfile-meta -l archives/ok-foo.meta
check byfile-0 -t archives/ok-mv-foo.1

# Usage and errors.
check usage-none
check usage-bad-option -b archives/ok-foo
check usage-help -?
check usage-version -V
check usage-missing archives/no-such-archive
check usage-missing-arg -S
check usage-bad-start -S yesterday archives/ok-foo
check usage-bad-finish -T @nonsense archives/ok-foo
check usage-long --label archives/ok-foo

if [ "$fails" -ne 0 ]; then
    echo "$fails of $n cases differ"
    exit 1
fi
echo "$n cases identical (or listed in $(basename "$known"))"
exit 0
