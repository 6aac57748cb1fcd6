#!/bin/sh
# getopt_diff.sh PROBE_PMKIT PROBE_PCP CASES [TESTSUITE]
#
# pmGetOptions, pmkit against Debian's libpcp: probe_getopt.c, built once
# against each library, runs every case of CASES (see getopt_cases) with
# the same argv and environment, in a directory holding the hosts files,
# archive folios and namespaces the cases name.  stdout, stderr and the
# exit status must be the same.  PCP_BINADM_DIR must name the directory
# of Debian's pmcpp, which its namespace loader runs; PCP_DERIVED_CONFIG is
# emptied, so that Debian's derived metrics stay out of the namespaces.  Left out of stderr: the namespace loader's
# own diagnostics ("Error Parsing ASCII PMNS" and the blank line PCP puts
# after some), which pmkit words in its file:line:col form (docs/compat.md).
set -u
[ $# -eq 3 ] || [ $# -eq 4 ] || { echo "usage: $0 PROBE_PMKIT PROBE_PCP CASES [TESTSUITE]" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
ours=$(abspath "$1") theirs=$(abspath "$2") cases=$(abspath "$3")
need_ours "$ours" "pmkit's probe_getopt"
need_oracle "$theirs" "probe_getopt built against Debian's libpcp" \
    "make test-deps installs libpcp3-dev"
need_oracle "${PCP_BINADM_DIR:-}/pmcpp" "Debian's pmcpp (\$PCP_BINADM_DIR)"
make_tmp getopt_diff
export PCP_DERIVED_CONFIG=

# Each side runs in a directory of its own holding the same files, as
# ./probe: the name the messages give and what argv[0] shows.
mkdir "$tmp/files" "$tmp/files/sub"
cd "$tmp/files" || exit 1
printf '  h1 other words\n\tc#d\n#e\n  # f\n\nlast' >hosts
: >empty
printf 'PCPFolio\nVersion: 1\n# note\nArchive: host1 /tmp/ar1\nArchive: host2 ar2 extra\nArchive:\t h3 \t ar3\n  Archive: h4 skipped\n' >folio
printf 'pcpfolio\nVersion: 1\n' >folio_badmagic
printf 'PCPFolio\n' >folio_noversion
printf 'PCPFolio\nVersion: 2\nArchive: h x\n' >folio_version2
printf 'PCPFolio\nVersion: 1\nArchive: h x\nArchive:\n' >folio_nohost
printf 'PCPFolio\nVersion: 1\nArchive:h x\n' >folio_nopath
printf 'PCPFolio\nVersion: 1 and more\nJunk\nArchive: h a\nArchive: h /b\nArchive: h #c' >folio_mixed
printf 'PCPFolio\nVersion: 1\nArchive: h rel\n' >sub/folio
printf 'root {\n    sample\n}\nsample {\n    long\n}\nsample.long {\n    one 29:0:0\n}\n' >pmns
printf 'a.b = 1\n  h1 other words\nc.d = 1 +\n' >derived
printf 'root {\n    a 1:0:0\n    b 1:0:0\n}\n' >pmns_dup

# the archives of Debian's pcp-testsuite (TESTSUITE), for the cases of
# archive contexts; without them those cases fail alike on both sides
if [ $# -eq 4 ] && [ -d "$4/archives" ] && [ -d "$4/badarchives" ]; then
    ln -s "$(cd "$4/archives" && pwd)" archives
    ln -s "$(cd "$4/badarchives" && pwd)" badarchives
fi
for side in pmkit pcp; do
    cp -R "$tmp/files" "$tmp/$side"
done
ln -s "$ours" "$tmp/pmkit/probe"
ln -s "$theirs" "$tmp/pcp/probe"

# without the namespace loader's own diagnostics (and PCP's blank line after)
drop_pmns_diagnostics() {
    awk '/Error Parsing ASCII PMNS/ { skip = 1; next }
         skip && $0 == "" { skip = 0; next }
         { skip = 0; print }'
}

ndiff=0 n=0
while IFS= read -r line; do
    case $line in '#'* | '') continue ;; esac
    n=$((n + 1))
    run_sides "env ${line%%:*} ./probe ${line#*:}" drop_pmns_diagnostics
done <"$cases"
if [ "$n" -eq 0 ]; then
    echo "FAIL: no case was run from $cases"
    exit 1
fi
if [ "$ndiff" -ne 0 ]; then
    echo "FAIL: $ndiff of $n cases differ (< Debian, > pmkit)"
    exit 1
fi
echo "PASS: $n pmGetOptions cases identical"
