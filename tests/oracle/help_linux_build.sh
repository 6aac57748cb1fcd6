#!/bin/sh
# help_linux_build.sh NEWHELP ORACLE_DIR
#
# pmkit's newhelp (NEWHELP) builds the help database of Debian's linux
# agent from its source (ORACLE_DIR/usr/lib/pcp/pmdas/linux/help, which
# gives four keys twice) and namespace (usr/lib/pcp/pmns/root_linux), as
# PCP's build does, in PCP's form of diagnostics and in the rich one: no
# message, exit 0, and help.dir and help.pag identical to the ones Debian
# ships, byte for byte.  With -S the repeated keys are refused: exit 2,
# one message for each of the four, nothing written.
#
# Exit 0 as expected, 1 otherwise, 2 usage, 77 skip (files missing).
set -u
if [ $# != 2 ]; then
    echo "Usage: help_linux_build.sh NEWHELP ORACLE_DIR" >&2
    exit 2
fi
ours=$1 oracle=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
src=$oracle/usr/lib/pcp/pmdas/linux
for f in "$src/help" "$src/help.dir" "$src/help.pag" "$oracle/usr/lib/pcp/pmns/root_linux"; do
    if [ ! -f "$f" ]; then
        echo "SKIP: $f not found (run: sh scripts/deps.sh test)"
        exit 77
    fi
done
need_ours "$ours" newhelp
ours=$(abspath "$ours")
make_tmp help_linux
cd "$tmp" || exit 1
unset PMNS_DEFAULT PCP_ALT_CPP
fail=0
for form in pcp rich; do
    rm -f help.dir help.pag
    PMKIT_DIAGNOSTICS=$form "$ours" -n "$oracle/usr/lib/pcp/pmns/root_linux" -o help "$src/help" \
        >out 2>err
    rc=$?
    if [ $rc != 0 ] || [ -s out ] || [ -s err ]; then
        echo "FAIL ($form): exit $rc, output:"
        shorten <out
        shorten <err
        fail=1
    elif ! cmp -s help.dir "$src/help.dir" || ! cmp -s help.pag "$src/help.pag"; then
        echo "FAIL ($form): help.dir/help.pag differ from Debian's"
        fail=1
    fi
done
rm -f help.dir help.pag
"$ours" -S -n "$oracle/usr/lib/pcp/pmns/root_linux" -o help "$src/help" >out 2>err
rc=$?
n=$(grep -c 'duplicate key' err)
if [ $rc != 2 ] || [ "$n" != 4 ] || [ -e help.dir ] || [ -e help.pag ]; then
    echo "FAIL (-S): exit $rc, $n duplicate keys reported (want 2 and 4, nothing written)"
    shorten <err
    fail=1
fi
[ $fail = 0 ] && echo "linux agent help: built as Debian ships it (1379 entries, 4 keys twice); -S refuses the 4"
exit $fail
