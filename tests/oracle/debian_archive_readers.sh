#!/bin/sh
# debian_archive_readers.sh PROG LIBDIR ORACLE_DIR TESTSUITE_DIR
#
# Debian's PROG, pmdumplog or pmlogcheck (ORACLE_DIR/usr/bin, the unpacked
# pcp package), run once on Debian's libpcp and once on pmkit's (LIBDIR
# first on the library path), over archives of Debian's pcp-testsuite
# (TESTSUITE_DIR): versions 2 and 3, several volumes, copies compressed
# here with gzip and xz, and the damaged archives of badarchives.  Past
# their own reading of the files both go through PCP's internal interface:
# the context's __pmArchCtl and __pmLogCtl (the label, the files, the
# temporal index, the hash tables of descriptors, of instance domains, of
# help text and of label sets, walked bucket by bucket); pmdumplog with
# __pmLogFetch, __pmGetArchiveEnd, __pmLogLoadInDom, __pmLogUndeltaInDom
# and __pmFreeLogInDom, pmlogcheck with __pmLogRead_ctx, which reads the
# data volumes record by record whatever the mode's time, from where
# pmSetMode left Debian's file (-S: an index entry near the start, maybe
# before it, then pmlogcheck's complaint that time went backwards).
# pmdumplog -e also over archives with label records added
# (PMKIT_GEN_LABELS, the gen_labels program), and the label sets' table
# walked by a probe built against Debian's libpcp.h (PMKIT_PROBE_LABELS,
# probe_loglabels.c).  stdout, stderr and the exit status must be
# identical.  Left out (docs/compat.md): two damaged archives pmkit's own
# reading of records treats otherwise than Debian's library.
#
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
if [ $# != 4 ]; then
    echo "Usage: debian_archive_readers.sh pmdumplog|pmlogcheck LIBDIR ORACLE_DIR TESTSUITE_DIR" >&2
    exit 2
fi
name=$1 lib=$2 oracle=$3 suite=$4
case $name in
pmdumplog | pmlogcheck) ;;
*)
    echo "debian_archive_readers.sh: no cases for $name" >&2
    exit 2
    ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
. "$here/labels_crafted.sh"
prog=$oracle/usr/bin/$name
need_oracle "$prog" "Debian's $name"
need_testsuite "$suite"
need_ours "$lib/libpcp.so.3" libpcp
debian_setup
suite=$(abspath "$suite")
prog=$(abspath "$prog")

make_tmp "debian_$name"
mkdir "$tmp/a"
debian_on_ours "$prog" "$name"

