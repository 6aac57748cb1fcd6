#!/bin/sh
# debian_clients.sh LIBDIR ORACLE_DIR TESTSUITE_DIR
#
# Debian's client binaries that no other test runs, each once on Debian's
# libpcp and once on pmkit's (LIBDIR first on the library path), over
# archives of Debian's pcp-testsuite (TESTSUITE_DIR): pmlogsummary with its
# option sets, pmie evaluating rules over archives, and pmdbg (Debian's
# pmloglabel and pmlogsize are debian_archive_tools.sh's; pmval and pmevent,
# which need libpcp_gui too, have their own tests).  stdout, stderr and the exit
# status must be identical; pmie's closing "evaluator exiting" line carries
# the time and process id of the run, which are put aside.
#
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
if [ $# != 3 ]; then
    echo "Usage: debian_clients.sh LIBDIR ORACLE_DIR TESTSUITE_DIR" >&2
    exit 2
fi
lib=$1 oracle=$2 suite=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
bin=$oracle/usr/bin
need_oracle "$bin/pmlogsummary" "Debian's pmlogsummary"
need_testsuite "$suite"
need_ours "$lib/libpcp.so.3" libpcp
debian_setup
bin=$(abspath "$bin")
a=$(abspath "$suite")/archives

make_tmp debian_clients
debian_on_ours "$bin/pmlogsummary" pmlogsummary

nruns=0 ndiff=0
run() { # PROG ARGS...: both libraries
    prog=$1
    shift
    nruns=$((nruns + 1))
    "$bin/$prog" "$@" >"$tmp/theirs.out" 2>"$tmp/theirs.raw"
    echo $? >"$tmp/theirs.rc"
    # shellcheck disable=SC2086
    env $san LD_LIBRARY_PATH="$tmp/lib" "$bin/$prog" "$@" >"$tmp/ours.out" 2>"$tmp/ours.raw"
    echo $? >"$tmp/ours.rc"
    # pmie's last line: "[DATE] pmie(PID) Info: evaluator exiting"
    unstamp <"$tmp/theirs.raw" >"$tmp/theirs.err"
    unstamp <"$tmp/ours.raw" >"$tmp/ours.err"
    bad=
    cmp -s "$tmp/ours.rc" "$tmp/theirs.rc" || bad="$bad exit($(cat "$tmp/ours.rc") vs $(cat "$tmp/theirs.rc"))"
    cmp -s "$tmp/ours.out" "$tmp/theirs.out" || bad="$bad stdout"
    cmp -s "$tmp/ours.err" "$tmp/theirs.err" || bad="$bad stderr"
    [ -z "$bad" ] || report_diff "$bad" "$prog $*"
}

# pmlogsummary: every option set over archives of both versions, with
# counters, instances, strings, several volumes and a day's worth of data
for arch in ok-foo ok-mv-foo omnibus_v3 rattle 20180102; do
    for opts in "" "-a" "-blmMy" "-iI" "-f" "-F -H" "-x -p 5" "-s" "-B 3" "-N -z" \
        "-S +2 -T +6" "-Z EST-10 -l" "-v"; do
        # shellcheck disable=SC2086 # the options are words
        run pmlogsummary $opts "$a/$arch"
    done
    run pmlogsummary -a "$a/$arch" sample.bin sample.colour kernel.all.load
done
run pmlogsummary "$a/no-such-archive"
run pmlogsummary -B 0 "$a/ok-foo"
run pmlogsummary -q "$a/ok-foo"

# pmie over archives: quantifiers over instances, sums, rates of
# counters, a variable, verbose truth values, a missing rules file
cat >"$tmp/rules" <<'EOF'
sample.seconds > 0 -> print "seconds %v";
some_inst ( sample.bin > 200 ) -> print "bin %i %v";
all_inst ( sample.colour > 0 ) -> print "every colour above zero";
sum_inst ( sample.bin ) > 1000 -> print "bins sum above 1000";
bins = sample.bin;
EOF
cat >"$tmp/load" <<'EOF'
some_inst ( kernel.all.load > 0.5 ) -> print "load %i %v";
kernel.all.cpu.user > 0 -> print "user %v";
avg_sample ( kernel.all.load #'1 minute' @0..2 ) > 0 -> print "recent load %v";
EOF
run pmie -a "$a/ok-foo" -c "$tmp/rules" -t 1 -z
run pmie -a "$a/ok-mv-foo" -c "$tmp/rules" -t 3 -z -v
run pmie -a "$a/omnibus_v3" -c "$tmp/rules" -t 2 -z -v
run pmie -a "$a/20180102" -c "$tmp/load" -t 10m -z
run pmie -a "$a/20180102" -c "$tmp/load" -t 1h -S +1h -T +5h -z -v
run pmie -a "$a/ok-foo" -c "$tmp/no-such-rules" -z

# the debug flags
run pmdbg -l
run pmdbg -l -o
run pmdbg -D pdu,fetch,appl0
run pmdbg 0x1 0x30
run pmdbg no-such-flag

if [ "$ndiff" != 0 ]; then
    echo "FAIL: $ndiff of $nruns runs of Debian's clients differ on pmkit's libpcp"
    exit 1
fi
echo "PASS: $nruns runs of Debian's pmlogsummary, pmie and pmdbg identical on pmkit's libpcp"
exit 0
