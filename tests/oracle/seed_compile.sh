#!/bin/sh
# seed_compile.sh SRCDIR BUILDDIR PROBE
#
# PCP's own simple.c and trivial.c, exactly as Debian's pcp package ships
# them (the oracle extract, .cache/oracle/pcp or $PMKIT_ORACLE_DIR), must
# build against pmkit and run in pmkit's local context:
#  1. each is compiled against pmkit's headers (BUILDDIR/include; the
#     compiler's warnings are shown, not fatal) and linked as a DSO against
#     pmkit's libpcp_pmda and libpcp (BUILDDIR/lib) with -Wl,--no-undefined,
#     so every function it calls, the daemon-only ones of its main()
#     included, must exist in pmkit's libraries (the missing ones are
#     listed);
#  2. the two DSOs are loaded by pmkit's pminfo (BUILDDIR/bin) with -L -K,
#     and by PROBE (probe_store.c built against pmkit) over the scripts in
#     agents_cases/; the same DSOs built against Debian's libraries
#     (seed_agents.sh) are loaded by Debian's pminfo and by probe_store.c
#     built against Debian's libpcp.  Names, PMIDs, descriptors, help text
#     (both sides read the help files Debian's newhelp made), values,
#     instance lists and store results must be identical once
#     agents_normalise.awk has checked and masked the clock and CPU values.
#
# Exit 0 built and identical, 1 failure, 2 usage, 77 skip (the oracle
# extract, Debian's development files or a compiler missing).
set -u
if [ $# != 3 ]; then
    echo "Usage: seed_compile.sh SRCDIR BUILDDIR PROBE" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
. "$here/agents_lib.sh"
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
probe=$3
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
seeds=$oracle/usr/lib/pcp/pmdas
cc=${CC:-cc}

make_tmp seed_compile

# Debian's side first: it also checks the oracle, the sources and the compiler.
sh "$here/seed_agents.sh" "$tmp/debian" debian
rc=$?
[ $rc = 0 ] || exit $rc

# 1. PCP's sources against pmkit.
fail=0
for a in simple trivial; do
    mkdir -p "$tmp/pmkit/$a" || exit 1
    if ! "$cc" -Wall -shared -fPIC -I"$build/include" -I"$seeds/$a" \
        -o "$tmp/pmkit/$a/pmda_$a.so" "$seeds/$a/$a.c" -L"$build/lib" -Wl,-rpath,"$build/lib" \
        -Wl,--no-undefined -lpcp_pmda -lpcp >"$tmp/$a.log" 2>&1; then
        echo "FAIL: PCP's $a.c does not build against pmkit:"
        missing=$(sed -n "s/.*undefined reference to \`\([^']*\)'.*/\1/p" "$tmp/$a.log" | sort -u)
        if [ -n "$missing" ]; then
            echo "  functions pmkit's libpcp_pmda/libpcp lack:" $missing
        fi
        head -40 "$tmp/$a.log" | sed 's/^/  /'
        fail=1
        continue
    fi
    if [ -s "$tmp/$a.log" ]; then
        echo "NOTE: compiler messages for PCP's $a.c against pmkit's headers:"
        head -20 "$tmp/$a.log" | sed 's/^/  /'
    fi
    cp "$tmp/debian/$a/help.dir" "$tmp/debian/$a/help.pag" "$tmp/pmkit/$a/" || exit 1
done
[ $fail = 0 ] || exit 1

# 2. Both builds in their own library's local context.
debian_probe "$tmp/probe_debian"
need_ours "$build/bin/pminfo" pminfo
need_ours "$probe" probe_store
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin
PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_PMCDCONF_PATH
pmns=$tmp/debian/pmns

agents_runs "$tmp/debian" "$oracle/usr/bin/pminfo" "$tmp/probe_debian" : -dmtT -f
agents_runs "$tmp/pmkit" "$build/bin/pminfo" "$probe" : -dmtT -f

if ! agents_verdict "$tmp/pmkit" "$tmp/debian" \
    "PCP's agents answer differently in pmkit's local context (< pmkit, > Debian)"; then
    exit 1
fi
echo "seed agents: PCP's simple.c and trivial.c build against pmkit and answer as with Debian's libraries in $nruns runs"
exit 0
