#!/bin/sh
# archive_diff.sh OURS THEIRS TESTSUITE KNOWN SHARD/SHARDS [PMLOGEXTRACT LIBDIR [GEN]]
#
# Every archive of Debian's pcp-testsuite (TESTSUITE is its unpacked
# var/lib/pcp/testsuite: archives/ and badarchives/, versions 2 and 3,
# compressed, multi-volume, damaged) read by probe_archive.c built against
# pmkit (OURS) and against Debian's libpcp (THEIRS): labels, ends, names,
# descriptors, instance domains, help text, labels, every record forward
# and backward, seeks, copies of contexts.  Also archives named by one of
# their files, comma separated lists and directories (multi-archive
# contexts), and, with PMLOGEXTRACT (Debian's, run with the libraries of
# LIBDIR: libpcp_archive), a version 3 copy of each good archive it copies,
# and with GEN (gen_archive.c) archives it writes: both versions, help
# text, labels of every class, instance domains that change (v3 deltas),
# event records, hundreds of volumes.  And copies of two archives whose
# files are compressed in each of the other ways PCP reads (.Z with
# compress(1) of Debian's ncompress, unpacked beside pcp-testsuite by
# deps.sh; .gz, .z, .bz, .lzma; gzip's format named .Z and compress's
# named .gz, both of which gzip -dc, and so PCP, reads).
# The outputs must be identical, but for the cases of KNOWN, each a line
# "CASE SECTIONS WHY" (WHY names the docs/compat.md entry): there the
# SECTIONS must differ and the others must still match.
#
# The cases are split into SHARDS; this run does number SHARD (from 1), in
# $ARCHIVE_DIFF_JOBS (default 2) parallel jobs.  ARCHIVE_DIFF_KEEP=DIR
# keeps the outputs.
# Exit 0 identical, 1 any difference, 2 usage, 77 skip (no testsuite or no
# Debian build of the probe).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
[ $# -ge 5 ] || {
    echo "usage: archive_diff.sh OURS THEIRS TESTSUITE KNOWN SHARD/SHARDS [PMLOGEXTRACT LIBDIR [GEN]]" >&2
    exit 2
}
ours=$(abspath "$1")
theirs=$(abspath "$2")
suite=$3
known=$(abspath "$4")
shard=${5%/*}
shards=${5#*/}
extract=${6:-}
libdir=${7:-}
gen=${8:-}
need_ours "$ours" "probe_archive (pmkit)"
need_built "$theirs"
need_testsuite "$suite"
suite=$(cd "$suite" && pwd)
make_tmp archive_diff
if [ -n "${ARCHIVE_DIFF_KEEP:-}" ]; then
    mkdir -p "$ARCHIVE_DIFF_KEEP" || exit 1
    out=$(cd "$ARCHIVE_DIFF_KEEP" && pwd)
else
    out=$tmp/out
    mkdir "$out"
fi
# Debian's libpcp would add the derived metrics of the machine's
# $PCP_VAR_DIR/config/derived; pmkit has no derived metrics
export PCP_DERIVED_CONFIG=
sections=lnditLfbsp
compress=$(cd "$suite/../../../../.." && pwd)/ncompress/usr/bin/compress
[ -x "$compress" ] || echo "note: no compress(1) in $compress: the .Z cases are not run"

# Damaged copies of ok-foo, NAME then OFFSET:WORD (big-endian) pairs
# written over its volume 0: the value blocks PCP's rule refuses (a block
# length a word short, a value count zeroed or made an error code, a value
# format made INSITU, a block over the next one's header, a <mark>'s count
# with the record's value sets left after it), and the ones it takes (a
# length rounded to the same words, blocks named in the other order).  v3-
# names patch Debian's pmlogextract -V 3 copy of ok-foo.
cat >"$tmp/damaged" <<'EOF'
count-error-1100 1100:ffff0010
count-error-1700 1700:ffff0010
count-zero-464 464:00000000
vlen-short-236 236:00000008
vlen-short-692 692:00000008
vlen-short-1116 1116:00000008
vlen-over-208 208:0600001d
valfmt-insitu-308 308:00000000
mark-count-144 144:00000000
vlen-rounded-692 692:06000009
blocks-swapped 164:0000001c 204:00000015
v3-count-error-872 872:ffff0010
v3-vlen-short-888 888:00000008
EOF

