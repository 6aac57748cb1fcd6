#!/bin/sh
# agents_sane.sh SIDE...
#
# For agents_diff.sh and seed_compile.sh: each SIDE names the pair
# SIDE.out (runs, each "== WHAT" ... "== exit N") and SIDE.err (their
# stderr).  Two sides failing alike would compare equal, so every run must
# also succeed on its own, and no sanitizer may have reported anything.
# Exit 0 all well, 1 otherwise (the culprits are listed).
set -u
bad=0
for s in "$@"; do
    if ! awk -v side="${s##*/}" '
        /^== exit / { if ($3 != 0) { print "FAIL: " side ": " what " exited " $3; bad = 1 }; next }
        /^== / { what = substr($0, 4) }
        END { exit bad }' "$s.out"; then
        bad=1
    fi
    if grep -n -E 'runtime error:|AddressSanitizer|LeakSanitizer' "$s.err" | head -5 | grep .; then
        echo "FAIL: ${s##*/}: sanitizer reports (above)"
        bad=1
    fi
done
exit $bad
