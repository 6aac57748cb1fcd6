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

case ${1-} in
-h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
-*) die "unknown option '$1'; $usage" ;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/build}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