# The cases, one per line: "NAME SOURCE [SECTIONS]" where SOURCE is what
# the probe opens (relative to $suite, or absolute for v3 copies; EMPTY
# for the empty name); archive
# sets also fetch with a label asked for after each record (m).
cases=$tmp/cases
{
    cd "$suite" || exit 1
    for m in archives/*.meta archives/*.meta.xz archives/*.meta.bz2 badarchives/*.meta \
        archives/multi*/*.meta archives/multi*/*.meta.xz; do
        [ -f "$m" ] || continue
        b=${m%.xz}
        b=${b%.bz2}
        b=${b%.meta}
        echo "$b $b"
    done
    for d in archives/multi archives/multi-xz archives/multi-xz-1k archives/multi-corrupted; do
        echo "$d $d ${sections}m"
    done
    # named by one of their files, and as lists
    echo "byfile-0 archives/ok-mv-foo.1"
    echo "byfile-meta archives/ok-foo.meta"
    echo "byfile-index archives/ok-foo.index"
    echo "byfile-xz archives/20180606.0.xz"
    echo "byfile-metaxz archives/20180606.meta.xz"
    echo "list-two archives/ok-foo,archives/ok-mv-foo ${sections}m"
    echo "list-reversed archives/ok-mv-foo,archives/ok-foo ${sections}m"
    echo "list-trailing archives/ok-foo,"
    echo "list-leading ,archives/ok-foo"
    echo "list-same archives/ok-foo,archives/ok-foo ${sections}m"
    echo "list-hosts archives/ok-foo,archives/multi"
    echo "list-mixed archives/multi/20150508.11.57,archives/multi-xz/20150508.11.44 ${sections}m"
    echo "seek-end-wrap archives/wrap e"
    echo "seek-end-markmerge archives/markmerge e"
    echo "seek-end-ok-foo archives/ok-foo e"
    if [ -n "$gen" ]; then
        echo "gen-v2 $tmp/gen/v2"
        echo "gen-v3 $tmp/gen/v3"
        echo "gen-volumes-v2 $tmp/gen/mv2"
        echo "gen-volumes-v3 $tmp/gen/mv3"
        echo "gen-xz-v3 $tmp/gen/xz3"
        echo "gen-names-v3 $tmp/gen/names3"
    fi
    if [ -x "$compress" ]; then
        for k in Z Z-big gz z bz lzma gz-as-Z Z-as-gz; do
            echo "compressed-$k $tmp/z/$k/a"
        done
    fi
    # copies of ok-foo with words of its volume overwritten (damaged)
    while read -r name words; do
        echo "damaged-$name $tmp/dmg/$name/ok-foo"
    done <"$tmp/damaged"
    echo "missing archives/no-such-archive"
    echo "empty-name EMPTY"
} | sort >"$cases.all" || exit 1
awk -v s="$shard" -v n="$shards" '(NR - 1) % n == s - 1' "$cases.all" >"$cases"

# Archives gen_archive writes, for the shards that have them.
if grep -q '^gen-' "$cases"; then
    mkdir "$tmp/gen" &&
        "$gen" -m 50 -i 4 -n 60 -e "$tmp/gen/v2" &&
        "$gen" -V 3 -m 50 -i 4 -n 60 -e "$tmp/gen/v3" &&
        "$gen" -m 30 -i 3 -n 120 -v 0 -x 7 -e "$tmp/gen/mv2" &&
        "$gen" -V 3 -m 30 -i 3 -n 120 -v 0 -x 3 -e "$tmp/gen/mv3" &&
        "$gen" -V 3 -m 40 -i 5 -n 80 -v 0 -e "$tmp/gen/xz3" &&
        "$gen" -V 3 -m 20 -i 3 -n 20 -e -w "$tmp/gen/names3" &&
        xz "$tmp"/gen/xz3.* || {
        echo "FAIL: $gen could not write its archives"
        exit 1
    }
fi

# The damaged copies, for the shards that have them (v3- ones need
# pmlogextract; without it they are not made and their cases fail).
# put_word FILE OFFSET WORD: WORD's 4 bytes over FILE's at OFFSET
put_word() {
    printf "$(echo "$3" | sed 's/../& /g' | while read -r a b c d; do
        printf '\\%03o\\%03o\\%03o\\%03o' $((0x$a)) $((0x$b)) $((0x$c)) $((0x$d))
    done)" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
if grep -q '^damaged-' "$cases"; then
    while read -r name words; do
        grep -q "^damaged-$name " "$cases" || continue
        mkdir -p "$tmp/dmg/$name"
        case $name in
        v3-*)
            [ -n "$extract" ] && [ -x "$extract" ] &&
                LD_LIBRARY_PATH=$libdir "$extract" -V 3 "$suite/archives/ok-foo" \
                    "$tmp/dmg/$name/ok-foo" >/dev/null 2>&1
            ;;
        *) cp "$suite"/archives/ok-foo.* "$tmp/dmg/$name/" ;;
        esac
        for w in $words; do
            put_word "$tmp/dmg/$name/ok-foo.0" "${w%%:*}" "${w#*:}" || exit 1
        done
    done <"$tmp/damaged"
fi

# The compressed copies, for the shards that have them: ok-mv-foo with all
# its files .Z, or its second volume compressed each other way; naslog
# (850 kB, so that compress's codes reach 16 bits and it clears its table)
# with its volume and metadata .Z.
# zcopy KIND ARCHIVE: $tmp/z/KIND/a.*, a copy of ARCHIVE
zcopy() {
    mkdir -p "$tmp/z/$1" &&
        for f in "$suite/archives/$2".*; do cp "$f" "$tmp/z/$1/a.${f##*.}" || return 1; done
}
# zfile KIND FILE SUFFIX COMMAND...: FILE of $tmp/z/KIND/a through COMMAND
# into FILE.SUFFIX
zfile() {
    z=$tmp/z/$1/a.$2
    sfx=$3
    shift 3
    "$@" <"$z" >"$z.$sfx" && rm "$z"
}
if grep -q '^compressed-' "$cases"; then
    {
        zcopy Z ok-mv-foo && for f in 0 1 2 meta; do zfile Z $f Z "$compress" -c || exit 1; done &&
            zcopy Z-big naslog && zfile Z-big 0 Z "$compress" -c &&
            zfile Z-big meta Z "$compress" -c &&
            zcopy gz ok-mv-foo && zfile gz 1 gz gzip -c &&
            zcopy z ok-mv-foo && zfile z 1 z gzip -c &&
            zcopy bz ok-mv-foo && zfile bz 1 bz bzip2 -c &&
            zcopy lzma ok-mv-foo && zfile lzma 1 lzma xz --format=lzma -c &&
            zcopy gz-as-Z ok-mv-foo && zfile gz-as-Z 1 Z gzip -c &&
            zcopy Z-as-gz ok-mv-foo && zfile Z-as-gz 1 gz "$compress" -c
    } || {
        echo "FAIL: could not make the compressed copies"
        exit 1
    }
fi

# Version 3 copies, made by Debian's pmlogextract, of this shard's good
# archives (those it can copy) of 4 MB or less on disk: the two larger,
# of 5 and 8 MB compressed, would double the test's time.
if [ -n "$extract" ] && [ -x "$extract" ]; then
    mkdir "$tmp/v3"
    grep '^archives/' "$cases" | grep -v ' archives/multi[^/]*$' | while read -r name src rest; do
        [ "$(cat "$suite/$src".* | wc -c)" -le 4194304 ] || continue
        copy=v3/$(echo "$name" | tr / _)
        if LD_LIBRARY_PATH=$libdir "$extract" -V 3 "$suite/$src" "$tmp/$copy" >/dev/null 2>&1; then
            echo "v3:$name $tmp/$copy"
        fi
    done >>"$cases"
fi

# known NAME: the sections of NAME that differ on purpose, or nothing
known_sections() {
    awk -v c="$1" '$1 == c { print $2 }' "$known"
}

# run PROBE FILE SOURCE SECTIONS SUFFIX: the probe's output (and exit
# status) into $out/FILE.SUFFIX
run() {
    src=$3
    [ "$src" = EMPTY ] && src=
    (cd "$suite" && timeout 300 "$1" -s "$4" "$src") >"$out/$2.$5" 2>&1
    echo "exit $?" >>"$out/$2.$5"
}

# crashed FILE: Debian's probe crashed where PCP 6.0.3 has bugs on version
# 3 archives with deltas that remove instances (docs/compat.md), and
# pmkit's output matches as far as Debian's goes: 0 then.  Two kinds, maybe
# both: pmGetInDomArchive crashing in the probe's child process ("indomarch
# X: crashed"; pmkit's answer for X is set aside), and the probe itself
# dying of a signal with a corrupted heap (pmkit's must have run to the end
# and start with every whole line Debian's got out, glibc's messages and
# the last, maybe partial, line left out).
crashed() {
    t=$out/$1.theirs
    o=$out/$1.ours
    if grep -q '^indomarch .*: crashed$' "$t"; then
        awk 'NR == FNR { if ($0 ~ /^indomarch .*: crashed$/) { d = $2; sub(/:$/, "", d); bad[d] = 1 }; next }
             /^indomarch / { d = $2; sub(/:$/, "", d); skip = (d in bad); if (skip) print "indomarch " d ": crashed" }
             /^indom / { skip = 0 }
             !skip' "$t" "$o" >"$o.crashes"
        o=$o.crashes
        echo "note: $1: Debian's pmGetInDomArchive crashed for $(grep -c ': crashed$' "$t") domains" >>"$out/crashes"
    fi
    cmp -s "$o" "$t" && return 0
    tail -1 "$t" | grep -q '^exit 1[2-9][0-9]$' || return 1
    tail -1 "$o" | grep -q '^exit 0$' || return 1
    sed '$d' "$t" | sed -e '/^\(free\|malloc\|realloc\|double free\|corrupted\|munmap\|Fatal glibc\)/,$d' |
        sed '$d' >"$t.before"
    lines=$(wc -l <"$t.before")
    head -n "$lines" "$o" | cmp -s - "$t.before" || return 1
    echo "note: $1: Debian crashed after $lines lines, identical up to there" >>"$out/crashes"
    return 0
}

one() {
    name=$1 src=$2 all=${3:-$sections}
    file=$(echo "$name" | tr '/:' '__')
    skip=$(known_sections "$name")
    same=$(echo "$all" | tr -d "${skip:-@}")
    run "$ours" "$file" "$src" "$same" ours
    run "$theirs" "$file" "$src" "$same" theirs
    if ! cmp -s "$out/$file.ours" "$out/$file.theirs" && crashed "$file"; then
        return 0
    fi
    if ! cmp -s "$out/$file.ours" "$out/$file.theirs"; then
        echo "DIFF $name ($same): < Debian, > pmkit"
        diff "$out/$file.theirs" "$out/$file.ours" | shorten | sed 's/^/  /'
        return 1
    fi
    if [ -n "$skip" ]; then
        run "$ours" "$file" "$src" "$skip" ours_known
        run "$theirs" "$file" "$src" "$skip" theirs_known
        if cmp -s "$out/$file.ours_known" "$out/$file.theirs_known"; then
            echo "STALE $name ($skip): listed in $(basename "$known") but identical"
            return 1
        fi
    fi
    return 0
}

# The cases run in parallel; each failure leaves its report in $tmp/fail.N.
n=0
ndiff=0
while read -r name src sec; do
    n=$((n + 1))
    (one "$name" "$src" "$sec" >"$tmp/fail.$n" 2>&1 && rm -f "$tmp/fail.$n") &
    if [ $((n % ${ARCHIVE_DIFF_JOBS:-2})) -eq 0 ]; then
        wait
    fi
done <"$cases"
wait
for f in "$tmp"/fail.*; do
    [ -f "$f" ] || continue
    ndiff=$((ndiff + 1))
    cat "$f"
done
if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $n archive cases differ (shard $shard of $shards)"
    exit 1
fi
[ -f "$out/crashes" ] && cat "$out/crashes"
echo "oracle.archive: $n archive cases identical (shard $shard of $shards)"
exit 0
