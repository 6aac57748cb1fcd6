#!/bin/sh
# pmnsedit_diff.sh BINDIR ORACLE_DIR GEN|DIR [SEED] [COUNT]
#
# Differential test of pmkit's pmnsmerge, pmnsadd and pmnsdel (in BINDIR)
# against Debian's (ORACLE_DIR/usr/lib/pcp/bin, the pcp package unpacked;
# its pmnsadd is a shell script sourcing ORACLE_DIR/etc/pcp.env, which
# reads $PCP_CONF, default /etc/pcp.conf).
#
# A case is a directory of namespace files and a file "cmd": one command
# line (optional VAR=value words, then pmnsmerge, pmnsadd or pmnsdel and
# its arguments) run in the case's directory.  GEN is gen_pmnsedit, run as
# `GEN SEED COUNT DIR` (default seed 1, count 200), or DIR holds fixed
# cases (tests/oracle/pmnsedit_cases).  Each case runs twice, in copies of
# its directory: with Debian's tools and with pmkit's.  These must be
# identical:
#   - standard output and the exit status;
#   - standard error, the loader's and preprocessor's messages included
#     (pmkit's tools run with PMKIT_DIAGNOSTICS=pcp, as they do when
#     standard error is not a terminal); Debian's pmnsadd names its
#     temporary file and counts its lines, where pmkit names the input
#     file and counts the input's own lines: Debian's messages are
#     renamed and renumbered (renamed below) before the comparison;
#   - every file of the directory afterwards, names and bytes (no
#     temporary or lock file may be left).
#
# Cases listed in DIR/known_diffs (deliberate fixes, docs/compat.md) must
# differ instead; their runs are reported as KNOWN.  A generated case
# whose Debian output holds 511:4095:1023 (PCP's empty non-leaf bug) is a
# GENERATOR BUG.  Where Debian's pmnsmerge fails on an input it leaves
# empty the outfile it created (or, with -f, truncated) first, pmkit's
# leaves it as it was (docs/compat.md): Debian's empty outfile is then
# taken for the case's own (none, or the one it had) and counted.  PMNSEDIT_KEEP=DIR
# keeps the generated cases.
#
# Exit 0 all identical, 1 any difference, 2 usage, 77 skip (Debian's tools
# or pcp.conf missing).
set -u
if [ $# -lt 3 ] || [ $# -gt 5 ]; then
    echo "Usage: pmnsedit_diff.sh BINDIR ORACLE_DIR GEN|DIR [SEED] [COUNT]" >&2
    exit 2
fi
bindir=$1 oracle=$2 gen=$3 seed=${4:-1} count=${5:-200}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oracle_lib.sh"
theirs=$oracle/usr/lib/pcp/bin
for t in pmnsmerge pmnsdel pmnsadd pmcpp; do
    need_oracle "$theirs/$t" "Debian's $t"
done
[ -f "$oracle/etc/pcp.env" ] || need_oracle "$oracle/etc/pcp.env" "Debian's pcp.env"
PCP_CONF=${PCP_CONF:-/etc/pcp.conf}
if [ ! -f "$PCP_CONF" ]; then
    echo "SKIP: no pcp.conf at $PCP_CONF (Debian's pcp-conf package; or set PCP_CONF)"
    exit 77
fi
for t in pmnsmerge pmnsdel pmnsadd; do
    need_ours "$bindir/$t" "$t"
done
bindir=$(cd "$bindir" && pwd) oracle=$(cd "$oracle" && pwd) theirs=$oracle/usr/lib/pcp/bin
gen=$(abspath "$gen")
make_tmp pmnsedit_diff
mkdir "$tmp/tmpfile"
PCP_DIR=$oracle PCP_BINADM_DIR=$theirs PCP_TMPFILE_DIR=$tmp/tmpfile PCP_DERIVED_CONFIG=
PMKIT_DIAGNOSTICS=pcp LC_ALL=C
export PCP_CONF PCP_DIR PCP_BINADM_DIR PCP_TMPFILE_DIR PCP_DERIVED_CONFIG PMKIT_DIAGNOSTICS LC_ALL
unset PMNS_DEFAULT PCP_ALT_CPP PCP_ENV_DONE

known=
if [ -d "$gen" ]; then
    cases=$gen
    label="cases in $gen"
    [ -f "$gen/known_diffs" ] && known=$(sed -e 's/#.*//' "$gen/known_diffs")
elif [ -f "$gen" ] && [ -x "$gen" ]; then
    label="generated cases (seed $seed)"
    generate PMNSEDIT_KEEP
else
    echo "FAIL: GEN is neither an executable nor a directory: $gen"
    exit 1
fi

# stderr as pmkit names things: Debian's pmnsadd names its temporary
# file (the input file for pmkit) and counts that file's lines from its
# first one, after the K lines of upper levels put in front of the input
# (pmkit counts the input's own lines; it gives the upper levels' lines the
# same numbers PCP does).  K is 3 per component of the input's base, 0
# for a whole namespace.
renamed() {
    k=0
    case $(awk '{ print $1; exit }' "$case/cmd") in
    *pmnsadd | pmnsadd)
        if ! grep -q '^root {' "$case/$1" 2>/dev/null; then
            base=$(awk 'NF >= 2 && $2 == "{" { print $1; exit }' "$case/$1" 2>/dev/null)
            k=$(echo "$base" | tr '.' ' ' | wc -w)
            k=$((k * 3))
        fi
        ;;
    esac
    sed -e "s|$PCP_TMPFILE_DIR/pmnsadd\.[A-Za-z0-9]*/tmp|$1|g" |
        awk -v f="$1" -v k="$k" '{
            p = "[" f ":"
            i = index($0, p)
            if (k > 0 && i == 1) {
                rest = substr($0, length(p) + 1)
                n = rest + 0
                if (n > k)
                    $0 = p (n - k) substr(rest, length(n "") + 1)
            }
            print
        }'
}

