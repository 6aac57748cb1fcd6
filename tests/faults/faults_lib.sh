# faults_lib.sh - sourced by the scripts of tests/faults: a scratch
# directory, skips, and the fixtures every script writes with.
# shellcheck shell=sh

# setup BINDIR: the tools under test first on PATH, a scratch directory
# $tmp (removed on exit, unmounted first if a script mounted $tmp/fs),
# inputs for each tool in it, and the script's working directory there
setup() {
    bindir=$(cd "$1" && pwd) || exit 1
    PATH=$bindir:$PATH
    export PATH
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmkit-faults.XXXXXX") || exit 1
    trap 'cd /; cleanup_mounts; rm -rf "$tmp"' EXIT
    trap 'exit 1' HUP INT TERM
    cd "$tmp" || exit 1
    unset PMKIT_OUTFILE_FAULT PMKIT_INPUT_LIMIT PMNS_DEFAULT PCP_NAMESPACE
    fixtures
    nfail=0 ncheck=0
}

cleanup_mounts() {
    if [ -n "${mounted:-}" ]; then
        umount "$mounted" 2>/dev/null
        mounted=
    fi
}

# need_root WHAT: skip (77) unless root
need_root() {
    if [ "$(id -u)" != 0 ]; then
        echo "SKIP: $1 needs root (CI runs as root)"
        exit 77
    fi
}

# node NAME MAJOR MINOR: a private character device in the scratch
# directory (never the system's), or skip when mknod is refused
node() {
    if ! mknod "$1" c "$2" "$3" 2>/dev/null; then
        echo "SKIP: mknod is refused here (a container without CAP_MKNOD?)"
        exit 77
    fi
}

# The inputs: a preprocessor source, a namespace, a help source, a map
# specification, and second versions of the last three.
fixtures() {
    printf '#define X one\nline X\n' >in.cpp
    printf 'root {\n    a 1:0:0\n    b 1:0:1\n}\n' >ns
    printf 'root {\n    a 1:0:0\n    b 1:0:1\n    c 1:0:2\n}\n' >ns2
    printf '@ a first\nthe text of a\n@ b second\n' >help.src
    printf '@ a FIRST\nanother text of a, longer\n@ b SECOND\nb has one now\n' >help2.src
    printf 'group {\n    a A\n    b B\n}\n' >map.spec
}

# ok COND MESSAGE: count a check; report it when COND (a shell command
# string) fails
ok() {
    ncheck=$((ncheck + 1))
    if ! eval "$1"; then
        nfail=$((nfail + 1))
        echo "FAIL: $2"
    fi
}

# is_chr PATH MAJOR MINOR: PATH is still that character device
is_chr() {
    [ -c "$1" ] && [ ! -L "$1" ] &&
        [ "$(stat -c '%t:%T' "$1")" = "$(printf '%x:%x' "$2" "$3")" ]
}

# temporaries DIR: the names of temporaries left in DIR (none: empty)
temporaries() {
    ls -a "$1" | grep '\.tmp' || true
}

# finish NAME: the verdict
finish() {
    if [ "$nfail" -gt 0 ]; then
        echo "FAIL: $1: $nfail of $ncheck checks failed"
        exit 1
    fi
    echo "PASS: $1: $ncheck checks"
    exit 0
}
