#!/bin/sh
# debian_default_pmns.sh ORACLE_DIR OUTFILE [PROBE_PMKIT PROBE_PCP]
#
# Builds Debian's default namespace -- the /var/lib/pcp/pmns/root a fresh
# install of Debian's pcp 6.0.3 gets -- from the package unpacked in
# ORACLE_DIR (scripts/deps.sh test unpacks it into .cache/oracle/pcp) and
# writes it to OUTFILE (atomically: temporary file in the same directory,
# then rename).
#
# On a fresh install /var/lib/pcp/pmns/.NeedRebuild exists and root does
# not, so the pmcd rc script runs `./Rebuild -u` in the pmns directory.
# This script does what that run does, in a private temporary directory,
# with only the extract's tools (PCP_BINADM_DIR=ORACLE_DIR/usr/lib/pcp/bin,
# its pmnsmerge uses the system's Debian libpcp and the extract's pmcpp):
#  - Rebuild creates the skeletal "root {" "}" (no root yet); the -u
#    upgrade cull of root leaves that skeleton unchanged;
#  - every root_X (in `ls` order, C locale; root_web is never merged) is
#    merged only when PMDA X has a line "X<blank>..." in pmcd.conf -- the
#    package's default etc/pcp/pmcd/pmcd.conf;
#  - `pmnsmerge root root_X... root.new` gives the namespace;
#  - Make.stdpmid regenerates stdpmid from stdpmid.* (not used by the
#    namespace: no root_* file includes it; done to follow Rebuild and to
#    catch a broken package).  Rebuild's pminfo comparison and pmcd HUP are
#    left out: with no previous root the new one is always installed.
#
# With PROBE_PMKIT and PROBE_PCP (tests/oracle/probe_pmns.c built against
# pmkit and against Debian's libpcp), pmns_diff.sh is then run on the
# directory of OUTFILE, which should hold nothing but OUTFILE (and
# optionally OUTFILE.names).
#
# Exit 0 done (and identical), 1 failure or difference, 2 usage, 77 skip
# (extract, pmnsmerge, pmcpp or pmcd.conf missing, or pmns_diff.sh skipped).
set -u
if [ $# != 2 ] && [ $# != 4 ]; then
    echo "Usage: debian_default_pmns.sh ORACLE_DIR OUTFILE [PROBE_PMKIT PROBE_PCP]" >&2
    exit 2
fi
oracle=$1 out=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(pwd)
case $out in
/*) ;;
*) out=$top/$out ;;
esac

if [ ! -d "$oracle" ]; then
    echo "SKIP: Debian's pcp extract not found at $oracle (run: sh scripts/deps.sh test)"
    exit 77
fi
oracle=$(cd "$oracle" && pwd)
pmnsdir=$oracle/usr/lib/pcp/pmns
bindir=$oracle/usr/lib/pcp/bin
pmcdconf=$oracle/etc/pcp/pmcd/pmcd.conf
if [ ! -x "$bindir/pmnsmerge" ] || [ ! -x "$bindir/pmcpp" ]; then
    echo "SKIP: pmnsmerge or pmcpp missing in $bindir (run: sh scripts/deps.sh test)"
    exit 77
fi
if [ ! -f "$pmnsdir/Make.stdpmid" ] || [ ! -f "$pmcdconf" ]; then
    echo "SKIP: $pmnsdir/Make.stdpmid or $pmcdconf missing (incomplete extract?)"
    exit 77
fi
if ! ls "$pmnsdir"/root_* >/dev/null 2>&1; then
    echo "SKIP: no root_* files in $pmnsdir (incomplete extract?)"
    exit 77
fi

PCP_BINADM_DIR=$bindir
PCP_DERIVED_CONFIG=
LC_ALL=C
export PCP_BINADM_DIR PCP_DERIVED_CONFIG LC_ALL
unset PMNS_DEFAULT PCP_ALT_CPP

outdir=$(dirname "$out")
mkdir -p "$outdir" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/debian_pmns.XXXXXX") || exit 1
part=
trap 'cd /; rm -rf "$tmp"; [ -z "$part" ] || rm -f "$part"' EXIT
trap 'exit 1' HUP INT TERM

# The pmns directory as the package installs it (the symlinks of
# var/lib/pcp/pmns point to /usr/lib/pcp/pmns, absent here: copy the files).
mkdir "$tmp/pmns" || exit 1
cp "$pmnsdir"/root_* "$pmnsdir"/stdpmid.* "$pmnsdir/Make.stdpmid" "$tmp/pmns/" || exit 1
cd "$tmp/pmns" || exit 1
printf 'root {\n}\n' >root

mergelist=
for f in root_*; do
    pmda=${f#root_}
    [ "$pmda" = web ] && continue
    if grep "^${pmda}[ 	]" "$pmcdconf" >/dev/null 2>&1; then
        mergelist="$mergelist $f"
    fi
done
if [ -z "$mergelist" ]; then
    echo "FAIL: no root_* file has its PMDA in $pmcdconf"
    exit 1
fi

# shellcheck disable=SC2086
if ! "$bindir/pmnsmerge" root $mergelist root.new >"$tmp/merge.out" 2>&1; then
    echo "FAIL: pmnsmerge root$mergelist root.new failed:"
    cat "$tmp/merge.out"
    exit 1
fi

# Make.stdpmid sources $PCP_DIR/etc/pcp.env; give it a private one.
mkdir -p "$tmp/pcpdir/etc" || exit 1
printf 'PCP_AWK_PROG=awk\nPCP_TMPFILE_DIR=%s\n' "$tmp" >"$tmp/pcpdir/etc/pcp.env"
if ! PCP_DIR=$tmp/pcpdir sh ./Make.stdpmid >"$tmp/stdpmid.out" 2>&1 ||
    [ -s "$tmp/stdpmid.out" ] || ! grep -q '^#define PMCD' stdpmid; then
    echo "FAIL: Make.stdpmid did not produce stdpmid:"
    cat "$tmp/stdpmid.out"
    exit 1
fi

part=$(mktemp "$out.XXXXXX") || exit 1
cp root.new "$part" && chmod 644 "$part" && mv -f "$part" "$out" || exit 1
part=
nmetrics=$(grep -c '[0-9]:[0-9]*:[0-9]*$' "$out")
ndynamic=$(grep -c '[0-9]:\*:\*$' "$out")
echo "debian default pmns: $out (root$mergelist: $nmetrics metrics, $ndynamic dynamic subtrees)"

[ $# = 4 ] || exit 0
probe_ours=$3 probe_theirs=$4
cd "$top" || exit 1
sh "$here/pmns_diff.sh" "$probe_ours" "$probe_theirs" "$outdir"
