#!/bin/sh
# pminfo_local_seedfail.sh SRCDIR BUILDDIR
#
# pminfo_local_diff.sh must stop with seed_agents.sh's status when building
# PCP's agents for its own side fails, before running any case: it is run
# in the pmkit flavour with a copy of BUILDDIR whose lib/libpcp_pmda.so is
# not a library (bin/pminfo links to BUILDDIR's, so the cases could run).
#
# Exit 0 it stopped there, 1 it did not, 2 usage, 77 pminfo_local_diff.sh
# skipped (Debian's side could not be built).
set -u
if [ $# != 2 ]; then
    echo "Usage: pminfo_local_seedfail.sh SRCDIR BUILDDIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
build=$(cd "$2" && pwd) || exit 2
make_tmp pminfo_seedfail

mkdir -p "$tmp/build/lib" "$tmp/build/bin" || exit 1
echo "not a library" >"$tmp/build/lib/libpcp_pmda.so"
ln -s "$build/bin/pminfo" "$tmp/build/bin/pminfo" && ln -s "$build/include" "$tmp/build/include" || exit 1
sh "$here/pminfo_local_diff.sh" pmkit "$1" "$tmp/build" >"$tmp/out" 2>&1
rc=$?
[ $rc = 77 ] && { cat "$tmp/out"; exit 77; }
if [ $rc = 1 ] && grep -q "seed_agents.sh: building simple against pmkit's libpcp_pmda failed" \
    "$tmp/out" && ! grep -q -e '^DIFF' -e '^pminfo local oracle' "$tmp/out"; then
    echo "pminfo_local_diff.sh stops when its side's agents do not build"
    exit 0
fi
echo "FAIL: pminfo_local_diff.sh went on (exit $rc) after its side's agents failed to build:"
tail -20 "$tmp/out" | sed 's/^/  /'
exit 1
