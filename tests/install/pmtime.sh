#!/bin/sh
# pmtime.sh BUILD CC [SANFLAGS]: libpcp_gui as users get it, installed.
#
# `cmake --install` of BUILD into a temporary prefix must give
# lib/libpcp_gui.so.2 (with the libpcp_gui.so link and libpcp_gui.a, as
# Debian's libpcp-gui2 and libpcp-gui2-dev do) and include/pcp/pmtime.h;
# a client built from the prefix alone (the header as strict C99, linked
# with -lpcp_gui -lpcp) must run on the prefix's libraries, and so must
# every installed program (pmval on libpcp_gui, all on libpcp: a program
# without a run path would take the system's PCP).  Exit 0 pass, 1 failure.
set -u
build=$1 cc=$2 san=${3:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmkit-pmtime.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
unset LD_LIBRARY_PATH CFLAGS LDFLAGS DESTDIR

if ! cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1; then
    tail -20 "$tmp/install.log"
    echo "FAIL: cmake --install"
    exit 1
fi
fail=0
for f in lib/libpcp_gui.so.2 lib/libpcp_gui.so lib/libpcp_gui.a include/pcp/pmtime.h; do
    [ -e "$prefix/$f" ] || { echo "FAIL: $f not installed"; fail=1; }
done
[ "$(readlink "$prefix/lib/libpcp_gui.so")" = libpcp_gui.so.2 ] ||
    { echo "FAIL: libpcp_gui.so does not point at libpcp_gui.so.2"; fail=1; }

cat >"$tmp/client.c" <<'EOC'
#include <pcp/pmapi.h>
#include <pcp/pmtime.h>
#include <stdio.h>
int main(void)
{
    pmTimeControls c;
    printf("%d %d %d\n", (int)sizeof(pmTime), (int)sizeof(c), pmTimeDisconnect(-1));
    return 0;
}
EOC
# shellcheck disable=SC2086 # SANFLAGS are words
if ! "$cc" -std=c99 -pedantic-errors -Wall -Werror $san -I"$prefix/include" -o "$tmp/client" \
    "$tmp/client.c" -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -lpcp_gui -lpcp >"$tmp/cc.log" 2>&1; then
    cat "$tmp/cc.log"
    echo "FAIL: a client of <pcp/pmtime.h> does not build from the prefix"
    exit 1
fi
out=$("$tmp/client")
[ "$out" = "88 96 -1" ] || { echo "FAIL: the client printed '$out', not '88 96 -1'"; fail=1; }
ldd "$tmp/client" | grep -q "libpcp_gui.so.2 => $prefix/lib/" ||
    { echo "FAIL: the client does not run on the prefix's libpcp_gui"; fail=1; }
ldd "$prefix/bin/pmval" | grep -q "libpcp_gui.so.2 => $prefix/\(bin/\.\./\)\{0,1\}lib/" ||
    { echo "FAIL: the installed pmval does not run on the prefix's libpcp_gui"; fail=1; }
for p in "$prefix"/bin/*; do
    if ldd "$p" | grep 'libpcp' | grep -v " => $prefix/\(bin/\.\./\)\{0,1\}lib/" >"$tmp/ldd"; then
        echo "FAIL: the installed $(basename "$p") takes a libpcp from outside the prefix:"
        cat "$tmp/ldd"
        fail=1
    fi
done
[ $fail = 0 ] && echo "PASS: libpcp_gui and <pcp/pmtime.h> install and serve a client"
exit $fail
