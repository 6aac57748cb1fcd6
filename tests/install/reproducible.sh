#!/bin/sh
# reproducible.sh SRC CC
#
# Two clean builds of SRC (a snapshot of it: the build needs neither tests/
# nor bench/), in two different directories, must give the same bytes:
#  - pmkit itself, configured alike (no tests, Debug, prefix /opt/pmkit)
#    with the usual reproducible-build settings
#    (-ffile-prefix-map for the build directory; build-tree programs linked
#    with their install run path, so that the linker's build id does not
#    see the build directory), built and installed with DESTDIR: every
#    installed file compared, programs and libraries included; and the
#    generated files that stay in the build tree (the gperf table, the
#    agents' pmns, pmns.bin, help.dir and help.pag, the .pc and package
#    files, the .so man pages, the export files) compared with the build
#    directory's name replaced;
#  - examples/agent, built with CMake from each installed pmkit: domain.h,
#    example_map.h, its namespace, namespace image and help database; and
#    the same files built with make + pkg-config must equal CMake's
#    (domain.h aside: the two builds word its comment differently).
# Registered in the plain build only (tests/install/CMakeLists.txt): the
# builds here are plain whatever the calling build, so a sanitizer pass
# would only repeat them.
# Exit 0 pass, 1 failure.
set -u
src=$1 cc=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmkit-repro.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
unset CFLAGS LDFLAGS MAKEFLAGS DESTDIR PKG_CONFIG_PATH CMAKE_PREFIX_PATH

bad() {
    echo "FAIL: $*"
    fail=1
}

run() {
    log=$1
    shift
    if ! "$@" >"$log" 2>&1; then
        tail -40 "$log"
        echo "FAIL: $*"
        exit 1
    fi
}

# same DIR_A DIR_B [SED]: every file under A is under B with the same
# bytes (after the sed script SED, if given), and B has no other files.
same() {
    (cd "$1" && find . -type f | LC_ALL=C sort) >"$tmp/list.a"
    (cd "$2" && find . -type f | LC_ALL=C sort) >"$tmp/list.b"
    if ! cmp -s "$tmp/list.a" "$tmp/list.b"; then
        bad "$1 and $2 hold different files:"
        diff "$tmp/list.a" "$tmp/list.b" | head -10
    fi
    n=0
    while read -r f; do
        [ -f "$2/$f" ] || continue
        if [ $# -ge 3 ]; then
            sed "$3" "$1/$f" >"$tmp/a.norm"
            sed "$3" "$2/$f" >"$tmp/b.norm"
            cmp -s "$tmp/a.norm" "$tmp/b.norm" || bad "$f differs between two clean builds"
        else
            cmp -s "$1/$f" "$2/$f" || bad "$f differs between two clean builds"
        fi
        n=$((n + 1))
    done <"$tmp/list.a"
    echo "compared $n files: $1 and $2"
}

mkdir "$tmp/src"
tar -C "$src" --exclude=./.git --exclude=./.cache --exclude='./build*' --exclude=./tests \
    --exclude=./bench -cf - . | tar -C "$tmp/src" -xf - || exit 1
src=$tmp/src

for side in a b; do
    dir=$tmp/$side
    run "$dir.log" cmake -S "$src" -B "$dir/build" -DCMAKE_C_COMPILER="$cc" -DPMKIT_TESTS=OFF \
        -DCMAKE_BUILD_TYPE=Debug -DCMAKE_INSTALL_PREFIX=/opt/pmkit \
        -DCMAKE_BUILD_WITH_INSTALL_RPATH=ON -DCMAKE_C_FLAGS="-ffile-prefix-map=$dir/build=."
    run "$dir.log" cmake --build "$dir/build" -j 2
    run "$dir.log" env DESTDIR="$dir/stage" cmake --install "$dir/build"

    # the build tree's generated files, gathered
    mkdir -p "$dir/gen"
    (cd "$dir/build" && find libpcp/cpp_keywords.c pmdas lib/pkgconfig pkgconfig-install cmake \
        man CMakeFiles/Export -type f \( -name '*.c' -o -name pmns -o -name pmns.bin \
        -o -name 'help.dir' -o -name 'help.pag' -o -name '*.pc' -o -name '*.cmake' \
        -o -name '*.3' \) | LC_ALL=C sort) >"$dir/gen.list"
    while read -r f; do
        mkdir -p "$dir/gen/$(dirname "$f")"
        cp "$dir/build/$f" "$dir/gen/$f"
    done <"$dir/gen.list"

    # the example agent, from this side's installed pmkit
    prefix=$dir/stage/opt/pmkit
    cp -R "$src/examples/agent" "$dir/src"
    run "$dir.log" cmake -S "$dir/src" -B "$dir/ex" -DCMAKE_C_COMPILER="$cc" \
        -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    run "$dir.log" cmake --build "$dir/ex"
    mkdir -p "$dir/exgen"
    for f in domain.h example_map.h pmdas/example/namespace pmdas/example/pmns.bin \
        pmdas/example/help.dir pmdas/example/help.pag; do
        mkdir -p "$dir/exgen/$(dirname "$f")"
        cp "$dir/ex/$f" "$dir/exgen/$f" || bad "example agent: no $f"
    done
done

same "$tmp/a/stage" "$tmp/b/stage"
same "$tmp/a/gen" "$tmp/b/gen" "s|$tmp/[ab]/|DIR/|g"
[ -s "$tmp/a/gen.list" ] && grep -q 'pmdas/.*/help.pag' "$tmp/a/gen.list" &&
    grep -q 'cpp_keywords.c' "$tmp/a/gen.list" && grep -q 'pmkitTargets' "$tmp/a/gen.list" ||
    bad "the build-tree artefacts were not all found: $(tr '\n' ' ' <"$tmp/a/gen.list")"
same "$tmp/a/exgen" "$tmp/b/exgen"

# make + pkg-config gives CMake's bytes.
run "$tmp/make.log" env PKG_CONFIG_LIBDIR="$tmp/a/stage/opt/pmkit/lib/pkgconfig" \
    make -C "$tmp/a/src" BUILD="$tmp/mk" CC="$cc" CFLAGS="-O2"
for f in example_map.h pmdas/example/namespace pmdas/example/pmns.bin pmdas/example/help.dir \
    pmdas/example/help.pag; do
    cmp -s "$tmp/a/exgen/$f" "$tmp/mk/$f" || bad "example agent: make and CMake give different $f"
done

[ $fail = 0 ] && echo "PASS: two clean builds give the same bytes"
exit $fail
