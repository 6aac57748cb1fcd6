#!/bin/sh
# example_agent.sh BUILD SRC CC [SANFLAGS]
#
# Installs the pmkit build tree BUILD into a temporary prefix and builds
# SRC/examples/agent (copied, so it can be edited) from that prefix alone:
# with CMake (find_package(pmkit), CMAKE_PREFIX_PATH = the prefix) and with
# make + pkg-config (PKG_CONFIG_LIBDIR = the prefix's pkgconfig directory,
# so Debian's libpcp.pc is out of reach).  For each build:
#  - its programs must use the prefix's libpcp and libpcp_pmda;
#  - example_client must print example_client.expected and the installed
#    pminfo, given the agent DSO and the built namespace, must print
#    example_pminfo.expected (both recorded with Debian's PCP 6.0.3 and the
#    same agent source built against Debian's libpcp_pmda);
#  - the namespace image must pass `pmnscomp --check`;
#  - after an edit to pmns (a file root includes) a rebuild must produce an
#    image holding the new name (the depfile at work);
#  - installing the agent must give PCP's layout, $PCP_PMDAS_DIR/example.
# SANFLAGS (the sanitizer build's) are added to both builds' compiler and
# linker flags.  Exit 0 pass, 1 failure.
set -u
build=$1 src=$2 cc=$3 san=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmkit-example.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

die() {
    echo "FAIL: $*"
    exit 1
}

# run LOG CMD...: CMD with its output in LOG, shown if it fails.
run() {
    log=$1
    shift
    if ! "$@" >"$log" 2>&1; then
        tail -40 "$log"
        die "$*"
    fi
}

prefix=$tmp/prefix
run "$tmp/install.log" cmake --install "$build" --prefix "$prefix"
cp -R "$src/examples/agent" "$tmp/src"

# Nothing from the caller's environment may point elsewhere.
unset PKG_CONFIG_PATH CMAKE_PREFIX_PATH PMNS_DEFAULT PCP_PMCDCONF_PATH LD_LIBRARY_PATH \
    CFLAGS LDFLAGS MAKEFLAGS DESTDIR
PKG_CONFIG_LIBDIR=$prefix/lib/pkgconfig
PCP_DERIVED_CONFIG=
export PKG_CONFIG_LIBDIR PCP_DERIVED_CONFIG