# the archives, copied so that nothing here writes into the testsuite
copy="ok-foo ok-mv-foo ok-mv-bigbin omnibus_v3 omnibus-nomark_v3 540117-short rattle eventrec 20180102"
[ "$name" = pmdumplog ] && copy="$copy omnibus_v2 sample-labels pcp-zeroconf 20180415.09.16"
cp "$suite"/badarchives/* "$tmp/a/" 2>/dev/null
for b in $copy; do
    cp "$suite/archives/$b".* "$tmp/a/"
done
cd "$tmp/a" || exit 1
for f in ok-foo.0 ok-foo.meta ok-foo.index; do
    gzip -c "$f" >"gz-${f}.gz"
done
for f in omnibus_v3.0 omnibus_v3.meta omnibus_v3.index; do
    xz -c "$f" >"xz-${f}.xz"
done

nruns=0 ndiff=0
run() { # ARGS...: in the current directory, both libraries
    run_prog "$prog" "$name" "$@"
}
run_prog() { # PROG NAME ARGS...: PROG (Debian's build) on both libraries
    rp_prog=$1 rp_name=$2
    shift 2
    nruns=$((nruns + 1))
    "$rp_prog" "$@" >"$tmp/theirs.out" 2>"$tmp/theirs.err"
    echo $? >"$tmp/theirs.rc"
    # shellcheck disable=SC2086
    env $san LD_LIBRARY_PATH="$tmp/lib" "$rp_prog" "$@" >"$tmp/ours.out" 2>"$tmp/ours.err"
    echo $? >"$tmp/ours.rc"
    bad=
    cmp -s "$tmp/ours.rc" "$tmp/theirs.rc" || bad="$bad exit($(cat "$tmp/ours.rc") vs $(cat "$tmp/theirs.rc"))"
    cmp -s "$tmp/ours.out" "$tmp/theirs.out" || bad="$bad stdout"
    cmp -s "$tmp/ours.err" "$tmp/theirs.err" || bad="$bad stderr"
    [ -z "$bad" ] || report_diff "$bad" "$rp_name $*"
}
# labels ARCHIVE: pmdumplog -e, and the table itself where the probe is
labels() {
    run -e "$1"
    [ -z "${PMKIT_PROBE_LABELS:-}" ] || run_prog "$PMKIT_PROBE_LABELS" probe_loglabels "$1"
}

# good archives, each with each option set
case $name in
pmdumplog)
    good="ok-foo ok-mv-foo omnibus_v3 omnibus-nomark_v3 540117-short rattle eventrec gz-ok-foo"
    good="$good xz-omnibus_v3"
    opt_sets='-a|-d|-e|-el -z|-i|-I|-h|-L|-l|-t|-s|-x|-m|-z|-r|-S+1 -T+5|-r -T+3|-mdi -Z EST-10'
    ;;
pmlogcheck)
    good="ok-foo ok-mv-foo ok-mv-bigbin omnibus_v3 omnibus-nomark_v3 540117-short rattle eventrec"
    good="$good 20180102 gz-ok-foo"
    # -S: starts half way between index entries and either side of it,
    # on a record, past the end; with -T, -v, -z
    opt_sets='|-v|-l|-m|-w|-z|-T+3|-v -T+5|-v -Z EST-10|-S+0.5|-S+1|-v -S+2.5|-S+4.6 -T+6'
    opt_sets="$opt_sets|-z -S+3 -T+4|-w -S+0.04|-S+100"
    # -n: a namespace loaded with Debian's pmcpp (a good one, a bad one)
    PCP_BINADM_DIR="$(abspath "$oracle")/usr/lib/pcp/bin"
    export PCP_BINADM_DIR
    printf 'root {\n  sample\n}\nsample {\n  long 29:0:1\n}\n' >"$tmp/ok.pmns"
    printf 'root {\n  sample 29:*:*\n  bad\n}\n' >"$tmp/bad.pmns"
    opt_sets="$opt_sets|-n $tmp/ok.pmns -S+1|-n $tmp/bad.pmns"
    ;;
esac
for a in $good; do
    old_ifs=$IFS
    IFS='|'
    for opts in $opt_sets; do
        IFS=$old_ifs
        # shellcheck disable=SC2086 # the options are words
        run $opts "$a"
        IFS='|'
    done
    IFS=$old_ifs
    [ "$name" = pmdumplog ] && run "$a" hinv.ncpu sample.bin
done

# every damaged archive: pmdumplog everything and the on-disk instance
# domains, pmlogcheck plainly and verbosely
archives=$(ls | sed -n 's/\.\(meta\|index\|[0-9][0-9]*\)\(\.xz\|\.gz\|\.bz2\)\{0,1\}$//p' | sort -u)
for a in $archives; do
    [ -f "$suite/badarchives/$a.meta" ] || [ -f "$suite/badarchives/$a.0" ] ||
        [ -f "$suite/badarchives/$a.index" ] || continue
    case $name in
    pmdumplog)
        case $a in
        # pmkit's reading of these damaged data volumes differs from
        # Debian's whatever the program (docs/compat.md, Archives):
        # pmSetMode already reads badlen-1's bad record, where Debian's
        # fails at the first fetch; badti-4's damaged index does not stop
        # pmkit's fetches
        badlen-1 | badti-4) continue ;;
        esac
        run -a "$a"
        run -I "$a"
        run -e "$a"
        ;;
    pmlogcheck)
        run "$a"
        run -v "$a"
        # damaged indexes: pmlogcheck empties the index table it checks,
        # which Debian's pmSetMode then reads
        run -S+1 "$a"
        ;;
    esac
done
case $name in
pmdumplog)
    # label sets of both versions, of every class, many of them
    for a in omnibus_v2 omnibus_v3 sample-labels pcp-zeroconf 20180415.09.16 badmeta-6 badmeta-7; do
        labels "$a"
    done
    [ -n "${PMKIT_GEN_LABELS:-}" ] && labels_crafted labels
    run -a nonesuch
    run -i ok-foo.meta
    run -d ./ok-mv-foo.1
    ;;
pmlogcheck)
    run nonesuch
    run ./ok-mv-foo.1
    ;;
esac
# several archives as one context (a comma list, a directory, even of one
# archive): both programs refuse them whatever the library
mkdir one
cp ok-foo.* one/
for a in ok-foo,omnibus_v3 "omnibus_v3," one .; do
    case $name in
    pmdumplog)
        run -a "$a"
        run -e "$a"
        ;;
    pmlogcheck) run -v "$a" ;;
    esac
done

echo "$nruns runs of Debian's $name, $ndiff differences"
[ "$ndiff" -eq 0 ]
