#!/bin/sh
# pmval_diff.sh [--debian-lib | --debian-bin] SRCDIR BUILDDIR [KIND...]
#
# pmkit's pmval (BUILDDIR/bin/pmval, on pmkit's libraries) against Debian's
# (the unpacked pcp package, with Debian's libpcp_gui from the unpacked
# libpcp-gui2 beside it), over the cases of pmval_cases whose KIND is one
# of those given (default: usage local host archive):
#   usage    option errors, usage text, version: no metrics source;
#   local    -L local contexts over the fixed agent of the pminfo golden
#            cases (SRCDIR/tests/cli/pminfo/fixed_agent.c), the fetch-group
#            probe's agent (fg_agent.c: event records) and PCP's simple
#            and trivial agents (seed_agents.sh), each side's built against
#            its own libpcp_pmda, each side with its own $PCP_PMDAS_DIR;
#   host     Debian's pmcd, started here on a free loopback port with its
#            own agent, the fixed agent and PCP's simple as DSOs (both
#            sides talk to the same pmcd); @D@ is a port nobody listens on;
#   archive  -U (every record) over pcp-testsuite's archives (@A@);
#   interp   -a (PM_MODE_INTERP) over pcp-testsuite's archives.
# (@X@ is a directory of damaged copies of ok-foo, for archive and interp.)
# stdout, stderr and the exit status of each case must be identical once
# each side's agent directory is written SIDE.  Live values are the fixed
# agent's or counts of fetches (simple.numfetch, simple.color), so no
# value needs masking; archive times are printed in UTC.
#
# --debian-lib: the pmval under test is SRCDIR/pmval/main.c built here
# against Debian's libpcp and libpcp_gui (with PCP's libpcp.h from the
# sample agent's sources, and pmkit's <pcp/pmtime.h>) and run over Debian's agents: pmval's own logic over a correct
# library, interpolation included, whatever pmkit's library can do yet.
#
# --debian-bin: the pmval under test is Debian's own binary run on pmkit's
# libpcp (BUILDDIR/lib first on LD_LIBRARY_PATH, Debian's libpcp_gui
# beside it) with the agents built against pmkit's libpcp_pmda.
#
# PMVAL_DIFF_KEEP=DIR keeps both sides' outputs in DIR.
# Exit 0 identical, 1 a difference or failure, 2 usage, 77 skip (Debian's
# pmval, libpcp_gui, pmcd, agent sources, libpcp-dev or the archives
# missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
debian_lib= debian_bin=
if [ "${1:-}" = --debian-lib ]; then
    debian_lib=1
    shift
elif [ "${1:-}" = --debian-bin ]; then
    debian_bin=1
    shift
fi
if [ $# -lt 2 ]; then
    echo "Usage: pmval_diff.sh [--debian-lib | --debian-bin] SRCDIR BUILDDIR [KIND...]" >&2
    exit 2
fi
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
shift 2
kinds=${*:-usage local host archive}
oracle=${PMKIT_ORACLE_DIR:-$here/../../.cache/oracle/pcp}
theirs=$oracle/usr/bin/pmval
gui=$oracle/../libpcp-gui2/usr/lib
archives=$oracle/../pcp-testsuite/var/lib/pcp/testsuite/archives
ours=$build/bin/pmval
need_oracle "$theirs" "Debian's pmval"
if [ ! -f "$gui/libpcp_gui.so.2" ]; then
    echo "SKIP: Debian's libpcp_gui.so.2 not found in $gui (run: sh scripts/deps.sh test)"
    exit 77
fi
[ -n "$debian_lib" ] || need_ours "$ours" pmval
case " $kinds " in
*" archive "* | *" interp "*)
    if [ ! -f "$archives/ok-foo.meta" ]; then
        echo "SKIP: pcp-testsuite's archives not found in $archives (run: sh scripts/deps.sh test)"
        exit 77
    fi
    ;;
