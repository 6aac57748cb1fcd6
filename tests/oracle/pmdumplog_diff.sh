#!/bin/sh
# pmdumplog_diff.sh OURS THEIRS TESTSUITE KNOWN [PMLOGEXTRACT LIBDIR]
#
# pmkit's pmdumplog (OURS) and Debian's (THEIRS, run with Debian's libpcp)
# over a sample of the archives of Debian's pcp-testsuite (TESTSUITE is
# its unpacked var/lib/pcp/testsuite): versions 2 and 3, compressed,
# multi-volume, damaged, and with PMLOGEXTRACT (Debian's, run with the
# libraries of LIBDIR) version 3 copies of version 2 ones; each archive
# with each option.  Then the usage errors: bad options, no archive, a
# missing archive, bad -S/-T/-Z values, unknown metric names.  And the
# options over other inputs: -v over files of each kind and over records
# cut short made here, -n with the testsuite's namespace files and one
# naming metrics twice, -M with metrics named, lists and directories
# (which PCP's pmdumplog refuses), and an archive whose files are all .Z
# (compress(1) of Debian's ncompress, unpacked by deps.sh).  Standard
# output, standard error and the exit status must be identical, but for
# the cases of KNOWN, each a line "CASE WHY" (WHY names the docs/compat.md
# entry), which must differ.
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
. "$here/labels_crafted.sh"
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
# Debian's libpcp runs its pmcpp for -n (pmkit's preprocesses in-process)
PCP_BINADM_DIR=$(cd "$(dirname "$theirs")/../lib/pcp/bin" 2>/dev/null && pwd) || PCP_BINADM_DIR=
export PCP_BINADM_DIR

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
options="- -a -l -L -d -e -h -i -I -t -ldehIit -s -ls -ts -r -x -xx -xxx -lz -ZAEST-10 -S+2 -T-2 -r-T+3"
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
check usage-version-long --version
check usage-version-bad --version -b
check usage-version-help -? --version
check usage-version-archive -l --version archives/ok-foo

# -v: each kind of file, raw (a compressed one as its bytes); records
# whose length, payload or trailer is wrong or cut short, made here.
check raw-meta -v archives/ok-foo.meta
check raw-index -v archives/ok-foo.index
check raw-vol -v archives/ok-mv-foo.1
check raw-botch -v badarchives/badlen-1.0
check raw-cut -v badarchives/badti-1.index
check raw-xz -v archives/20180606.meta.xz
check raw-dir -v archives
check raw-null -v /dev/null
check raw-missing -v archives/ok-foo
check raw-others -l -v archives/ok-foo.meta -S yesterday -z
check raw-last -v archives/ok-foo.meta -v archives/ok-foo.index
check raw-archive -v archives/ok-foo.meta archives/ok-foo
check raw-noarg -v
mkdir "$tmp/raw"
# raw NAME BYTES: a file of BYTES (printf's escapes), dumped
raw() {
    printf "$2" >"$tmp/raw/$1"
    check "raw-$1" -v "$tmp/raw/$1"
}
raw empty ''
raw partlen '\0\0'
raw zero '\0\0\0\10\0\0\0\10'
raw short '\0\0\0\4\0\0\0\4'
raw short-eof '\0\0\0\4'
raw negative '\377\377\377\354\0\0\0\5'
raw botch '\0\0\0\14abcd\0\0\0\15'
raw cut-trailer '\0\0\0\14abcd\0\0'
raw no-trailer '\0\0\0\14abcd'
raw cut-payload '\0\0\0\14ab'
raw lines '\0\0\0\51abcdefghijklmnopqrstuvwxyz0123456\0\0\0\51\0\0\0\11z\0\0\0\11\1'

