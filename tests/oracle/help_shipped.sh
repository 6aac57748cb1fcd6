#!/bin/sh
# help_shipped.sh CHKHELP ORACLE_DIR
# help_shipped.sh --debian-on LIBDIR ORACLE_DIR
#
# Every help database Debian's pcp package ships (each help.dir under
# ORACLE_DIR that is a file, not a link, with its help.pag), read with a
# namespace that holds no names by two chkhelps whose stdout, stderr and
# exit status must be identical:
#   CHKHELP     pmkit's chkhelp against Debian's (ORACLE_DIR/usr/lib/pcp/
#               bin/chkhelp): chkhelp -p -i -O -H (every PMID and InDom with
#               both texts) and chkhelp with no option (the integrity check);
#   --debian-on Debian's chkhelp run on pmkit's libraries (LIBDIR first on
#               the library path, checked to be the ones loaded) against the
#               same binary on Debian's, with -p -i -O -H, -p, -i -O and no
#               option: -p and -i walk the open databases through
#               libpcp_pmda's __pmdaHelpTab (PCP's table of handles, read
#               field by field by the binary), so this shows pmkit's table
#               has PCP's layout and contents.
#
# Exit 0 identical, 1 any difference, 2 usage, 77 skip (Debian's chkhelp or
# its databases missing).
set -u
lib=
if [ $# = 3 ] && [ "$1" = --debian-on ]; then
    lib=$2 oracle=$3
elif [ $# = 2 ]; then
    ours=$1 oracle=$2
else
    echo "Usage: help_shipped.sh CHKHELP ORACLE_DIR" >&2
    echo "       help_shipped.sh --debian-on LIBDIR ORACLE_DIR" >&2
    exit 2
fi
theirs=$oracle/usr/lib/pcp/bin/chkhelp
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
need_oracle "$theirs" "Debian's chkhelp"
PCP_BINADM_DIR=$oracle/usr/lib/pcp/bin PCP_DERIVED_CONFIG=
export PCP_BINADM_DIR PCP_DERIVED_CONFIG
unset PMNS_DEFAULT PCP_ALT_CPP

if [ -z "$lib" ]; then
    need_ours "$ours" chkhelp
    make_tmp help_shipped
    set -- "-p -i -O -H" "" # the option sets each database is read with
    what="shipped help oracle: pmkit's chkhelp"
else
    need_ours "$lib/libpcp_pmda.so.3" libpcp_pmda
    lib=$(abspath "$lib")
    unset LD_LIBRARY_PATH
    make_tmp debian_chkhelp
    # pmkit's two libraries alone, so nothing else answers for them
    mkdir "$tmp/lib"
    ln -s "$lib/libpcp.so.3" "$tmp/lib/libpcp.so.3"
    ln -s "$lib/libpcp_pmda.so.3" "$tmp/lib/libpcp_pmda.so.3"
    san=$(sanitizer_env "$lib/libpcp.so.3")
    # shellcheck disable=SC2086
    loaded=$(env $san LD_LIBRARY_PATH="$tmp/lib" LD_TRACE_LOADED_OBJECTS=1 "$theirs" 2>&1)
    for l in libpcp.so.3 libpcp_pmda.so.3; do
        if ! printf '%s\n' "$loaded" | grep -q "$l => $tmp/lib/$l"; then
            echo "FAIL: Debian's chkhelp does not load pmkit's $l:"
            printf '%s\n' "$loaded" | sed 's/^/    /'
            exit 1
        fi
    done
    # "ours": Debian's binary on pmkit's libraries (a sanitized libpcp
    # with its runtimes preloaded)
    printf '#!/bin/sh\nexec env %s LD_LIBRARY_PATH="%s" "%s" "$@"\n' "$san" "$tmp/lib" \
        "$theirs" >"$tmp/ours.sh"
    chmod +x "$tmp/ours.sh"
    ours=$tmp/ours.sh
    set -- "-p -i -O -H" "-p" "-i -O" ""
    what="Debian's chkhelp on pmkit's libraries"
fi
printf 'root {\n}\n' >"$tmp/empty.pmns"

find "$oracle" -name help.dir -type f | sort >"$tmp/list"
n=0 nruns=0 ndiff=0
while IFS= read -r d; do
    base=${d%.dir}
    n=$((n + 1))
    for opts in "$@"; do
        nruns=$((nruns + 1))
        # shellcheck disable=SC2086
        "$ours" -n "$tmp/empty.pmns" $opts "$base" >"$tmp/ours.out" 2>"$tmp/ours.err"
        r1=$?
        # shellcheck disable=SC2086
        "$theirs" -n "$tmp/empty.pmns" $opts "$base" >"$tmp/theirs.out" 2>"$tmp/theirs.err"
        r2=$?
        bad=
        [ $r1 = $r2 ] || bad="$bad exit($r1 vs $r2)"
        cmp -s "$tmp/ours.out" "$tmp/theirs.out" || bad="$bad stdout"
        cmp -s "$tmp/ours.err" "$tmp/theirs.err" || bad="$bad stderr"
        if [ -n "$bad" ]; then
            report_diff "${base#"$oracle"/}:$bad" "chkhelp -n EMPTY $opts $base"
        fi
    done
done <"$tmp/list"

if [ $n = 0 ]; then # the extract is there (need_oracle), so it is broken
    echo "FAIL: no help.dir under $oracle (remove it and run: sh scripts/deps.sh test)"
    exit 1
fi
if [ $ndiff != 0 ]; then
    echo "$what: FAILED, $ndiff of $nruns runs differ ($n databases)"
    exit 1
fi
echo "$what: $nruns runs identical to Debian's ($n databases)"
exit 0
