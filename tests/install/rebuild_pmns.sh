#!/bin/sh
# rebuild_pmns.sh BUILD ORACLE_DIR
#
# The system namespace from root_* files in one step, from an installed
# pmkit alone: BUILD is installed into a temporary prefix, then
#  - a CMake project (find_package(pmkit)) calls pcp_merge_pmns on every
#    root_* file of Debian's pcp (ORACLE_DIR/usr/lib/pcp/pmns, as Rebuild
#    merges them), once for ASCII and once with IMAGE;
#  - a Makefile does the same with the pmnsmerge that pkg-config names;
# and the results must be byte-identical to Debian's pmnsmerge run as
# Rebuild runs it (an empty root, then the root_* files), the image to
# what pmnscomp -d makes of that text.  Editing a root_* file must make
# both builds merge again.
# Exit 0 pass, 1 failure, 77 skip (no Debian extract).
set -u
build=$1 oracle=$2
pmns=$oracle/usr/lib/pcp/pmns
theirs=$oracle/usr/lib/pcp/bin/pmnsmerge
if ! ls "$pmns"/root_* >/dev/null 2>&1 || [ ! -x "$theirs" ]; then
    echo "SKIP: Debian's pcp extract (root_* files, pmnsmerge) not found under $oracle"
    exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmkit-rebuild.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
die() {
    echo "FAIL: $*"
    exit 1
}
run() {
    log=$1
    shift
    if ! "$@" >"$log" 2>&1; then
        tail -30 "$log"
        die "$*"
    fi
}
unset PKG_CONFIG_PATH CMAKE_PREFIX_PATH PMNS_DEFAULT MAKEFLAGS DESTDIR
prefix=$tmp/prefix
run "$tmp/install.log" cmake --install "$build" --prefix "$prefix"

# Debian's result, as Rebuild gets it on a fresh system.
mkdir "$tmp/debian" "$tmp/src"
cp "$pmns"/root_* "$tmp/src/"
printf 'root {\n}\n' >"$tmp/debian/root"
(cd "$tmp/src" && PCP_BINADM_DIR=$(dirname "$theirs") "$theirs" "$tmp/debian/root" $(ls root_*) \
    "$tmp/debian/root.new") >"$tmp/debian.log" 2>&1 || { cat "$tmp/debian.log"; die "Debian's pmnsmerge failed"; }
"$prefix/bin/pmnscomp" -d -n "$tmp/debian/root.new" "$tmp/debian/root.bin" >/dev/null ||
    die "pmnscomp of Debian's namespace failed"

# CMake
cat >"$tmp/src/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.20)
project(rebuild LANGUAGES C)
find_package(pmkit REQUIRED)
file(GLOB roots RELATIVE ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/root_*)
list(SORT roots)
pcp_merge_pmns(OUTPUT root SOURCES ${roots} TARGET pmns_root)
pcp_merge_pmns(OUTPUT root.bin SOURCES ${roots} IMAGE TARGET pmns_image)
EOF
run "$tmp/cmake.log" cmake -S "$tmp/src" -B "$tmp/cbuild" -DCMAKE_PREFIX_PATH="$prefix"
run "$tmp/cbuild.log" cmake --build "$tmp/cbuild"
cmp -s "$tmp/cbuild/root" "$tmp/debian/root.new" || die "pcp_merge_pmns: not Debian's namespace"
cmp -s "$tmp/cbuild/root.bin" "$tmp/debian/root.bin" || die "pcp_merge_pmns IMAGE: not pmnscomp's image"

# make
cat >"$tmp/src/Makefile" <<'EOF'
PMNSMERGE := $(shell pkg-config libpcp --variable=pmnsmerge)
ROOTS := $(sort $(wildcard root_*))
all: $(BUILD)/root
$(BUILD)/empty:
	printf 'root {\n}\n' >$@
$(BUILD)/root: $(BUILD)/empty $(ROOTS)
	$(PMNSMERGE) -f $^ $@
EOF
mkdir "$tmp/mbuild"
run "$tmp/make.log" env PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" make -C "$tmp/src" BUILD="$tmp/mbuild"
cmp -s "$tmp/mbuild/root" "$tmp/debian/root.new" || die "make with pkg-config's pmnsmerge: not Debian's namespace"

# an edit merges again
sleep 1
last=$tmp/src/$(cd "$tmp/src" && ls root_* | tail -1)
sed -e 's/^root {/root {\n\tzzz_added\t510:0:1\n/' "$last" >"$tmp/edited" && cp "$tmp/edited" "$last"
run "$tmp/cbuild2.log" cmake --build "$tmp/cbuild"
grep -q 'zzz_added' "$tmp/cbuild/root" || die "pcp_merge_pmns did not merge again after an edit"
run "$tmp/make2.log" env PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" make -C "$tmp/src" BUILD="$tmp/mbuild"
grep -q 'zzz_added' "$tmp/mbuild/root" || die "make did not merge again after an edit"
echo "PASS: pcp_merge_pmns and make build Debian's namespace from its root_* files"
