#!/bin/sh
# debian_binaries_pmconfig.sh LIBDIR ORACLE_DIR
#
# Debian's pmconfig (ORACLE_DIR/usr/lib/pcp/bin/pmconfig), run once on
# Debian's libpcp and once on pmkit's (LIBDIR first on the library path):
# it reads pcp.conf through __pmConfig and __pmNativeConfig and the
# library's features through __pmAPIConfig.  Over this machine's pcp.conf
# and two written here (quotes, blanks in names, empty names and values,
# CRs, '#' lines, lines without '='), with and without variables already
# in the environment, for every option and a list of names, and with a
# pcp.conf that is missing: stdout, stderr and the exit status must be
# identical.  pmconfig -L lists pmkit's features (docs/compat.md,
# pmGetAPIConfig): the same names in the same order, less the two PCP
# lists only when built with OpenSSL and SASL.
#
# Exit 0 identical, 1 any difference, 2 usage, 77 skip.
set -u
if [ $# != 2 ]; then
    echo "Usage: debian_binaries_pmconfig.sh LIBDIR ORACLE_DIR" >&2
    exit 2
fi
lib=$1 oracle=$2
pmconfig=$oracle/usr/lib/pcp/bin/pmconfig
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$pmconfig" "Debian's pmconfig"
need_ours "$lib/libpcp.so.3" libpcp
lib=$(abspath "$lib")
san=$(sanitizer_env "$lib/libpcp.so.3")
unset LD_LIBRARY_PATH PCP_CONF PCP_DIR A B C

make_tmp debian_pmconfig
debian_on_ours "$pmconfig" pmconfig
printf 'A=1\n# c\nB="two words"\nC=%ssq%s\n\nPCP_X=${A}/y\nD\nE=\nPCP_HOME=x=y\nQ=%s\n' "'" "'" "'" >"$tmp/one.conf"
printf 'A=1\n  G=lead\n#x=1\n =bad\n=nv\nH=crlf\r\nI=a b # c\nJ==\nK=x' >"$tmp/two.conf"

nruns=0 ndiff=0
run() { # ENV-ASSIGNMENTS... -- ARGS...
    nruns=$((nruns + 1))
    env "$@" >"$tmp/theirs.out" 2>"$tmp/theirs.err"
    r2=$?
    # shellcheck disable=SC2086
    env $san LD_LIBRARY_PATH="$tmp/lib" "$@" >"$tmp/ours.out" 2>"$tmp/ours.err"
    r1=$?
    bad=
    [ $r1 = $r2 ] || bad="$bad exit($r1 vs $r2)"
    cmp -s "$tmp/ours.out" "$tmp/theirs.out" || bad="$bad stdout"
    cmp -s "$tmp/ours.err" "$tmp/theirs.err" || bad="$bad stderr"
    [ -z "$bad" ] || report_diff "$bad" "$*"
}
for conf in "$tmp/one.conf" "$tmp/two.conf" /etc/pcp.conf; do
    [ -f "$conf" ] || continue
    for opt in -a -s -l "" "A B C Z PCP_X PCP_VAR_DIR"; do
        # shellcheck disable=SC2086
        run PCP_CONF="$conf" "$pmconfig" $opt
        # shellcheck disable=SC2086
        run PCP_CONF="$conf" A=env B="in env" "$pmconfig" $opt
    done
done
run PCP_CONF="$tmp/none.conf" "$pmconfig" -a
run PCP_DIR="$tmp" "$pmconfig" -a
run "$pmconfig" -x

# -L: pmkit's own features, by PCP's names and in PCP's order
"$pmconfig" -L | sed 's/=.*//' | grep -v -x -e openssl_version -e sasl_version >"$tmp/theirs.names"
# shellcheck disable=SC2086
env $san LD_LIBRARY_PATH="$tmp/lib" "$pmconfig" -L | sed 's/=.*//' >"$tmp/ours.names"
nruns=$((nruns + 1))
if [ ! -s "$tmp/theirs.names" ] || ! cmp -s "$tmp/ours.names" "$tmp/theirs.names"; then
    ndiff=$((ndiff + 1))
    echo "DIFF pmconfig -L: names (< ours, > Debian's less openssl_version and sasl_version)"
    diff "$tmp/ours.names" "$tmp/theirs.names" | sed 's/^/  /'
fi

if [ $ndiff != 0 ]; then
    echo "Debian's pmconfig on pmkit's libpcp: FAILED, $ndiff of $nruns runs differ"
    exit 1
fi
echo "Debian's pmconfig on pmkit's libpcp: $nruns runs identical"
exit 0
