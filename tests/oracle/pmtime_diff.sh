#!/bin/sh
# pmtime_diff.sh SRCDIR BUILDDIR: pmval under time control (-p, -g) against
# Debian's, over the cases of pmtime_cases.
#
# Each case is run three times against a fresh fake_pmtime (BUILDDIR's,
# from fake_pmtime.c) playing the case's steps: Debian's pmval on Debian's
# libraries (the unpacked pcp and libpcp-gui2 packages); pmkit's pmval
# (BUILDDIR/bin); Debian's pmval on pmkit's libpcp and libpcp_gui
# (BUILDDIR/lib first).  Stdout, stderr, the exit status and everything
# the client sent (fake_pmtime's log: the bytes of each message) must be
# the same for all three.  Debian's own server, pmtime, is a Qt program
# that needs a display and is not run.
#
# PMTIME_DIFF_KEEP=DIR keeps the outputs in DIR.
# Exit 0 identical, 1 a difference or failure, 77 skip (Debian's pmval,
# libpcp_gui or pcp-testsuite's archives missing).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
if [ $# -ne 2 ]; then
    echo "Usage: pmtime_diff.sh SRCDIR BUILDDIR" >&2
    exit 2
fi
src=$(cd "$1" && pwd) || exit 2
build=$(cd "$2" && pwd) || exit 2
oracle=${PMKIT_ORACLE_DIR:-$src/.cache/oracle/pcp}
theirs=$oracle/usr/bin/pmval
gui=$oracle/../libpcp-gui2/usr/lib
archives=$oracle/../pcp-testsuite/var/lib/pcp/testsuite/archives
need_oracle "$theirs" "Debian's pmval"
if [ ! -f "$gui/libpcp_gui.so.2" ]; then
    echo "SKIP: Debian's libpcp_gui.so.2 not found in $gui (run: sh scripts/deps.sh test)"
    exit 77
fi
if [ ! -f "$archives/ok-foo.meta" ]; then
    echo "SKIP: pcp-testsuite's archives not found in $archives (run: sh scripts/deps.sh test)"
    exit 77
fi
need_ours "$build/bin/pmval" pmval
need_ours "$build/bin/fake_pmtime" fake_pmtime
make_tmp pmtime_diff
san_env=$(sanitizer_env "$build/lib/libpcp.so.3")

# The fixed agent of the pminfo golden cases for the live cases (-L), each
# side's built against its own libpcp_pmda.
fn=$src/tests/cli/pminfo/fixed_agent.pmns
mkdir -p "$tmp/theirs" "$tmp/ours" || exit 1
cc=${CC:-cc}
if ! "$cc" -shared -fPIC -w -I/usr/include -o "$tmp/theirs/fixed.so" \
    "$src/tests/cli/pminfo/fixed_agent.c" ||
    ! "$cc" -shared -fPIC -w -I"$build/include" -o "$tmp/ours/fixed.so" \
        "$src/tests/cli/pminfo/fixed_agent.c"; then
    echo "FAIL: building fixed_agent.c"
    exit 1
fi

# Nothing called pmtime on the path: -g must fail to start it.
PATH=/usr/bin:/bin
TZ=UTC
PCP_DERIVED_CONFIG=
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin # Debian's libpcp runs its pmcpp on -n's file
export PATH TZ PCP_DERIVED_CONFIG PCP_BINADM_DIR
unset PCP_HOST PCP_ARCHIVE PMNS_DEFAULT
dead=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' \
    2>/dev/null) || {
    echo "SKIP: python3 is needed to pick a free port"
    exit 77
}
have_pmtime=$(command -v pmtime)

# For -g: a pmtime that runs fake_pmtime (FAKE_STEPS) on a free port and
# says the port as PCP's pmtime does; its arguments are logged.
mkdir -p "$tmp/bin" || exit 1
cat >"$tmp/bin/pmtime" <<EOS
#!/bin/sh
echo "pmtime \$*" >"$tmp/args"
# shellcheck disable=SC2086 # the steps are words
"$build/bin/fake_pmtime" "$tmp/port" "$tmp/log" \$FAKE_STEPS </dev/null >/dev/null 2>"$tmp/server.err" &
s=\$!
i=0
while [ ! -s "$tmp/port" ] && [ \$i -lt 600 ] && kill -0 \$s 2>/dev/null; do
    sleep 0.1
    i=\$((i + 1))
done
echo "port=\$(cat "$tmp/port" 2>/dev/null)"
exec >/dev/null
wait \$s
echo "fake_pmtime: exit \$?" >"$tmp/done"
EOS
chmod +x "$tmp/bin/pmtime" || exit 1