# run SIDE CASE: the case's command with SIDE's tools, in $tmp/SIDE/case;
# the outcome (stdout, exit, stderr lines, files) in $tmp/SIDE.all
run() {
    side=$1 case=$2
    if [ "$side" = pcp ]; then dir=$theirs; else dir=$bindir; fi
    rm -rf "$tmp/$side"
    mkdir "$tmp/$side"
    cp -R "$case" "$tmp/$side/case"
    rm -f "$tmp/$side/case/cmd"
    cmd=$(sed -e 's/\(^\| \)\(pmnsmerge\|pmnsadd\|pmnsdel\) /\1"$dir\/\2" /' "$case/cmd")
    input=$(awk '{ print $NF; exit }' "$case/cmd")
    (cd "$tmp/$side/case" && eval "$cmd") >"$tmp/$side.out" 2>"$tmp/$side.err" </dev/null
    status=$?
    # Debian's pmnsmerge creates (or with -f truncates) its outfile before
    # reading an input and leaves it empty when one fails to load; pmkit's
    # leaves it as it was (docs/compat.md): that empty file counts as the
    # case's own
    if [ "$side" = pcp ] && [ $status != 0 ] && [ -f "$tmp/$side/case/out" ] &&
        [ ! -s "$tmp/$side/case/out" ] && [ -s "$case/out" -o ! -e "$case/out" ]; then
        rm -f "$tmp/$side/case/out"
        [ -e "$case/out" ] && cp "$case/out" "$tmp/$side/case/out"
        nempty=$((nempty + 1))
    fi
    {
        echo "exit $status"
        cat "$tmp/$side.out"
        echo "--- stderr"
        if [ "$side" = pcp ]; then renamed "$input" <"$tmp/$side.err"; else cat "$tmp/$side.err"; fi
        for f in $(cd "$tmp/$side/case" && find . -mindepth 1 | LC_ALL=C sort); do
            if [ -d "$tmp/$side/case/$f" ]; then
                echo "--- directory $f"
            else
                echo "--- file $f"
                cat "$tmp/$side/case/$f"
            fi
        done
    } >"$tmp/$side.all"
}

ndiff=0 nknown=0 ncases=0 nempty=0
for case in "$cases"/*; do
    [ -f "$case/cmd" ] || continue
    name=$(basename "$case")
    ncases=$((ncases + 1))
    run pcp "$case"
    run kit "$case"
    if [ ! -d "$gen" ] && grep -q '511:4095:1023' "$tmp/pcp.all"; then
        echo "GENERATOR BUG $name: Debian's output has an empty non-leaf"
        ndiff=$((ndiff + 1))
        continue
    fi
    is_known=0
    case " $(echo $known) " in
    *" $name "*) is_known=1 ;;
    esac
    if cmp -s "$tmp/pcp.all" "$tmp/kit.all"; then
        if [ $is_known = 1 ]; then
            echo "FAIL $name: listed in known_diffs but identical to Debian's"
            ndiff=$((ndiff + 1))
        fi
        continue
    fi
    if [ $is_known = 1 ]; then
        nknown=$((nknown + 1))
        echo "KNOWN $name"
        continue
    fi
    ndiff=$((ndiff + 1))
    echo "DIFF $name: $(cat "$case/cmd")"
    diff "$tmp/pcp.all" "$tmp/kit.all" | shorten | sed 's/^/  /'
done
echo "pmnsedit: $ncases $label, $ndiff differing, $nknown known differences ($nempty failed merges where Debian's left an empty outfile behind)"
if [ $ndiff -gt 0 ]; then
    keep_hint PMNSEDIT_KEEP
    exit 1
fi
[ $ncases -gt 0 ] || exit 1
exit 0