esac
make_tmp pmval_diff
cc=${CC:-cc}
if [ -n "$debian_lib" ]; then
    sample=$oracle/usr/lib/pcp/pmdas/sample
    if [ ! -f /usr/include/pcp/pmapi.h ] || [ ! -f "$sample/libpcp.h" ]; then
        echo "SKIP: Debian's libpcp3-dev or PCP's libpcp.h ($sample) is missing"
        exit 77
    fi
    ours=$tmp/pmval
    # <pcp/pmtime.h> is not in libpcp3-dev: pmkit's (the same API) beside
    # Debian's headers, and Debian's libpcp_gui.so.2 to link with
    mkdir -p "$tmp/guiinc/pcp" && cp "$src/libpcp_gui/pmtime.h" "$tmp/guiinc/pcp/" || exit 1
    if ! "$cc" -std=gnu11 -Wall -Wextra -Werror -I/usr/include -I"$sample" \
        -I"$src/toolsupport" -I"$tmp/guiinc" -o "$ours" "$src/pmval/main.c" \
        "$src/toolsupport/outfile.c" "$gui/libpcp_gui.so.2" -Wl,-rpath,"$gui" -lpcp -lm; then
        echo "FAIL: building pmval/main.c against Debian's libpcp"
        exit 1
    fi
fi
fn=$src/tests/cli/pminfo/fixed_agent.pmns

# Damaged copies of ok-foo (@X@): its data volume cut short at 1000 bytes
# (trunc), and 4 bytes of a record's body overwritten at 1100 (bad), where
# both libraries find the record corrupted, and 24 zero bytes after its
# last record (tail), where both end the archive at that record.
if [ -f "$archives/ok-foo.0" ]; then
    mkdir -p "$tmp/dmg" || exit 1
    for a in trunc bad tail; do
        cp "$archives/ok-foo.meta" "$tmp/dmg/$a.meta" &&
            cp "$archives/ok-foo.index" "$tmp/dmg/$a.index" || exit 1
    done
    head -c 1000 "$archives/ok-foo.0" >"$tmp/dmg/trunc.0" &&
        cp "$archives/ok-foo.0" "$tmp/dmg/bad.0" &&
        printf '\000\000\000\010' | dd of="$tmp/dmg/bad.0" bs=1 seek=1100 conv=notrunc 2>/dev/null &&
        cp "$archives/ok-foo.0" "$tmp/dmg/tail.0" && head -c 24 /dev/zero >>"$tmp/dmg/tail.0" ||
        exit 1
fi

# The agents, each side against its own library.
sh "$here/seed_agents.sh" "$tmp/theirs" debian >"$tmp/seed.out" 2>&1 || {
    sts=$?
    cat "$tmp/seed.out"
    exit $sts
}
[ -n "$debian_lib" ] ||
    sh "$here/seed_agents.sh" "$tmp/ours" pmkit "$src" "$build" >"$tmp/seed.out" 2>&1 || {
    sts=$?
    cat "$tmp/seed.out"
    exit $sts
}
if ! "$cc" -shared -fPIC -w -I/usr/include -o "$tmp/theirs/fixed.so" \
    "$src/tests/cli/pminfo/fixed_agent.c" ||
    { [ -z "$debian_lib" ] && ! "$cc" -shared -fPIC -w -I"$build/include" -o "$tmp/ours/fixed.so" \
        "$src/tests/cli/pminfo/fixed_agent.c"; }; then
    echo "FAIL: building fixed_agent.c"
    exit 1
fi
# The fetch-group probe's agent (events of both kinds), linked with each
# side's libpcp_pmda.
if ! "$cc" -shared -fPIC -w -I/usr/include -o "$tmp/theirs/fg.so" "$here/fg_agent.c" \
    -lpcp_pmda -lpcp ||
    { [ -z "$debian_lib" ] && ! "$cc" -shared -fPIC -w -I"$build/include" -o "$tmp/ours/fg.so" \
        "$here/fg_agent.c" -L"$build/lib" -Wl,-rpath,"$build/lib" -lpcp_pmda -lpcp; }; then
    echo "FAIL: building fg_agent.c"
    exit 1
fi

PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin
PCP_DERIVED_CONFIG=
TZ=UTC
export PCP_BINADM_DIR PCP_DERIVED_CONFIG TZ
unset PMNS_DEFAULT PCP_PMCDCONF_PATH PCP_HOST PCP_ARCHIVE