# run SIDE N STEPS ARGS: case N on one side into $tmp/SIDE.N.{out,err,log}
run() {
    side=$1 n=$2 steps=$3 args=$4
    case $side in
    theirs) bin="env LD_LIBRARY_PATH=$gui $theirs" dir=$tmp/theirs ;;
    ours) bin=$build/bin/pmval dir=$tmp/ours ;;
    mixed) bin="env LD_LIBRARY_PATH=$build/lib:$gui $san_env $theirs" dir=$tmp/ours ;;
    esac
    rm -f "$tmp/port" "$tmp/log" "$tmp/args" "$tmp/done"
    : >"$tmp/log"
    port= spawn=
    case $steps in
    g:*)
        spawn=$tmp/bin:
        FAKE_STEPS=${steps#g:}
        export FAKE_STEPS
        ;;
    none) ;;
    *)
        # shellcheck disable=SC2086 # the steps are words
        "$build/bin/fake_pmtime" "$tmp/port" "$tmp/log" $steps 2>"$tmp/server.err" &
        server=$!
        i=0
        while [ ! -s "$tmp/port" ] && [ $i -lt 600 ] && kill -0 $server 2>/dev/null; do
            sleep 0.1
            i=$((i + 1))
        done
        port=$(cat "$tmp/port" 2>/dev/null)
        if [ -z "$port" ]; then
            echo "FAIL: fake_pmtime did not start for case $n"
            cat "$tmp/server.err"
            exit 1
        fi
        ;;
    esac
    fk="-L -K clear -K add,30,$dir/fixed.so,fixed_init -n $fn"
    line=$(printf '%s' "${port:+-p $port }$args" | sed -e "s|@A@|$archives|g" \
        -e "s|@DEAD@|$dead|g" -e "s|@FK@|$fk|g")
    # a live context's lines are stamped with the time of each fetch
    live='s/^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\.[0-9][0-9][0-9]/HH:MM:SS.mmm/'
    case $args in *@FK@*) ;; *) live= ;; esac
    (
        cd "$tmp" || exit 1
        PATH=$spawn$PATH
        eval "$bin $line"
        echo "exit $?"
    ) >"$tmp/raw.out" 2>"$tmp/raw.err" </dev/null
    sed -e "s|$dir|SIDE|g" -e "$live" <"$tmp/raw.out" >"$tmp/$side.$n.out"
    sed -e "s|$dir|SIDE|g" <"$tmp/raw.err" >"$tmp/$side.$n.err"
    if [ -n "$port" ]; then
        # a client that never got through leaves the server waiting for one
        # (its log empty); once a client has spoken the server ends by itself
        [ -s "$tmp/log" ] || kill $server 2>/dev/null
        wait $server || echo "fake_pmtime: exit $?" >>"$tmp/log"
        cat "$tmp/server.err" >>"$tmp/log"
    elif [ -n "$spawn" ]; then
        # the server pmtime started ends when the client does
        i=0
        while [ ! -f "$tmp/done" ] && [ $i -lt 700 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        cat "$tmp/done" "$tmp/server.err" >>"$tmp/log" 2>/dev/null
        cat "$tmp/args" "$tmp/log" >"$tmp/log.all" 2>/dev/null
        mv "$tmp/log.all" "$tmp/log"
    fi
    mv "$tmp/log" "$tmp/$side.$n.log"
}

n=0 ndiff=0
while IFS='|' read -r steps args; do
    case $steps in
    '' | '#'*) continue ;;
    esac
    steps=$(echo $steps)
    n=$((n + 1))
    case $args in
    *-g*)
        if [ -n "$have_pmtime" ]; then
            echo "case $n skipped: a pmtime is on the path ($have_pmtime)"
            continue
        fi
        ;;
    esac
    for side in theirs ours mixed; do
        run $side $n "$steps" "$args"
    done
    for side in ours mixed; do
        for f in out err log; do
            if ! cmp -s "$tmp/theirs.$n.$f" "$tmp/$side.$n.$f"; then
                ndiff=$((ndiff + 1))
                echo "DIFF case $n ($side, $f): steps $steps | $args"
                diff "$tmp/theirs.$n.$f" "$tmp/$side.$n.$f" | shorten | sed 's/^/  /'
            fi
        done
    done
done <"$here/pmtime_cases"

if [ -n "${PMTIME_DIFF_KEEP:-}" ]; then
    mkdir -p "$PMTIME_DIFF_KEEP" && cp "$tmp"/*.out "$tmp"/*.err "$tmp"/*.log "$PMTIME_DIFF_KEEP"/
fi
echo "$n cases, $ndiff differences (Debian's pmval and libpcp_gui against pmkit's pmval, and Debian's pmval on pmkit's libraries)"
[ $ndiff -eq 0 ] && [ $n -gt 0 ]
