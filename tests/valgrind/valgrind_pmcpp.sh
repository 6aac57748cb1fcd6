#!/bin/sh
# valgrind_pmcpp.sh VALGRIND PMCPP REPLAY TESTS: the preprocessor under
# memcheck.  The fuzz replayer drives the engine over the whole fuzz corpus
# in one process; a few pmcpp runs cover files, #include, #shell, -M and
# outfiles.  Any memcheck error (or definite leak) fails the test.
set -u
vg=$1 pmcpp=$2 replay=$3 tests=$4
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
fail=0 n=0
check() { # command...: one run (its own exit status does not matter)
    n=$((n + 1))
    "$vg" -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
        "$@" >/dev/null 2>"$tmp/err"
    if [ $? = 99 ]; then
        echo "memcheck errors for: $*"; cat "$tmp/err"; fail=1
    fi
}
check "$replay" "$tests/fuzz/corpus/pmcpp"
cd "$tmp" || exit 1
printf '#include "h"\n#define A 1\nA /* c */\n#shell "echo B"\n#ifdef A\n#if A > 0\nyes\n#endif\n#endif\n' > main
printf 'x\n' > h
check "$pmcpp" -MD -MP main out
check "$pmcpp" -r -M main
check "$pmcpp" -s -P main
check "$pmcpp" nosuchfile
echo "valgrind: $n runs clean"
exit $fail