# Debian's pmcd for the host cases: pmcd's agent, fixed and simple (DSOs
# built against Debian's libraries: pmcd loads them into itself).
pmcd_pid=
trap 'stop_pmcd; cd /; rm -rf "$tmp"' EXIT
port= dead=
start_pmcd() {
    pmcd=$oracle/usr/lib/pcp/bin/pmcd
    pmcd_dso=$oracle/usr/lib/pcp/pmdas/pmcd/pmda_pmcd.so
    pmcd_pmns=$oracle/usr/lib/pcp/pmns/root_pmcd
    need_oracle "$pmcd" "Debian's pmcd"
    {
        sed -e '/^root {/,/^}/d' "$pmcd_pmns"
        printf 'root {\n    pmcd\n    simple\n    trivial\n    fixed\n}\n'
        sed -n -e '/^simple/,$p' "$tmp/theirs/pmns"
        sed -e '/^root {/,/^}/d' "$fn"
    } >"$tmp/host.pmns"
    cat >"$tmp/pmcd.conf" <<EOF
pmcd	2	dso	pmcd_init	$pmcd_dso
simple	253	dso	simple_init	$tmp/theirs/simple/pmda_simple.so
fixed	30	dso	fixed_init	$tmp/theirs/fixed.so
EOF
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' \
        2>/dev/null)
    dead=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' \
        2>/dev/null)
    if [ -z "$port" ] || [ -z "$dead" ]; then
        echo "SKIP: python3 is needed to pick a free port"
        exit 77
    fi
    mkdir -p "$tmp/run" || exit 1
    PCP_PMDAS_DIR=$tmp/theirs PCP_RUN_DIR=$tmp/run "$pmcd" -f -A -i 127.0.0.1 -p "$port" \
        -c "$tmp/pmcd.conf" -n "$tmp/host.pmns" -l "$tmp/pmcd.log" -s "$tmp/run/pmcd.socket" \
        -x "$tmp/pmcd.err" >"$tmp/pmcd.out" 2>&1 &
    pmcd_pid=$!
    wait_pmcd "$tmp/run/pmcd.socket" fixed
}

# run SIDE N ARGS: case N on one side into $tmp/SIDE.N.{out,err}
run() {
    side=$1 n=$2 args=$3
    dir=$tmp/$side
    [ -n "$debian_lib" ] && dir=$tmp/theirs
    fk="-L -K clear -K add,30,$dir/fixed.so,fixed_init -n $fn"
    sk="-L -K clear -K add,253,$dir/simple/pmda_simple.so,simple_init"
    sk="$sk -K add,250,$dir/trivial/pmda_trivial.so,trivial_init -n $dir/pmns"
    gk="-L -K clear -K add,251,$dir/fg.so,fg_init -n $here/fg.pmns"
    line=$(printf '%s' "$args" | sed -e "s|@FK@|$fk|g" -e "s|@SK@|$sk|g" -e "s|@GK@|$gk|g" \
        -e "s|@H@|127.0.0.1:$port|g" -e "s|@D@|127.0.0.1:$dead|g" -e "s|@A@|$archives|g" -e "s|@X@|$tmp/dmg|g")
    if [ "$side" = ours ] && [ -n "$debian_bin" ]; then
        bin="env LD_LIBRARY_PATH=$build/lib:$gui $san_env $theirs"
    elif [ "$side" = ours ]; then
        bin=$ours
    else
        bin="env LD_LIBRARY_PATH=$gui $theirs"
    fi
    (
        cd "$tmp" || exit 1
        PCP_PMDAS_DIR=$dir
        export PCP_PMDAS_DIR
        # bounded: a pmval that carries on after a failed fetch would
        # print the error for ever
        eval "timeout 20 $bin $line"
        echo "exit $?"
    ) >"$tmp/raw.out" 2>"$tmp/raw.err" </dev/null
    sed -e "s|$dir|SIDE|g" -e "s|$theirs|pmval|g" -e "s|$ours|pmval|g" -e "s|$tmp/dmg|DMG|g" \
        <"$tmp/raw.out" >"$tmp/$side.$n.out"
    # an agent's log lines carry the time and the process
    sed -e "s|$dir|SIDE|g" -e "s|$theirs|pmval|g" -e "s|$ours|pmval|g" \
        -e 's/^\[[^]]*\] pmval([0-9]*) /[DATE] pmval(PID) /' <"$tmp/raw.err" >"$tmp/$side.$n.err"
}

