#!/bin/sh
# demo.sh BUILD: the main job, as far as pmkit goes today - libpcp's value
# and text helpers, and pmerr, all from the fresh build.
set -eu
bin=${1:-build}/bin
echo "== pmkit demo: libpcp value and text helpers"
"$bin/pmkit_helpers_demo"
echo
echo "== pmerr: explain error codes"
"$bin/pmerr" -12357 -12386 0x10 -111
echo
echo "== pmerr -l (first lines of PCP's error table)"
"$bin/pmerr" -l | head -6 || true
