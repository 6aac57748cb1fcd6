#!/bin/sh
# pminfo_archive_diff.sh PMINFO ORACLE TESTSUITE CASES [PMLOGEXTRACT LIBDIR]
#
# pminfo -a: pmkit's pminfo (PMINFO, with pmkit's libpcp) against Debian's
# (ORACLE/usr/bin/pminfo of the unpacked pcp package, with Debian's libpcp)
# over archives of Debian's pcp-testsuite (TESTSUITE: its unpacked
# var/lib/pcp/testsuite): stdout, stderr and exit status byte for byte.
# Each line of CASES (see pminfo_archive_cases) is one run, pminfo's
# arguments as shell words, run in TESTSUITE; @V3@ stands for the directory
# of version 3 copies made by Debian's pmlogextract -V 3 (PMLOGEXTRACT, run
# with the libraries of LIBDIR: libpcp_archive), and @TMP@ for a directory
# holding the files the cases name (a namespace, derived metrics, a
# folio); leading PCP_NAME=VALUE words are set in pminfo's environment.  A case
# "!PATTERN ARGS" differs on purpose (its comment names the docs/compat.md
# entry): the outputs must differ, and be identical once the lines
# matching the extended regular expression PATTERN are taken out.
# Exit 0 identical, 1 any difference, 2 usage, 77 skip (no testsuite or
# no Debian pminfo).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
[ $# -eq 4 ] || [ $# -eq 6 ] || {
    echo "usage: pminfo_archive_diff.sh PMINFO ORACLE TESTSUITE CASES [PMLOGEXTRACT LIBDIR]" >&2
    exit 2
}
ours=$(abspath "$1")
theirs=$(abspath "$2")/usr/bin/pminfo
suite=$3
cases=$(abspath "$4")
extract=${5:-}
libdir=${6:-}
need_ours "$ours" pminfo
need_oracle "$theirs" "Debian's pminfo"
need_testsuite "$suite"
suite=$(cd "$suite" && pwd)
make_tmp pminfo_archive
# Debian's libpcp would add the machine's default derived metrics; the
# namespace loader runs Debian's pmcpp for -n
export PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR=$(abspath "$2")/usr/lib/pcp/bin
mkdir "$tmp/files" "$tmp/v3"
printf 'root {\n    sample\n}\nsample {\n    seconds 29:0:1\n    bin 29:0:6\n    nosuch 29:0:999\n}\n' \
    >"$tmp/files/pmns"
printf 'my.secs = sample.seconds * 2\nmy.bins = sample.bin + 1\nmy.bad = sample.nosuch\n' \
    >"$tmp/files/derived"

# The version 3 copies the cases name (@V3@/NAME from archives/NAME).
if [ -n "$extract" ] && [ -x "$extract" ]; then
    for name in $(grep -v '^#' "$cases" | grep -o '@V3@/[^ ,]*' | sort -u | sed 's|@V3@/||'); do
        LD_LIBRARY_PATH=$libdir "$extract" -V 3 "$suite/archives/$name" "$tmp/v3/$name" \
            >/dev/null 2>&1 || {
            echo "FAIL: $extract -V 3 could not copy archives/$name"
            exit 1
        }
    done
else
    echo "note: no pmlogextract ($extract): the version 3 copies' cases are left out"
fi

printf 'PCPFolio\nVersion: 1\nArchive: gonzo %s/archives/ok-foo\nArchive: gonzo %s/archives/ok-mv-foo\n' \
    "$suite" "$suite" >"$tmp/files/folio"

# side PMINFO SUFFIX ARGS: one run, output and exit status into $tmp/SUFFIX.*
# (ARGS may start with PCP_NAME=VALUE words: pminfo's environment)
side() {
    prog=$1 suffix=$2
    shift 2
    (cd "$suite" && eval "env $envset timeout 60 \"$prog\" $*") >"$tmp/$suffix.out" 2>"$tmp/$suffix.err"
    echo "exit $?" >>"$tmp/$suffix.out"
    cat "$tmp/$suffix.err" >>"$tmp/$suffix.out"
}

n=0 ndiff=0
while IFS= read -r line; do
    case $line in '#'* | '') continue ;; esac
    pattern=
    case $line in '!'*)
        pattern=${line%% *}
        pattern=${pattern#!}
        line=${line#* }
        ;;
    esac
    case $line in *@V3@*) [ -n "$extract" ] && [ -x "$extract" ] || continue ;; esac
    args=$(printf '%s\n' "$line" | sed -e "s|@V3@|$tmp/v3|g" -e "s|@TMP@|$tmp/files|g")
    envset=
    while :; do
        case $args in PCP_*=*)
            envset="$envset ${args%% *}"
            args=${args#* }
            ;;
        *) break ;;
        esac
    done
    n=$((n + 1))
    side "$ours" ours "$args"
    side "$theirs" theirs "$args"
    if [ -z "$pattern" ]; then
        cmp -s "$tmp/ours.out" "$tmp/theirs.out" && continue
        ndiff=$((ndiff + 1))
        echo "DIFF: pminfo $line (< Debian, > pmkit)"
        diff "$tmp/theirs.out" "$tmp/ours.out" | shorten | sed 's/^/  /'
        continue
    fi
    if cmp -s "$tmp/ours.out" "$tmp/theirs.out"; then
        ndiff=$((ndiff + 1))
        echo "STALE: pminfo $line: listed as differing (lines matching $pattern) but identical"
        continue
    fi
    grep -Ev -- "$pattern" "$tmp/ours.out" >"$tmp/ours.kept"
    grep -Ev -- "$pattern" "$tmp/theirs.out" >"$tmp/theirs.kept"
    if ! cmp -s "$tmp/ours.kept" "$tmp/theirs.kept"; then
        ndiff=$((ndiff + 1))
        echo "DIFF: pminfo $line, beyond the lines matching $pattern (< Debian, > pmkit)"
        diff "$tmp/theirs.kept" "$tmp/ours.kept" | shorten | sed 's/^/  /'
    fi
done <"$cases"
if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $n pminfo -a cases differ from Debian's"
    exit 1
fi
echo "PASS: $n pminfo -a cases identical to Debian's (or differing only as listed)"
exit 0