# A sanitizer build's libpcp under Debian's pmval: the runtime preloaded,
# and the leaks of Debian's program not reported.
san_env=
if [ -n "$debian_bin" ]; then
    asan=$(ldd "$build/lib/libpcp.so.3" 2>/dev/null | awk '/libasan/ { print $3 }')
    [ -n "$asan" ] && san_env="LD_PRELOAD=$asan ASAN_OPTIONS=detect_leaks=0"
fi

n=0 ndiff=0 started=
while read -r kind args; do
    case $kind in
    '' | '#'*) continue ;;
    esac
    case " $kinds " in
    *" $kind "*) ;;
    *) continue ;;
    esac
    if [ "$kind" = host ] && [ -z "$started" ]; then
        start_pmcd
        started=1
    fi
    n=$((n + 1))
    run theirs $n "$args"
    run ours $n "$args"
    bad=
    cmp -s "$tmp/ours.$n.out" "$tmp/theirs.$n.out" || bad="$bad stdout/exit"
    cmp -s "$tmp/ours.$n.err" "$tmp/theirs.$n.err" || bad="$bad stderr"
    if [ -n "$bad" ]; then
        ndiff=$((ndiff + 1))
        echo "DIFF case $n ($kind):$bad"
        echo "  $args"
        echo "  --- stdout (< ours, > Debian's):"
        diff "$tmp/ours.$n.out" "$tmp/theirs.$n.out" | head -20 | sed 's/^/  /'
        echo "  --- stderr (< ours, > Debian's):"
        diff "$tmp/ours.$n.err" "$tmp/theirs.$n.err" | head -10 | sed 's/^/  /'
    fi
done <"$here/pmval_cases"

# Standard output that cannot be written: reported, exit 1 (Debian's
# pmval exits 0 with its output lost; docs/compat.md).
if [ -z "$debian_lib$debian_bin" ] && [ -w /dev/full ] && [ "$kinds" != "${kinds#*local}" ]; then
    n=$((n + 1))
    PCP_PMDAS_DIR=$tmp/ours "$ours" -L -K clear -K "add,30,$tmp/ours/fixed.so,fixed_init" \
        -n "$fn" -t 0.01 -s 2 fixed.i32 >/dev/full 2>"$tmp/full.err"
    sts=$?
    if [ $sts != 1 ] ||
        [ "$(cat "$tmp/full.err")" != "pmval: cannot write standard output: No space left on device" ]; then
        ndiff=$((ndiff + 1))
        echo "DIFF /dev/full: exit $sts, stderr:"
        sed 's/^/  /' "$tmp/full.err"
    fi
fi

# The client identity pmval stores on a host context: both builds of
# probe_clientid.c against the same pmcd.
if [ -n "$started" ]; then
    probe_ours=$build/bin/probe_clientid_pmkit probe_theirs=$build/bin/probe_clientid_pcp
    if [ -x "$probe_ours" ] && [ -x "$probe_theirs" ]; then
        n=$((n + 1))
        "$probe_theirs" "127.0.0.1:$port" >"$tmp/theirs.id" 2>&1
        echo "exit $?" >>"$tmp/theirs.id"
        "$probe_ours" "127.0.0.1:$port" >"$tmp/ours.id" 2>&1
        echo "exit $?" >>"$tmp/ours.id"
        if ! cmp -s "$tmp/ours.id" "$tmp/theirs.id" || ! grep -q '^whoami: "' "$tmp/ours.id"; then
            ndiff=$((ndiff + 1))
            echo "DIFF probe_clientid (< ours, > Debian's):"
            diff "$tmp/ours.id" "$tmp/theirs.id" | head -20 | sed 's/^/  /'
        fi
    else
        echo "note: probe_clientid not built against both libraries; not run"
    fi
fi

if [ -n "${PMVAL_DIFF_KEEP:-}" ]; then
    mkdir -p "$PMVAL_DIFF_KEEP" && cp "$tmp"/ours.* "$tmp"/theirs.* "$PMVAL_DIFF_KEEP"/ 2>/dev/null
fi
if [ $n = 0 ]; then
    echo "FAIL: no cases of kind $kinds in $here/pmval_cases"
    exit 1
fi
if [ $ndiff != 0 ]; then
    echo "FAIL: $ndiff of $n cases differ ($kinds)"
    exit 1
fi
echo "oracle: pmval, $n cases identical ($kinds)"
exit 0
