#!/bin/sh
# pmclient_diff.sh SRCDIR BUILDDIR ORACLE_DIR DEBIAN_LIBPCP
#
# PCP's own example clients, pmclient.c and pmclient_fg.c (the same client
# written with the fetch-group API) exactly as Debian's pcp package ships
# them (usr/share/pcp/demos/pmclient in the oracle extract), must build
# against pmkit and behave as they do built against Debian's libpcp:
#  1. pmclient's pmnsmap.h is made by pmkit's pmgenmap (BUILDDIR/bin) from
#     the demo's pmnsmap.spec; each is compiled as the Makefile does
#     (-I the pcp include directory, so "pmapi.h" resolves) against
#     pmkit's headers (BUILDDIR/include) with implicit declarations
#     an error, and linked against pmkit's libpcp (BUILDDIR/lib) with
#     -Wl,--no-undefined: every function it calls must be declared and
#     defined ($PMKIT_SAN_CFLAGS: the sanitizer flags pmkit was built with);
#  2. the same sources are built against Debian's headers and libpcp, and
#     both are run on argument vectors that stop before a metrics source is
#     needed (usage, version, option errors, a namespace): stdout, stderr
#     and exit status must be identical (the namespace loader's own
#     diagnostics are pmkit's, docs/compat.md, so no case has one).  (Running it needs a PMCD, which
#     pmkit's libpcp does not speak yet.)
# Exit 0 built and identical, 1 failure, 2 usage, 77 skip (the oracle
# extract, Debian's development files or a compiler missing).
set -u
[ $# = 4 ] || { echo "Usage: pmclient_diff.sh SRCDIR BUILDDIR ORACLE_DIR DEBIAN_LIBPCP" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
oracle=$3
debian_lib=$4
demo=$oracle/usr/share/pcp/demos/pmclient
cc=${CC:-cc}
for f in "$demo/pmclient.c" "$demo/pmclient_fg.c" "$demo/pmnsmap.spec" /usr/include/pcp/pmapi.h \
    "$debian_lib"; do
    [ -f "$f" ] || { echo "SKIP: $f is missing (make test-deps installs and unpacks it)"; exit 77; }
done
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($cc)"; exit 77; }
need_ours "$build/bin/pmgenmap" "pmgenmap"
make_tmp pmclient_diff
# Debian's namespace loader runs its pmcpp; its derived metrics stay out
export PCP_BINADM_DIR="$oracle/usr/lib/pcp/bin" PCP_DERIVED_CONFIG=

mkdir "$tmp/pmkit" "$tmp/pcp"
cp "$demo/pmclient.c" "$demo/pmclient_fg.c" "$demo/pmnsmap.spec" "$tmp/pmkit/"
if ! (cd "$tmp/pmkit" && SOURCE_DATE_EPOCH=0 "$build/bin/pmgenmap" pmnsmap.spec >pmnsmap.h); then
    echo "FAIL: pmkit's pmgenmap on the demo's pmnsmap.spec"
    exit 1
fi
cp "$tmp/pmkit/pmclient.c" "$tmp/pmkit/pmclient_fg.c" "$tmp/pmkit/pmnsmap.h" "$tmp/pcp/"
for prog in pmclient pmclient_fg; do
    # shellcheck disable=SC2086 # $PMKIT_SAN_CFLAGS: the sanitizers of an ASan build
    # (no -w: it would turn the implicit-declaration error off too)
    if ! "$cc" ${PMKIT_SAN_CFLAGS:-} -Werror=implicit-function-declaration \
        -I"$build/include/pcp" -I"$build/include" -o "$tmp/pmkit/$prog" \
        "$tmp/pmkit/$prog.c" -Wl,--no-undefined -L"$build/lib" -Wl,-rpath,"$build/lib" -lpcp \
        2>"$tmp/cc.err"; then
        echo "FAIL: $prog.c does not build against pmkit:"
        cat "$tmp/cc.err"
        exit 1
    fi
    if ! "$cc" -w -I/usr/include/pcp -o "$tmp/pcp/$prog" "$tmp/pcp/$prog.c" \
        "$debian_lib" 2>"$tmp/cc.err"; then
        echo "SKIP: $prog.c does not build against Debian's libpcp:"
        cat "$tmp/cc.err"
        exit 77
    fi
done
printf 'root {\n    kernel\n}\nkernel {\n    all\n}\nkernel.all {\n    load 60:2:0\n}\n' >"$tmp/pmns"

ndiff=0 n=0
while IFS= read -r args; do
    case $args in '#'* | '') continue ;; esac
    for prog in pmclient pmclient_fg; do
        n=$((n + 1))
        run_sides "./$prog $args"
    done
done <<CASES
-?
--help
-V
-V -h a -h b
-P
-P -h somehost
-s x
-s -3
-t bogus
-t 1 -s 2 extra operands
-h a -h b
-a x -h y
-Z UTC -z
-z
-S @10:00
-n $tmp/pmns -Q
-D bogus
--archive-list a,b -h c
CASES
if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $n pmclient and pmclient_fg runs differ (< Debian, > pmkit)"
    exit 1
fi
echo "PASS: pmclient.c and pmclient_fg.c build against pmkit unchanged; $n runs identical to Debian's builds"
