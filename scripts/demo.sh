#!/bin/sh
# demo.sh BUILD: the main job, as far as pmkit goes today: libpcp's value
# and text helpers, pmerr, and a PMDA-style namespace through pmcpp and
# pminfo, all from the fresh build.
set -eu
bin=${1:-build}/bin
top=$(cd "$(dirname "$0")/.." && pwd)
echo "== pmkit demo: libpcp value and text helpers"
"$bin/pmkit_helpers_demo"
echo
echo "== pmerr: explain error codes"
"$bin/pmerr" -12357 -12386 0x10 -111
echo
echo "== pmerr -l (first lines of PCP's error table)"
"$bin/pmerr" -l | head -6 || true

echo
echo "== pmcpp: a PMDA namespace, preprocessed (examples/demo.pmns)"
"$bin/pmcpp" -P "$top/examples/demo.pmns" | grep -v '^$'
echo
echo "== pminfo -n: its names and PMIDs, through the in-process loader"
"$bin/pminfo" -n "$top/examples/demo.pmns" -m demo
"$bin/pminfo" -n "$top/examples/demo.pmns" -M 245.1.2
