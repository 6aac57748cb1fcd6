# bench/bench_lib.sh: the preamble the bench/*.sh drivers share; sourced,
# never run.  A driver sets `me` (its name in messages) and `usage`, then
#   . "$(dirname "$0")/bench_lib.sh"
# which gives it say and die (messages "me: ..." on stderr; die exits 1),
# answers -h/--help with the driver's header comment, refuses any other
# option with the usage, and sets top (the tree) and build (the driver's
# first argument, default build/ at the top, made absolute).
# shellcheck shell=sh disable=SC2154 # me and usage: the driver's
say() { printf '%s: %s\n' "$me" "$*" >&2; }
die() { say "$*"; exit 1; }

# bench_positive MESSAGE VALUE...: die with MESSAGE unless every VALUE is a
# positive integer.
bench_positive() {
    msg=$1
    shift
    for v in "$@"; do
        case $v in '' | *[!0-9]* | 0) die "$msg" ;; esac
    done
}

# bench_archive DIR ARGS...: make sure DIR/a is the archive gen_archive
# (from $build/bin) writes with ARGS; an archive there made by the same
# generator with the same ARGS (DIR/stamp says) is kept, anything else in
# DIR is replaced.
bench_archive() {
    ba_dir=$1
    shift
    ba_gen=$build/bin/gen_archive
    [ -x "$ba_gen" ] || die "no $ba_gen; build pmkit first (cmake --build $build)"
    ba_stamp="$(cksum <"$ba_gen") $*"
    if [ ! -f "$ba_dir/stamp" ] || [ "$(cat "$ba_dir/stamp")" != "$ba_stamp" ]; then
        rm -rf "$ba_dir"
        mkdir -p "$ba_dir"
        say "writing $ba_dir/a ($*)"
        "$ba_gen" "$@" "$ba_dir/a" || die "gen_archive failed"
        printf '%s\n' "$ba_stamp" >"$ba_dir/stamp"
    fi
}

# bench_settle DIR: the files of DIR dropped from the page cache and read
# back whole, in order.  How fast read() copies a cached file depends on
# how its pages came there (written record by record, or read in large
# runs: up to 2.7 times apart on this project's VM), and pmkit's reads of
# an archive, a copy and a decoding of about twice its cost, move with it:
# settled, every run reads the files in the same state whatever wrote them
# or read them before.  Needs GNU dd (iflag=nocache).
bench_settle() {
    for bs_f in "$1"/*; do
        [ -f "$bs_f" ] || continue
        dd if="$bs_f" iflag=nocache count=0 status=none || die "dd could not drop $bs_f"
        cat "$bs_f" >/dev/null || die "could not read $bs_f"
    done
}

# bench_best RAW: from bench/run's raw outputs RAW.pmkit.out and RAW.pcp.out
# ("CASE SECONDS ..." a round per line), each case's best round as
# "K CASE SECONDS" (pmkit) and "P CASE SECONDS" (Debian's library), for a
# driver's table of goals; nothing (status 1) when either file is missing.
bench_best() {
    [ -f "$1.pmkit.out" ] && [ -f "$1.pcp.out" ] || return 1
    {
        sed 's/^/K /' "$1.pmkit.out"
        sed 's/^/P /' "$1.pcp.out"
    } | awk '
    { key = $1 " " $2; if (!(key in best) || $3 + 0 < best[key]) best[key] = $3 + 0 }
    END { for (key in best) print key, best[key] }'
}

case ${1-} in
-h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
-*) die "unknown option '$1'; $usage" ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
