#!/bin/sh
# debian_binaries.sh LIBDIR ORACLE_DIR LIST [DEBIAN_LIBPCP_PMDA]
#
# Debian's binaries start on pmkit's libraries: each file LIST names
# (paths inside ORACLE_DIR, Debian's unpacked pcp package) is loaded by
# the dynamic linker with every symbol bound at once (LD_BIND_NOW) and
# pmkit's libpcp and libpcp_pmda (LIBDIR) first on the library path; it
# must resolve every symbol, print no "no version information available"
# and load pmkit's libpcp.  DEBIAN_LIBPCP_PMDA, Debian's libpcp_pmda, is
# checked the same way beside pmkit's libpcp.  Files the package lacks are
# skipped and counted; if none is there the test is skipped.
#
# Exit 0 all resolve, 1 any does not, 2 usage, 77 skip.
set -u
[ $# -ge 3 ] || {
    echo "usage: $0 LIBDIR ORACLE_DIR LIST [DEBIAN_LIBPCP_PMDA]" >&2
    exit 2
}
lib=$1
oracle=$2
list=$3
pmda=${4:-}
ldso=$(ls /lib64/ld-linux-*.so.* /lib/ld-linux-*.so.* 2>/dev/null | head -n 1)
if [ -z "$ldso" ] || [ ! -d "$oracle/usr/bin" ]; then
    echo "SKIP: no dynamic linker to ask, or no Debian pcp in $oracle (scripts/deps.sh test)"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/debian_binaries.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# pmkit's two libraries alone, so nothing else answers for them
ln -s "$lib/libpcp.so.3" "$tmp/libpcp.so.3"
ln -s "$lib/libpcp_pmda.so.3" "$tmp/libpcp_pmda.so.3"

fail=0 ok=0 absent=0 nolib=0
check() { # FILE LIBPATH
    out=$(env LD_LIBRARY_PATH="$2" LD_BIND_NOW=1 LD_WARN=1 LD_TRACE_LOADED_OBJECTS=1 \
        "$ldso" "$1" 2>&1)
    bad=$(printf '%s\n' "$out" | grep -E 'undefined symbol|no version information')
    # a library outside PCP that this machine lacks (libbpf, libpfm on a
    # bare machine) leaves its own symbols undefined: such a file cannot be
    # judged here, and is counted apart
    if printf '%s\n' "$out" | grep -v 'libpcp' | grep -q '=> not found'; then
        nolib=$((nolib + 1))
        return
    fi
    if [ -n "$bad" ]; then
        echo "FAIL: $1:"
        printf '%s\n' "$bad" | sed 's/^/    /' | head -n 10
        fail=$((fail + 1))
    elif ! printf '%s\n' "$out" | grep -q "libpcp.so.3 => $tmp/libpcp.so.3"; then
        echo "FAIL: $1 does not load pmkit's libpcp"
        fail=$((fail + 1))
    else
        ok=$((ok + 1))
    fi
}
while read -r path; do
    case $path in '#'* | '') continue ;; esac
    if [ ! -e "$oracle/$path" ]; then
        absent=$((absent + 1))
        continue
    fi
    check "$oracle/$path" "$tmp"
done <"$list"
if [ -n "$pmda" ] && [ -e "$pmda" ]; then
    mkdir "$tmp/mixed"
    ln -s "$lib/libpcp.so.3" "$tmp/mixed/libpcp.so.3"
    ln -s "$pmda" "$tmp/mixed/libpcp_pmda.so.3"
    out=$(env LD_LIBRARY_PATH="$tmp/mixed" LD_BIND_NOW=1 LD_WARN=1 LD_TRACE_LOADED_OBJECTS=1 \
        "$ldso" "$pmda" 2>&1)
    if printf '%s\n' "$out" | grep -qE 'undefined symbol|no version information'; then
        echo "FAIL: Debian's $pmda beside pmkit's libpcp:"
        printf '%s\n' "$out" | grep -E 'undefined symbol|no version information' | sed 's/^/    /'
        fail=$((fail + 1))
    else
        ok=$((ok + 1))
    fi
fi
if [ $((ok + fail)) -eq 0 ]; then
    echo "SKIP: none of the binaries listed is in $oracle"
    exit 77
fi
echo "debian_binaries: $ok resolve on pmkit's libraries, $fail do not ($absent not in the package, $nolib need a library this machine lacks)"
[ $fail -eq 0 ]
