#!/bin/sh
# agents_diff.sh debian SRCDIR
# agents_diff.sh pmkit SRCDIR BUILDDIR PROBE
#
# pmkit's own simple and trivial agents (SRCDIR/pmdas) against PCP's
# (built from the sources in Debian's pcp package by seed_agents.sh), both
# loaded as DSOs into a local context by the same library:
#   debian  everything is built here against Debian's headers and
#           libpcp_pmda/libpcp (pmkit's agents with cc, their help with
#           Debian's newhelp, tests/oracle/probe_store.c with cc), and run
#           through Debian's pminfo.  Both pairs are also built as
#           daemons and, when the test runs as root (-U needs it), driven
#           over pipes by Debian's dbpmda (agents_dbpmda.in);
#   pmkit   pmkit's agents as the build made them (BUILDDIR/pmdas: DSOs,
#           help compiled by pmkit's newhelp), PCP's agents built against
#           pmkit's libraries, pmkit's pminfo (BUILDDIR/bin) and PROBE
#           (probe_store.c built against pmkit).
# Each side gets its own $PCP_PMDAS_DIR, whose simple/simple.conf is reset
# to "sec,min,hour" before every run.  The runs:
#   pminfo -L -K ... -n PMNS -dm | -f | -l  simple trivial
#   probe_store over every script in agents_cases/ (stores, fetches,
#   simple.conf changes, instance lookups, whether help text exists)
# and both sides' stdout and exit statuses must be identical once
# agents_normalise.awk has checked and masked the clock and CPU values and
# each side's directory is written DIR; agents_sane.sh also requires every
# run to succeed on its own with no sanitizer report
# (agents_lib.sh).
# Help wording and the agents' stderr (their messages) are not compared.
#
# AGENTS_DIFF_KEEP=DIR keeps both sides' outputs and stderr in DIR.
#
# Exit 0 identical, 1 any difference or failure, 2 usage, 77 skip (Debian's
# pcp extract, its agent sources or a compiler missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
. "$here/agents_lib.sh"
usage() {
    echo "Usage: agents_diff.sh debian SRCDIR | pmkit SRCDIR BUILDDIR PROBE" >&2
    exit 2
}
[ $# -ge 2 ] || usage
flavour=$1
src=$(cd "$2" && pwd) || usage
case $flavour in
debian) [ $# = 2 ] || usage ;;
pmkit)
    [ $# = 4 ] || usage
    build=$(cd "$3" && pwd) || usage
    probe=$4
    ;;
*) usage ;;
esac
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
cc=${CC:-cc}

make_tmp agents_diff

# PCP's agents; also the shared namespace and Debian's pmcpp for its libpcp.
if [ $flavour = debian ]; then
    sh "$here/seed_agents.sh" "$tmp/theirs" debian
else
    sh "$here/seed_agents.sh" "$tmp/theirs" pmkit "$src" "$build"
fi
rc=$?
[ $rc = 0 ] || exit $rc
pmns=$tmp/theirs/pmns
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin
PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_PMCDCONF_PATH

# newhelp_debian AGENT: AGENT's help compiled by Debian's newhelp
newhelp_debian() {
    "$oracle/usr/lib/pcp/bin/newhelp" -n "$pmns" -o "$tmp/ours/$1/help" "$src/pmdas/$1/help"
}

# pmkit's agents
for a in simple trivial; do
    mkdir -p "$tmp/ours/$a" || exit 1
    if [ $flavour = debian ]; then
        if ! "$cc" -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -shared -fPIC -Wl,--no-undefined \
            -o "$tmp/ours/$a/pmda_$a.so" "$src/pmdas/$a/$a.c" -lpcp_pmda -lpcp; then
            echo "FAIL: building pmdas/$a against Debian's libpcp_pmda"
            exit 1
        fi
        newhelp_debian $a || exit 1
        if ! "$cc" -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -o "$tmp/ours/$a/pmda$a" \
            "$src/pmdas/$a/$a.c" "$src/pmdas/$a/main.c" -lpcp_pmda -lpcp ||
            ! "$cc" -w -I"$oracle/usr/lib/pcp/pmdas/$a" -o "$tmp/theirs/$a/pmda$a" \
                "$oracle/usr/lib/pcp/pmdas/$a/$a.c" -lpcp_pmda -lpcp; then
            echo "FAIL: building the $a daemons against Debian's libpcp_pmda"
            exit 1
        fi
    else
        cp "$build/pmdas/$a/pmda_$a.so" "$tmp/ours/$a/" || exit 1
        if [ -f "$build/pmdas/$a/help.dir" ]; then
            cp "$build/pmdas/$a/help.dir" "$build/pmdas/$a/help.pag" "$tmp/ours/$a/" || exit 1
        else
            echo "NOTE: no help.dir from pmkit's newhelp in $build/pmdas/$a; using Debian's"
            newhelp_debian $a || exit 1
        fi
    fi
done

if [ $flavour = debian ]; then
    pminfo=$oracle/usr/bin/pminfo
    probe=$tmp/probe_store
    debian_probe "$probe"
else
    pminfo=$build/bin/pminfo
fi
need_ours "$pminfo" pminfo
need_ours "$probe" probe_store

# dbpmda_runs DIR: the daemons of DIR driven by Debian's dbpmda (the debian
# flavour as root only)
# shellcheck disable=SC2317 # called by agents_runs
dbpmda_runs() {
    [ "$flavour" = debian ] && [ "$(id -u)" = 0 ] || return 0
    echo "sec,min,hour" >"$1/simple/simple.conf"
    echo "== dbpmda"
    sed -e '/^#/d' -e "s|@DIR@|$1|g" -e "s|@USER@|$(id -un)|g" "$here/agents_dbpmda.in" \
        >"$1.dbpmda.in"
    PCP_PMDAS_DIR=$1 timeout 60 "$oracle/usr/bin/dbpmda" -n "$pmns" -e \
        <"$1.dbpmda.in" >"$1.dbpmda.out"
    rc=$?
    # dbpmda prints the addresses of results
    sed -e 's/dump from 0x[0-9a-f]*/dump from ADDR/' "$1.dbpmda.out"
    echo "== exit $rc"
}
opts="-dm -f -l"
# shellcheck disable=SC2086
agents_runs "$tmp/theirs" "$pminfo" "$probe" dbpmda_runs $opts
# shellcheck disable=SC2086
agents_runs "$tmp/ours" "$pminfo" "$probe" dbpmda_runs $opts

if [ -n "${AGENTS_DIFF_KEEP:-}" ]; then
    mkdir -p "$AGENTS_DIFF_KEEP" && cp "$tmp"/*.out "$tmp"/*.err "$AGENTS_DIFF_KEEP"/
fi
if ! agents_verdict "$tmp/ours" "$tmp/theirs" \
    "pmkit's agents and PCP's answer differently ($flavour library; < pmkit's, > PCP's)"; then
    exit 1
fi
echo "agents oracle ($flavour library): pmkit's simple and trivial answer as PCP's in $nruns runs"
exit 0
