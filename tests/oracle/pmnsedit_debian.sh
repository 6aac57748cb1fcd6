#!/bin/sh
# pmnsedit_debian.sh BINDIR ORACLE_DIR: pmkit's pmnsmerge, pmnsadd and
# pmnsdel against Debian's on Debian's own namespaces, from the pcp
# package unpacked in ORACLE_DIR:
#  - Rebuild's merge: a skeletal root and every usr/lib/pcp/pmns/root_*
#    file (ls order) into root.new, plain, with -v, with -x and with -a;
#    and each root_* file merged alone;
#  - every agent's pmns (usr/lib/pcp/pmdas/*/pmns) added to the default
#    namespace as its Install script adds it (the domain macro of its
#    domain.h replaced by the number, then pmnsadd -n root), and taken out
#    again as its Remove script does (pmnsdel -n root on its top-level
#    names);
#  - every top-level subtree of the default namespace deleted with
#    pmnsdel.
# The cases are made in a scratch directory and compared by
# pmnsedit_diff.sh (stdout, exit status, the tools' messages, every file).
# Exit as pmnsedit_diff.sh; 77 (skip) when the extract is missing.
set -u
if [ $# != 2 ]; then
    echo "Usage: pmnsedit_debian.sh BINDIR ORACLE_DIR" >&2
    exit 2
fi
bindir=$(cd "$1" && pwd) oracle=$(cd "$2" 2>/dev/null && pwd) || oracle=$2
here=$(cd "$(dirname "$0")" && pwd)
pmns=$oracle/usr/lib/pcp/pmns
agents=$oracle/usr/lib/pcp/pmdas
if ! ls "$pmns"/root_* >/dev/null 2>&1 || [ ! -x "$oracle/usr/lib/pcp/bin/pmnsmerge" ]; then
    echo "SKIP: Debian's pcp extract (root_* files, pmnsmerge) not found under $oracle (run: sh scripts/deps.sh test)"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmnsedit_debian.XXXXXX") || exit 1
trap 'cd /; rm -rf "$tmp"' EXIT
cases=$tmp/cases
mkdir "$cases"

# new NAME CMD: a case directory with cmd and Rebuild's files
roots=$(cd "$pmns" && ls root_*)
new() {
    mkdir "$cases/$1"
    echo "$2" >"$cases/$1/cmd"
}
mkroots() {
    printf 'root {\n}\n' >"$cases/$1/root"
    for r in $roots; do cp "$pmns/$r" "$cases/$1/"; done
}
for flags in "" -v -x -a; do
    name=rebuild${flags:+_}${flags#-}
    new "$name" "pmnsmerge $flags root $(echo $roots) root.new"
    mkroots "$name"
done
for r in $roots; do
    new "alone_$r" "pmnsmerge $r out"
    cp "$pmns/$r" "$cases/alone_$r/"
done

# The default namespace, merged by pmkit's own pmnsmerge (the rebuild
# cases above check it is Debian's).
printf 'root {\n}\n' >"$tmp/root"
(cd "$pmns" && "$bindir/pmnsmerge" "$tmp/root" $roots "$tmp/default") >/dev/null 2>&1 ||
    { echo "FAIL: pmnsmerge of Debian's root_* files failed"; exit 1; }

for dir in "$agents"/*/; do
    agent=$(basename "$dir")
    [ -f "$dir/pmns" ] || continue
    sed=cat
    if [ -f "$dir/domain.h" ]; then
        sym=$(awk '$1 == "#define" && $3 ~ /^[0-9]+$/ { print $2; exit }' "$dir/domain.h")
        num=$(awk '$1 == "#define" && $3 ~ /^[0-9]+$/ { print $3; exit }' "$dir/domain.h")
        [ -n "$sym" ] && sed="sed -e s/$sym:/$num:/"
    fi
    new "add_$agent" "pmnsadd -n root $agent"
    cp "$tmp/default" "$cases/add_$agent/root"
    $sed <"$dir/pmns" >"$cases/add_$agent/$agent"
    # Remove: its top-level names out again (from the namespace with them)
    tops=$(awk '$2 == "{" { n = split($1, p, "."); print p[1] }' "$cases/add_$agent/$agent" | sort -u)
    [ -n "$tops" ] || continue
    cp "$tmp/default" "$tmp/with"
    if "$bindir/pmnsadd" -n "$tmp/with" "$cases/add_$agent/$agent" >/dev/null 2>&1; then
        new "del_$agent" "pmnsdel -n root $(echo $tops)"
        cp "$tmp/with" "$cases/del_$agent/root"
    fi
done

for top in $(awk '$1 == "root" && $2 == "{" { on = 1; next } on && $1 == "}" { exit } on { print $1 }' "$tmp/default"); do
    new "del_top_$top" "pmnsdel -n root $top"
    cp "$tmp/default" "$cases/del_top_$top/root"
done

sh "$here/pmnsedit_diff.sh" "$bindir" "$oracle" "$cases"