# -n: names from a namespace file (those it lacks shown as <noname> or
# <nonames>), a metric named twice, a missing file.
cat >"$tmp/dup.pmns" <<'PMNS'
root {
    sample
    alias
}
sample {
    colour 29:0:5
    bin 29:0:6
    drift 29:0:7
}
alias {
    hue 29:0:5
    z 29:0:7
    a 29:0:7
}
PMNS
check ns-tiny-d -n src/tiny.pmns -d archives/ok-foo
check ns-tiny -n src/tiny.pmns archives/ok-foo
check ns-tiny-leaf -n src/tiny.pmns archives/ok-foo one
check ns-tiny-unknown -n src/tiny.pmns archives/ok-foo sample
check ns-tiny-events -n src/tiny.pmns archives/eventrec
check ns-bigace -n archives/bigace.pmns -z archives/bigace_v2
check ns-bigace-d -n archives/bigace.pmns -dz archives/bigace_v2
check ns-bigace-subtree -n archives/bigace.pmns -z archives/bigace_v2 irix.kernel
check ns-dup-d -n "$tmp/dup.pmns" -d archives/ok-foo
check ns-dup -n "$tmp/dup.pmns" archives/ok-foo
check ns-dup-names -n "$tmp/dup.pmns" archives/ok-foo alias sample.bin
check ns-dup-twice -n "$tmp/dup.pmns" archives/ok-foo alias.hue sample.colour
check ns-missing -n "$tmp/no-such.pmns" archives/ok-foo
check ns-missing-version --version -n "$tmp/no-such.pmns"
check ns-missing-zflags -z -Z UTC -n "$tmp/no-such.pmns" archives/ok-foo
check names-twice archives/ok-foo sample.colour sample sample.colour

# -M: <mark> records with metrics named.
check marks-named archives/count-mark kernel.all.pswitch
check marks-M -M archives/count-mark kernel.all.pswitch
check marks-M-rs -M -r -s archives/count-mark kernel.all.pswitch
check marks-M-all -M -x archives/count-mark

# Lists and directories: refused, before the archive is opened.
mkdir "$tmp/dir" "$tmp/a,b"
cp "$suite"/archives/ok-foo.* "$tmp/dir/"
cp "$suite"/archives/ok-foo.* "$tmp/a,b/"
ln -s "$tmp/dir" "$tmp/link"
check multi-list -l archives/ok-foo,archives/ok-mv-foo
check multi-trailing archives/ok-foo,
check multi-missing -l no-such,other
check multi-dir -l "$tmp/dir"
check multi-dir-z -z "$tmp/dir" sample.nosuch
check multi-cwd -S yesterday .
check multi-link -l "$tmp/link"
check multi-comma-dir -l "$tmp/a,b/ok-foo"

# .Z files (as PCP reads them, through gzip -dc).
compress=$(cd "$suite/../../../../.." && pwd)/ncompress/usr/bin/compress
if [ -x "$compress" ]; then
    mkdir "$tmp/z"
    for f in "$suite"/archives/ok-mv-foo.*; do
        cp "$f" "$tmp/z/a.${f##*.}"
    done
    for f in 0 1 2 meta; do
        "$compress" "$tmp/z/a.$f" || echo "FAIL: $compress $tmp/z/a.$f"
    done
    check Z-all -a "$tmp/z/a"
    check Z-byfile -t "$tmp/z/a.meta.Z"
    check Z-raw -v "$tmp/z/a.0.Z"
else
    echo "note: no compress(1) in $compress: the .Z cases are not run"
fi

# An archive whose end cannot be found (its data volume ends in zeros, its
# index's last entry is zeros): PCP warns, labels the end UNKNOWN, dumps
# to the end of time (to the read error) and checks the index's order.
bad=badarchives/archive-20150417.131733
check noend "$bad"
check noend-l -l "$bad"
check noend-L -Lxx "$bad"
check noend-t -t "$bad"
check noend-tz -tz "$bad"
check noend-a -a "$bad"
check noend-names "$bad" pmcd hinv.ncpu
check noend-nosuch "$bad" sample.nosuch
check noend-byfile -l "$bad.meta"
check noend-r -r "$bad"
check noend-rm -r -m "$bad"
check noend-S -S+2 "$bad"
check noend-S-names -S+2 "$bad" pmcd
check noend-S-T -S+2 -T+100 "$bad"
check noend-T -T-2 "$bad"
check noend-r-T -r -T+100 "$bad" pmcd
check noend-r-T-past -r -T+3000 "$bad"
check noend-r-T-last -r -T+2220.005044 "$bad"
check noend-r-T-after -r -T+2220.005045 "$bad"
check noend-l-T -l -T+3 "$bad"

# -t's checks of the index's order, over copies whose .index is patched
# here: a zero entry added to ok-foo's; in ok-mv-foo's, a meta offset
# lower across volumes (no error), a volume going back, a log offset
# lower, time going back with offsets past the files' ends.
mkdir "$tmp/ti"
for a in ok-foo ok-mv-foo; do
    for f in "$suite/archives/$a".*; do
        cp "$f" "$tmp/ti/$a.${f##*.}"
    done
