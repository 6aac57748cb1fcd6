#!/bin/sh
# seed_agents.sh DIR [debian | pmkit SRCDIR BUILDDIR]
#
# Builds PCP's own "simple" (domain 253) and "trivial" (domain 250) agents
# as DSOs from the sources shipped in Debian's pcp package (the oracle,
# .cache/oracle/pcp of this repository, or $PMKIT_ORACLE_DIR), ready for a
# local context.  Layout of DIR (also the value to give PCP_PMDAS_DIR, which
# is where the agents look for their help text and simple.conf):
#
#   DIR/simple/pmda_simple.so  simple_init    DIR/simple/help.{dir,pag}
#   DIR/simple/simple.conf     ("sec,min,hour": simple.now's instances)
#   DIR/trivial/pmda_trivial.so trivial_init  DIR/trivial/help.{dir,pag}
#   DIR/pmns                   both agents' names, domains substituted
#                              (a copy of seed.pmns)
#
# The flavour says which libpcp_pmda the DSOs are built against: "debian"
# (default: /usr/include/pcp, -lpcp_pmda -lpcp) for Debian's tools, or
# "pmkit" (BUILDDIR/include, BUILDDIR/lib with an rpath) for pmkit's;
# a DSO must be loaded by the libpcp it was linked with.  The help files are
# compiled by Debian's newhelp in both flavours (simple's help names its
# instance domains SIMPLE.n: replaced by 253.n, as PCP's Install does with
# its preprocessor).
#
# Exit 0 built, 1 a build step failed, 2 usage, 77 the oracle or a compiler
# is missing (callers skip).
set -u
if [ $# -lt 1 ]; then
    echo "Usage: seed_agents.sh DIR [debian | pmkit SRCDIR BUILDDIR]" >&2
    exit 2
fi
dir=$1 flavour=${2:-debian}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
src=$oracle/usr/lib/pcp/pmdas
newhelp=$oracle/usr/lib/pcp/bin/newhelp
cc=${CC:-cc}

case $flavour in
debian)
    cflags="-I/usr/include"
    libs="-lpcp_pmda -lpcp"
    if [ ! -f /usr/include/pcp/pmda.h ]; then
        echo "SKIP: Debian's libpcp-pmda3-dev headers are not installed"
        exit 77
    fi
    ;;
pmkit)
    if [ $# -ne 4 ]; then
        echo "Usage: seed_agents.sh DIR pmkit SRCDIR BUILDDIR" >&2
        exit 2
    fi
    inc=$(cd "$4/include" && pwd) || exit 2
    lib=$(cd "$4/lib" && pwd) || exit 2
    cflags="-I$inc"
    libs="-L$lib -Wl,-rpath,$lib -lpcp_pmda -lpcp"
    ;;
*)
    echo "seed_agents.sh: unknown flavour \"$flavour\" (debian or pmkit)" >&2
    exit 2
    ;;
esac
for f in simple/simple.c simple/help simple/domain.h trivial/trivial.c trivial/help \
    trivial/domain.h; do
    if [ ! -f "$src/$f" ]; then
        echo "SKIP: PCP's agent source $src/$f not found (run: sh scripts/deps.sh test)"
        exit 77
    fi
done
need_oracle "$newhelp" "Debian's newhelp"
if ! command -v "$cc" >/dev/null 2>&1; then
    echo "SKIP: no C compiler ($cc)"
    exit 77
fi

mkdir -p "$dir/simple" "$dir/trivial" || exit 1
dir=$(cd "$dir" && pwd)
cp "$here/seed.pmns" "$dir/pmns" || exit 1
echo "sec,min,hour" >"$dir/simple/simple.conf"

# build AGENT: DSO and help files
build() {
    a=$1
    # shellcheck disable=SC2086
    if ! "$cc" -shared -fPIC -O1 -w $cflags -I"$src/$a" -o "$dir/$a/pmda_$a.so" \
        "$src/$a/$a.c" $libs; then
        echo "seed_agents.sh: building $a against $flavour's libpcp_pmda failed" >&2
        return 1
    fi
    sed 's/^@ SIMPLE\./@ 253./' "$src/$a/help" >"$dir/$a/help.src"
    if ! PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin "$newhelp" -n "$dir/pmns" -v 2 \
        -o "$dir/$a/help" <"$dir/$a/help.src"; then
        echo "seed_agents.sh: newhelp failed on $a's help" >&2
        return 1
    fi
}
build simple || exit 1
build trivial || exit 1
exit 0
