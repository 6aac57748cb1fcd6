#!/bin/sh
# pipe_access_diff.sh BUILDDIR ORACLE_DIR
#
# Debian's own pmdapipe binary (ORACLE_DIR/usr/lib/pcp/pmdas/pipe) run on
# pmkit's libraries (BUILDDIR/lib) and on Debian's, with a configuration
# whose [access] section names users and groups that allow and disallow
# its commands, and every debug option of the agent's own: what it logs
# while reading the configuration and setting up its access lists
# (__pmAccAddOp, __pmAccAddUser, __pmAccAddGroup and the dumps
# __pmAccDumpUsers and __pmAccDumpGroups write) must be identical, up to
# the first exchange with pmcd (stdin is empty, so the agent then stops;
# how it says so is libpcp_pmda's, not compared here).  Times and process
# ids in the log are put aside.
# The users and groups named are ones every Debian system has (a bare
# debootstrap has no postgres or ssl-cert, and Debian's agent then stops
# before dumping its lists).
# Exit 0 identical, 1 failure, 2 usage, 77 skip (the oracle extract missing).
set -u
[ $# = 2 ] || { echo "Usage: pipe_access_diff.sh BUILDDIR ORACLE_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
build=$(cd "$1" && pwd) || exit 2
agent=$(abspath "$2")/usr/lib/pcp/pmdas/pipe/pmdapipe
[ -x "$agent" ] || { echo "SKIP: $agent is missing (sh scripts/deps.sh test unpacks pcp)"; exit 77; }
[ -f /usr/lib/libpcp_pmda.so.3 ] || [ -f /usr/lib/x86_64-linux-gnu/libpcp_pmda.so.3 ] ||
    { echo "SKIP: Debian's libpcp_pmda.so.3 is not installed"; exit 77; }
need_ours "$build/lib/libpcp.so.3" "libpcp"
make_tmp pipe_access
cat >"$tmp/pipe.conf" <<'EOF'
# name           user       command
rw_syscalls      root       echo one $1
bdev_trace       daemon     echo two $1
third            nobody     echo three

[access]
allow user root : *;
allow user sys : bdev_trace;
disallow user daemon : rw_syscalls, third;
allow group nogroup : rw_syscalls;
allow group adm : bdev_trace, third;
disallow group root : *;
allow group adm : third;
EOF
san=$(sanitizer_env "$build/lib/libpcp.so.3")
for side in pcp pmkit; do
    rm -f "$tmp/pipe.log"
    if [ $side = pmkit ]; then
        # shellcheck disable=SC2086 # $san: the assignments an ASan build needs
        (cd "$tmp" && env LD_LIBRARY_PATH="$build/lib" $san "$agent" -c pipe.conf -l pipe.log \
            -D appl0,appl1,appl2 </dev/null >/dev/null 2>&1)
    else
        (cd "$tmp" && "$agent" -c pipe.conf -l pipe.log -D appl0,appl1,appl2 </dev/null \
            >/dev/null 2>&1)
    fi
    [ -f "$tmp/pipe.log" ] || { echo "FAIL: $side: pmdapipe wrote no log"; exit 1; }
    sed -e 's/^\[[^]]*\] pmdapipe([0-9]*)/[TIME] pmdapipe(PID)/' -e '/^Log for pmdapipe/d' \
        -e '/version exchange/,$d' "$tmp/pipe.log" >"$tmp/$side.log"
done
if ! grep -q '^Group access list:' "$tmp/pcp.log"; then
    echo "SKIP: Debian's pmdapipe did not dump its access lists here:"
    head -20 "$tmp/pcp.log"
    exit 77
fi
if ! cmp -s "$tmp/pcp.log" "$tmp/pmkit.log"; then
    echo "FAIL: Debian's pmdapipe logs differently on pmkit's libraries (< Debian, > pmkit):"
    diff "$tmp/pcp.log" "$tmp/pmkit.log" | head -40
    exit 1
fi
echo "PASS: Debian's pmdapipe sets up its access lists on pmkit's libraries as on Debian's ($(wc -l <"$tmp/pcp.log") log lines identical)"
