#!/bin/sh
# labels_diff.sh ORACLE_DIR PROBE_PMKIT PROBE_PCP AGENT_PMKIT AGENT_PCP PMINFO_PMKIT
#
# Labels, pmkit against Debian's PCP 6.0.3.  probe_labels.c, built once
# against each pair of libraries, runs its text cases, then a local
# context over each of lbl_agent.c's three agents (its own label method,
# the default one, interface 2; the agent built against each
# libpcp_pmda), with $PCP_SYSCONF_DIR pointing at: no labels directory, an
# empty one, and one with label files (an optional/ directory, a dot file,
# a subdirectory, a file that does not parse, later files overriding
# earlier ones and the host's own labels), and the few more below.  Then pminfo -l: Debian's
# pminfo with the Debian-built agent against PMINFO_PMKIT with pmkit's, on
# the same agents and directories.  Stdout and exit statuses must be
# identical once each side's agent path (of the same length) is written
# AGENT; stderr is not
# compared (PCP's agents library warns where pmkit's does not), but a
# sanitizer report on pmkit's side fails the test.
set -u
[ $# -eq 6 ] || {
    echo "usage: $0 ORACLE PROBE_PMKIT PROBE_PCP AGENT_PMKIT AGENT_PCP PMINFO_PMKIT" >&2
    exit 2
}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
oracle=$1 probe_pmkit=$2 probe_pcp=$3 agent_pmkit=$4 agent_pcp=$5 pminfo_pmkit=$6
need_oracle "$oracle/usr/lib/pcp/bin/pmcpp" "Debian's pmcpp"
need_oracle "$oracle/usr/bin/pminfo" "Debian's pminfo"
need_built "$probe_pcp" "$agent_pcp"
need_ours "$probe_pmkit" "probe_labels"
need_ours "$pminfo_pmkit" pminfo
make_tmp labels_diff
# the agents at paths of one length: the label {"agent":PATH} and the
# lengths printed with it are then alike
mkdir "$tmp/a" "$tmp/b"
cp "$agent_pmkit" "$tmp/a/lbl.so" && cp "$agent_pcp" "$tmp/b/lbl.so" || exit 1
agent_pmkit=$tmp/a/lbl.so agent_pcp=$tmp/b/lbl.so
export PCP_DERIVED_CONFIG= PCP_BINADM_DIR="$oracle/usr/lib/pcp/bin"
unset PMNS_DEFAULT PCP_PMCDCONF_PATH
pmns=$here/lbl.pmns

# The label directories: none (no labels/), empty, and files.
mkdir -p "$tmp/none" "$tmp/empty/labels" "$tmp/files/labels/optional" "$tmp/files/labels/sub"
l=$tmp/files/labels
echo '{"site":"lab", "rack" : 7, "k":"a", "hostname":"from a file"}' >"$l/a.json"
echo '{"k":"b","zone":{"name":"z1"}}' >"$l/b.conf"
echo '{"k":"upper"}' >"$l/Z.json"
echo '{"hidden":1}' >"$l/.dot.json"
echo '{"sub":1}' >"$l/sub/y.json"
echo '{"broken":' >"$l/c.json"
printf '{"multi":\n  "line"}\n' >"$l/d"
echo '{"k":"optional","opt":true}' >"$l/optional/o.json"
echo '{"opt":false}' >"$l/optional/p"

# More directories as machines have them: only an empty optional/ (what
# Debian's pcp package installs), one file whose nesting and order a new
# set keeps, the same beside an empty optional/, and an empty object
# first, which makes the set exist before the file's labels come.
mkdir -p "$tmp/onlyopt/labels/optional" "$tmp/single/labels" "$tmp/single_opt/labels/optional" \
    "$tmp/lead_empty/labels"
for d in single single_opt lead_empty; do
    echo '{"z":{"m":1,"k":"v"},"a":true}' >"$tmp/$d/labels/b.json"
done
echo '{}' >"$tmp/lead_empty/labels/a.json"
dirs="none empty files onlyopt single single_opt lead_empty"

ndiff=0 nruns=0
# compare WHAT [quiet]: $tmp/pmkit.{out,err} against $tmp/pcp.out; unless
# quiet (pminfo -v prints nothing), Debian's side must have printed more
# than the exit line the script adds
compare() {
    nruns=$((nruns + 1))
    if [ -z "${2:-}" ] && [ "$(wc -l <"$tmp/pcp.out")" -le 1 ]; then
        ndiff=$((ndiff + 1))
        echo "FAIL: $1: Debian's side printed nothing"
    elif ! cmp -s "$tmp/pmkit.out" "$tmp/pcp.out"; then
        ndiff=$((ndiff + 1))
        echo "DIFF: $1 (< Debian, > pmkit)"
        diff "$tmp/pcp.out" "$tmp/pmkit.out" | shorten | sed 's/^/  /'
    fi
    if grep -q -E 'runtime error:|AddressSanitizer|LeakSanitizer' "$tmp/pmkit.err"; then
        ndiff=$((ndiff + 1))
        echo "FAIL: $1: sanitizer reports"
        shorten <"$tmp/pmkit.err"
    fi
}

# side SIDE CMD...: CMD's stdout and exit status into $tmp/SIDE.out, the
# agent's path written AGENT
side() {
    s=$1
    shift
    "$@" >"$tmp/$s.raw" 2>"$tmp/$s.err"
    echo "exit $?" >>"$tmp/$s.raw"
    sed -e "s|$agent_pmkit|AGENT|g" -e "s|$agent_pcp|AGENT|g" "$tmp/$s.raw" >"$tmp/$s.out"
}

side pmkit "$probe_pmkit" text
side pcp "$probe_pcp" text
compare "text"

for dir in $dirs; do
    for init in lbl_init lbl7_init lbl2_init; do
        export PCP_SYSCONF_DIR="$tmp/$dir"
        side pmkit "$probe_pmkit" local "$agent_pmkit" "$init" "$pmns"
        side pcp "$probe_pcp" local "$agent_pcp" "$init" "$pmns"
        compare "local $init, labels directory $dir"
    done
done

for dir in none files onlyopt single; do
    export PCP_SYSCONF_DIR="$tmp/$dir"
    for init in lbl_init lbl7_init lbl2_init; do
        for args in "-l lbl" "-dfml -T lbl.multi lbl.other" "-lM lbl.single" "-l -I lbl" \
            "-l event.flags 249.0 249.1 249.7 249.1.1" "-l -t -I 249.0" "-lT 249.0" "-lv lbl"; do
            # shellcheck disable=SC2086
            side pmkit "$pminfo_pmkit" -L -K clear -K "add,249,$agent_pmkit,$init" -n "$pmns" $args
            # shellcheck disable=SC2086
            side pcp "$oracle/usr/bin/pminfo" -L -K clear -K "add,249,$agent_pcp,$init" -n "$pmns" $args
            case $args in
            -lv*) compare "pminfo $args ($init, labels directory $dir)" quiet ;;
            *) compare "pminfo $args ($init, labels directory $dir)" ;;
            esac
        done
    done
done

if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $nruns runs differ"
    exit 1
fi
echo "PASS: labels identical to Debian's in $nruns runs"
