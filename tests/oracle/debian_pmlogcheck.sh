#!/bin/sh
# debian_pmlogcheck.sh LIBDIR ORACLE_DIR TESTSUITE_DIR
#
# Debian's pmlogcheck (ORACLE_DIR/usr/bin, the unpacked pcp package) run
# once on Debian's libpcp and once on pmkit's (LIBDIR first on the library
# path), over archives of Debian's pcp-testsuite (TESTSUITE_DIR): versions
# 2 and 3, several volumes, a copy compressed here with gzip, and the
# damaged archives of badarchives.  Past its own reading of the files it
# goes through PCP's internal interface: the context's __pmArchCtl and
# __pmLogCtl (files, temporal index, descriptors, instance domains) and
# __pmLogRead_ctx, which reads the data volumes record by record whatever
# the mode's time.  stdout, stderr and the exit status must be identical.
# Left out: -S (below, docs/compat.md).
#
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
if [ $# != 3 ]; then
    echo "Usage: debian_pmlogcheck.sh LIBDIR ORACLE_DIR TESTSUITE_DIR" >&2
    exit 2
fi
lib=$1 oracle=$2 suite=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
prog=$oracle/usr/bin/pmlogcheck
need_oracle "$prog" "Debian's pmlogcheck"
need_testsuite "$suite"
need_ours "$lib/libpcp.so.3" libpcp
lib=$(abspath "$lib")
suite=$(abspath "$suite")
prog=$(abspath "$prog")
san=$(sanitizer_env "$lib/libpcp.so.3")
unset LD_LIBRARY_PATH PCP_CONF PCP_DIR
export TZ=UTC LC_ALL=C
# Debian's libpcp would add the machine's derived metrics; pmkit has none
export PCP_DERIVED_CONFIG=

make_tmp debian_pmlogcheck
mkdir "$tmp/a"
debian_on_ours "$prog" pmlogcheck

# the archives, copied so that nothing here writes into the testsuite
cp "$suite"/badarchives/* "$tmp/a/" 2>/dev/null
for b in ok-foo ok-mv-foo ok-mv-bigbin omnibus_v3 omnibus-nomark_v3 540117-short rattle eventrec \
    20180102; do
    cp "$suite/archives/$b".* "$tmp/a/"
done
cd "$tmp/a" || exit 1
for f in ok-foo.0 ok-foo.meta ok-foo.index; do
    gzip -c "$f" >"gz-${f}.gz"
done

nruns=0 ndiff=0
run() { # ARGS...: in the current directory, both libraries
    nruns=$((nruns + 1))
    "$prog" "$@" >"$tmp/theirs.out" 2>"$tmp/theirs.err"
    echo $? >"$tmp/theirs.rc"
    # shellcheck disable=SC2086
    env $san LD_LIBRARY_PATH="$tmp/lib" "$prog" "$@" >"$tmp/ours.out" 2>"$tmp/ours.err"
    echo $? >"$tmp/ours.rc"
    bad=
    cmp -s "$tmp/ours.rc" "$tmp/theirs.rc" || bad="$bad exit($(cat "$tmp/ours.rc") vs $(cat "$tmp/theirs.rc"))"
    cmp -s "$tmp/ours.out" "$tmp/theirs.out" || bad="$bad stdout"
    cmp -s "$tmp/ours.err" "$tmp/theirs.err" || bad="$bad stderr"
    [ -z "$bad" ] || report_diff "$bad" "pmlogcheck $*"
}

# each good archive with each option set
for a in ok-foo ok-mv-foo ok-mv-bigbin omnibus_v3 omnibus-nomark_v3 540117-short rattle eventrec \
    20180102 gz-ok-foo; do
    # no -S: Debian's pmSetMode leaves its files at a temporal index entry
    # before the start, where Debian's pmlogcheck then reads a record out
    # of its window and says time went backwards; pmkit's reading starts
    # at the start (docs/compat.md)
    for opts in "" -v -l -m -w -z -T+3 "-v -T+5" "-v -Z EST-10"; do
        # shellcheck disable=SC2086 # the options are words
        run $opts "$a"
    done
done

# every damaged archive, plainly and verbosely
archives=$(ls | sed -n 's/\.\(meta\|index\|[0-9][0-9]*\)\(\.xz\|\.gz\|\.bz2\)\{0,1\}$//p' | sort -u)
for a in $archives; do
    [ -f "$suite/badarchives/$a.meta" ] || [ -f "$suite/badarchives/$a.0" ] ||
        [ -f "$suite/badarchives/$a.index" ] || continue
    run "$a"
    run -v "$a"
done
run nonesuch
run ./ok-mv-foo.1

echo "$nruns runs of Debian's pmlogcheck, $ndiff differences"
[ "$ndiff" -eq 0 ]