done
head -c 20 /dev/zero >>"$tmp/ti/ok-foo.index"
# ti NAME OFFSET BYTES...: a copy of ok-mv-foo with its .index patched
ti() {
    name=$1
    shift
    for f in "$tmp/ti/ok-mv-foo".*; do
        cp "$f" "$tmp/ti/$name.${f##*.}"
    done
    while [ $# -ge 2 ]; do
        printf "$2" | dd of="$tmp/ti/$name.index" bs=1 seek="$1" conv=notrunc 2>/dev/null
        shift 2
    done
}
ti meta 184 '\0\0\1\54'
ti vol 200 '\0\0\0\0'
ti log 228 '\0\0\0\144'
ti time 192 '\65\311\367\101' 200 '\0\0\0\1' 204 '\0\0\43\50' 208 '\0\0\0\144'
for a in ok-foo meta vol log time; do
    check "ti-$a" -t "$tmp/ti/$a"
    check "ti-$a-x" -tx "$tmp/ti/$a"
done
check ti-ok-foo-xxx -txxx "$tmp/ti/ok-foo"
check ti-ok-foo-all -a "$tmp/ti/ok-foo"
# and on its own: a time before the Epoch, a volume with no file (then
# no log offset check), with an offset past the meta file's end
ti negsec 192 '\377\377\377\373'
ti novol 192 '\377\377\377\373' 200 '\0\0\0\7' 204 '\0\0\43\50'
check ti-negsec -t "$tmp/ti/negsec"
check ti-novol -t "$tmp/ti/novol"
# the testsuite's: a volume -1, fractions out of range; a volume missing
for a in badti-2 badti-3; do
    check "ti-$a" -t "badarchives/$a"
    check "ti-$a-xx" -txx "badarchives/$a"
done
# compressed volumes are not missing; a base name ending in digits
check ti-xz -t archives/20180416.10.00
check ti-xz-meta -t archives/20180416.10.00.meta.xz
check ti-xz-vol -t archives/20180416.10.00.1.xz
check ti-bz2 -t archives/20130706.0.bz2

# -r's heading: the time of the first record printed, even one before -S;
# none when no record is printed.
check rhead-T -r -T+5 archives/ok-foo pmcd
check rhead-S -r -S+3 archives/ok-foo pmcd
check rhead-none -r -T+0.5 archives/ok-foo sample.colour
check rhead-past -r -S+100 -T+200 archives/ok-foo

# -e over the testsuite's archives with many label sets (compound, optional,
# of every class; badmeta-6 and -7 with sets repeated)
for a in archives/sample-labels archives/pcp-zeroconf archives/20180415.09.16 \
    badarchives/badmeta-6 badarchives/badmeta-7; do
    check "$(basename "$a")-e" -e "$a"
    check "$(basename "$a")-elz" -elz "$a"
done

# -e over label records no testsuite archive holds: labels_crafted.sh's
# copies of omnibus_v3 and omnibus_v2 (PMKIT_GEN_LABELS, the gen_labels
# program), whose label sets Debian's library keeps in chains that drop
# the sets an older entry has, with every option that changes -e's output
# or comes with it (stamps, zones, the label, a window, metrics named).
# shellcheck disable=SC2317 # called by labels_crafted
crafted_e() { # ARCHIVE
    for o in -e -el -eL -ez -ex -exxx -eZ -eS -es -em; do
        case $o in
        -eZ) check "$1$o" -e -Z EST-10 "$tmp/labels/$1" ;;
        -eS) check "$1$o" -e -S+2 -T+3 "$tmp/labels/$1" ;;
        -em) check "$1$o" -e "$tmp/labels/$1" sample.double.million sample.ulong.bin_ctr ;;
        *) check "$1$o" "$o" "$tmp/labels/$1" ;;
        esac
    done
}
if [ -n "${PMKIT_GEN_LABELS:-}" ] && [ -x "$PMKIT_GEN_LABELS" ]; then
    mkdir "$tmp/labels"
    cp "$suite"/archives/omnibus_v[23].* "$tmp/labels/"
    cd "$tmp/labels" && labels_crafted crafted_e
else
    echo "note: no PMKIT_GEN_LABELS: -e over crafted label records is not run"
fi

if [ "$fails" -ne 0 ]; then
    echo "$fails of $n cases differ"
    exit 1
fi
echo "$n cases identical (or listed in $(basename "$known"))"
exit 0
