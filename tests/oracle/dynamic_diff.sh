#!/bin/sh
# dynamic_diff.sh ORACLE_DIR PROBE_PMKIT PROBE_PCP AGENT_PMKIT AGENT_PCP PMNSCOMP
#
# Dynamic namespaces on the agent side, pmkit against Debian's libraries:
# probe_dynamic.c, built once against each, drives dyn_agent.c (built once
# against each libpcp_pmda).  "direct" calls the agent's methods itself
# and prints every callback the tree and dynamic-metric helpers make;
# "local" asks a local context what libpcp routes by domain; "names" asks
# a local context every names question at and below the dynamic roots,
# which libpcp passes to the agent's pmid, name and children methods,
# with the agent of interface 7, of interface 3,
# missing, and with no context at all.  Every output must be identical.
#
# pmkit's libpcp also answers from a binary namespace image, which
# Debian's cannot load: dyn.pmns compiled by PMNSCOMP must give pmkit's
# probe exactly Debian's answers from the text.
set -eu
[ $# -eq 6 ] || {
    echo "usage: $0 ORACLE PROBE_PMKIT PROBE_PCP AGENT_PMKIT AGENT_PCP PMNSCOMP" >&2
    exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$1/usr/lib/pcp/bin/pmcpp" "Debian's pmcpp"
need_built "$3" "$5"
make_tmp dynamic_diff
export PCP_DERIVED_CONFIG= PCP_BINADM_DIR="$1/usr/lib/pcp/bin"
run() { # run TAG WHO PROBE ARGS...
    tag=$1 who=$2 probe=$3
    shift 3
    "$probe" "$@" >"$tmp/$tag.$who" 2>"$tmp/$tag.$who.err" ||
        { echo "FAIL: $who probe ($tag) exited $?"; cat "$tmp/$tag.$who.err"; exit 1; }
    [ -s "$tmp/$tag.$who" ] || { echo "FAIL: $who probe ($tag) printed nothing"; exit 1; }
}
compare() { # compare TAG PMKIT_OUTPUT
    if ! diff -u "$tmp/$1.pcp" "$2"; then
        echo "FAIL: $1 answers differ (- Debian, + pmkit)"
        exit 1
    fi
    lines=$((lines + $(wc -l <"$2")))
}
lines=0
run direct pmkit "$2" direct "$4"
run direct pcp "$3" direct "$5"
compare direct "$tmp/direct.pmkit"
run local pmkit "$2" local "$here/dyn.pmns" "$4"
run local pcp "$3" local "$here/dyn.pmns" "$5"
compare local "$tmp/local.pmkit"

"$6" -d -n "$here/dyn.pmns" "$tmp/dyn.img" >"$tmp/pmnscomp.err" 2>&1 ||
    { echo "FAIL: pmnscomp dyn.pmns"; cat "$tmp/pmnscomp.err"; exit 1; }
for init in dyn_init dyn_init3 none noctx; do
    run "names-$init" pcp "$3" names "$here/dyn.pmns" "$5" $init
    run "names-$init" pmkit "$2" names "$here/dyn.pmns" "$4" $init
    compare "names-$init" "$tmp/names-$init.pmkit"
    run "image-$init" pmkit "$2" names "$tmp/dyn.img" "$4" $init
    compare "names-$init" "$tmp/image-$init.pmkit"
done
# the names mode must have reached the agent's names methods
for method in pmid name children; do
    grep -q "^  \[agent\] $method " "$tmp/names-dyn_init.pcp" ||
        { echo "FAIL: the names mode never called the agent's $method method"; exit 1; }
done
echo "PASS: $lines lines of dynamic-namespace answers identical (text and image)"