# check NAME OUT: the agent and client built into OUT behave.
check() {
    name=$1 out=$2
    pmdas=$out/pmdas
    so=$pmdas/example/pmda_example.so
    for f in "$so" "$pmdas/example/pmdaexample" "$out/example_client"; do
        [ -f "$f" ] || die "$name: no $f"
        libs=$(ldd "$f") || die "$name: ldd $f"
        for lib in libpcp.so.3 libpcp_pmda.so.3; do
            where=$(echo "$libs" | awk -v l="$lib" '$1 == l { print $3 }')
            case $where in
            "" | "$prefix"/lib/*) ;;
            *) echo "FAIL: $name: $f uses $where, not the prefix's $lib"; fail=1 ;;
            esac
        done
    done
    PCP_PMDAS_DIR=$pmdas "$out/example_client" "$pmdas/example/pmns.bin" "$so" \
        >"$tmp/$name.client" 2>&1
    if ! cmp -s "$here/example_client.expected" "$tmp/$name.client"; then
        echo "FAIL: $name: example_client output differs:"
        diff "$here/example_client.expected" "$tmp/$name.client" | head -20
        fail=1
    fi
    PCP_PMDAS_DIR=$pmdas "$prefix/bin/pminfo" -L -K clear -K "add,500,$so,example_init" \
        -n "$pmdas/example/namespace" -dfmtT example >"$tmp/$name.pminfo" 2>&1
    if ! cmp -s "$here/example_pminfo.expected" "$tmp/$name.pminfo"; then
        echo "FAIL: $name: pminfo output differs:"
        diff "$here/example_pminfo.expected" "$tmp/$name.pminfo" | head -20
        fail=1
    fi
    if ! "$prefix/bin/pmnscomp" --check "$pmdas/example/pmns.bin" >"$tmp/check.log" 2>&1; then
        echo "FAIL: $name: pmnscomp --check:"
        cat "$tmp/check.log"
        fail=1
    fi
}

# rebuild_on_include NAME OUT CMD...: add a name to pmns, run CMD, expect
# it in the image; then put pmns back and rebuild.
rebuild_on_include() {
    name=$1 out=$2
    shift 2
    cp "$tmp/src/pmns" "$tmp/pmns.orig"
    sed 's/^    shelf$/    shelf\
    added	EXAMPLE:0:9/' "$tmp/pmns.orig" >"$tmp/src/pmns"
    run "$tmp/$name.rebuild.log" "$@"
    "$prefix/bin/pmnscomp" --dump "$out/pmdas/example/pmns.bin" >"$tmp/dump" 2>&1
    if ! grep -q 'added[[:space:]]*500:0:9' "$tmp/dump"; then
        echo "FAIL: $name: editing pmns did not rebuild the namespace image"
        fail=1
    fi
    cp "$tmp/pmns.orig" "$tmp/src/pmns"
    run "$tmp/$name.rebuild.log" "$@"
}

# CMake, from the installed package.
run "$tmp/cmake.log" cmake -S "$tmp/src" -B "$tmp/cmake" -DCMAKE_C_COMPILER="$cc" \
    -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
    -DCMAKE_C_FLAGS="$san" -DCMAKE_EXE_LINKER_FLAGS="$san" -DCMAKE_MODULE_LINKER_FLAGS="$san"
grep -q "pmkit_DIR:PATH=$prefix/" "$tmp/cmake/CMakeCache.txt" ||
    die "cmake: find_package(pmkit) found $(grep pmkit_DIR "$tmp/cmake/CMakeCache.txt")"
run "$tmp/cmake.log" cmake --build "$tmp/cmake"
# The compiler saw the prefix's headers, never Debian's.
if grep -rq '/usr/include/pcp/' "$tmp/cmake/CMakeFiles" --include='*.o.d'; then
    die "cmake: an object was compiled with /usr/include/pcp headers"
fi
grep -rq "$prefix/include/pcp/pmapi.h" "$tmp/cmake/CMakeFiles" --include='*.o.d' ||
    die "cmake: no object was compiled with the prefix's <pcp/pmapi.h>"
check cmake "$tmp/cmake"
rebuild_on_include cmake "$tmp/cmake" cmake --build "$tmp/cmake"
run "$tmp/cmake.log" env DESTDIR="$tmp/stage-cmake" cmake --install "$tmp/cmake"
for f in pmda_example.so pmdaexample namespace pmns.bin root pmns help help.dir help.pag domain.h; do
    [ -f "$tmp/stage-cmake$prefix/var/lib/pcp/pmdas/example/$f" ] ||
        { echo "FAIL: cmake --install did not install example/$f"; fail=1; }
done

# make + pkg-config, from the installed .pc files.
[ "$(pkg-config --variable=pmnscomp libpcp_pmda)" = "$prefix/lib/pkgconfig/../../bin/pmnscomp" ] ||
    die "pkg-config: pmnscomp is $(pkg-config --variable=pmnscomp libpcp_pmda)"
run "$tmp/make.log" make -C "$tmp/src" BUILD="$tmp/make" CC="$cc" CFLAGS="-O2 -g $san" \
    LDFLAGS="$san"
check make "$tmp/make"
rebuild_on_include make "$tmp/make" make -C "$tmp/src" BUILD="$tmp/make" CC="$cc" \
    CFLAGS="-O2 -g $san" LDFLAGS="$san"
run "$tmp/make.log" make -C "$tmp/src" BUILD="$tmp/make" CC="$cc" CFLAGS="-O2 -g $san" \
    LDFLAGS="$san" DESTDIR="$tmp/stage-make" install
for f in pmda_example.so pmdaexample namespace pmns.bin root pmns help help.dir help.pag domain.h; do
    [ -f "$tmp/stage-make$prefix/var/lib/pcp/pmdas/example/$f" ] ||
        { echo "FAIL: make install did not install example/$f"; fail=1; }
done

[ $fail = 0 ] && echo "PASS: the example agent builds from the installed pmkit with CMake and make"
exit $fail
