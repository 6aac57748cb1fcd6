#!/bin/sh
# pmns_image_diff.sh PROBE PMNSCOMP GEN|DIR [SEED] [COUNT]
#
# Property test of the binary namespace image: every names-API answer from
# an image compiled by pmnscomp must equal the answer from the ASCII file it
# came from.  PROBE is tests/oracle/probe_pmns.c built against pmkit (it
# prints every answer: pmLookupName, pmNameID, pmNameAll,
# pmGetChildren(Status), pmTraversePMNS(_r), loads and unloads); GEN is the
# gen_pmns executable, run as `GEN SEED COUNT DIR` (default seed 1, count
# 150), or a directory of namespaces (tests/oracle/pmns_good).  An optional
# FILE.names lists extra names for the probe, as in pmns_diff.sh.
#
# For every namespace FILE that pmkit loads (probe ascii FILE exits 0):
#  - pmnscomp -d -n FILE IMG succeeds, and pmnscomp --check IMG says sound;
#  - probe MODE IMG prints exactly what probe MODE FILE prints, for MODE
#    ascii (pmLoadASCIINameSpace(f, 1)), ascii-nodup (dupok 0: an image
#    with duplicate PMIDs must be refused as its text is) and, when FILE
#    needs no preprocessor, raw (pmLoadNameSpace, and $PMNS_DEFAULT=IMG);
#  - pmnscomp without -d succeeds exactly when ascii-nodup loads FILE,
#    and then writes the same bytes as with -d;
#  - pmnscomp --dump IMG, compiled again, gives IMG byte for byte.
# A namespace pmkit does not load must make pmnscomp fail too.
#
# PCP_DERIVED_CONFIG is set empty and PMNS_DEFAULT removed, as for the
# oracle.  PMNS_IMAGE_DIFF_KEEP=DIR writes the generated namespaces to DIR
# (which must not exist yet) and keeps them.
# Exit 0 all equal, 1 any difference, 2 usage.
set -u
if [ $# -lt 3 ] || [ $# -gt 5 ]; then
    echo "Usage: pmns_image_diff.sh PROBE PMNSCOMP GEN|DIR [SEED] [COUNT]" >&2
    exit 2
fi
probe=$1 comp=$2 gen=$3 seed=${4:-1} count=${5:-150}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
PCP_DERIVED_CONFIG=
export PCP_DERIVED_CONFIG
unset PMNS_DEFAULT
make_tmp pmns_image_diff

if [ -d "$gen" ]; then
    cases=$gen
elif [ -x "$gen" ]; then
    generate PMNS_IMAGE_DIFF_KEEP
else
    echo "FAIL: GEN is neither an executable nor a directory: $gen"
    exit 1
fi

# probe_run MODE FILE TAG: stdout in $tmp/TAG.out, exit status in $rc
probe_run() {
    set -f
    # shellcheck disable=SC2086
    "$probe" "$1" "$2" $names </dev/null >"$tmp/$3.out" 2>/dev/null
    rc=$?
    set +f
}

n=0 ndiff=0 runs=0
img=$tmp/img
for f in "$cases"/*; do
    [ -f "$f" ] || continue
    case ${f##*/} in
    *.names | README*) continue ;;
    esac
    name=${f##*/}
    names=
    [ -f "$f.names" ] && names=$(cat "$f.names")
    n=$((n + 1))
    rm -f "$img" "$img.nodup" "$img.again"
    probe_run ascii "$f" text
    loads=$rc
    "$comp" -d -n "$f" "$img" >/dev/null 2>"$tmp/comp.err"
    crc=$?
    if [ "$loads" != 0 ]; then
        [ "$crc" != 0 ] || differ "pmnscomp compiles a namespace libpcp does not load"
        continue
    fi
    if [ "$crc" != 0 ]; then
        differ "pmnscomp -d fails:"
        head -5 "$tmp/comp.err"
        continue
    fi
    "$comp" --check "$img" 2>"$tmp/check.err" || { differ "--check:"; head -5 "$tmp/check.err"; }
    modes="ascii ascii-nodup"
    grep -q -e '/\*' -e '^[[:space:]]*#' "$f" || modes="$modes raw"
    for mode in $modes; do
        runs=$((runs + 1))
        probe_run "$mode" "$f" text
        rtext=$rc
        probe_run "$mode" "$img" image
        if [ "$rtext" != "$rc" ] || ! cmp -s "$tmp/text.out" "$tmp/image.out"; then
            differ "[$mode] exit $rtext (text) vs $rc (image)"
            diff "$tmp/text.out" "$tmp/image.out" | head -10 | sed 's/^/  /'
        fi
        [ "$mode" = ascii-nodup ] && nodup=$rtext
    done
    "$comp" -n "$f" "$img.nodup" >/dev/null 2>&1
    crc=$?
    if [ "$nodup" = 0 ] && [ "$crc" = 0 ]; then
        cmp -s "$img" "$img.nodup" || differ "-d changes the image of a namespace without duplicates"
    elif [ "$nodup" = 0 ] || [ "$crc" = 0 ]; then
        differ "pmnscomp without -d exits $crc, pmLoadASCIINameSpace(f, 0) loads: $nodup"
    fi
    if ! "$comp" --dump "$img" >"$tmp/dump" ||
        ! "$comp" -d -n "$tmp/dump" "$img.again" >/dev/null 2>&1 ||
        ! cmp -s "$img" "$img.again"; then
        differ "--dump does not compile back to the same image"
    fi
done

if [ $n = 0 ]; then
    echo "FAIL: no namespaces found in $cases"
    exit 1
fi
if [ $ndiff != 0 ]; then
    echo "pmns image property: FAILED, $ndiff differences ($n namespaces, $runs probe pairs)"
    keep_hint PMNS_IMAGE_DIFF_KEEP
    exit 1
fi
echo "pmns image property: $n namespaces, $runs probe pairs, images answer as their text"
exit 0
