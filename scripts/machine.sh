#!/bin/sh
# machine.sh: the two kinds of Debian 12 machine pmkit's suite must pass on,
# as chroots, and a way to run commands in them (docs/DEVELOPING.md).
#
#   scripts/machine.sh bare DIR                 Debian 12 (bookworm) from debootstrap alone
#   scripts/machine.sh configured DIR           the same, plus Debian's pcp installed and
#                                               configured the way PCP users have it
#   scripts/machine.sh run DIR CHECKOUT CMD...  CMD as root inside DIR, in CHECKOUT
#                                               (bind-mounted at /checkout)
#
# How: debootstrap (minbase, the smallest Debian: what a fresh container or
# CI image has) from the Debian mirror this machine's apt uses, through a
# tarball of the downloaded packages cached in $PMKIT_MACHINE_CACHE (default
# ~/.cache/pmkit-machines) so a machine is re-made without downloading it
# again.  "run" works in a private mount namespace and pid namespace
# (unshare): /proc, /sys, /dev, /dev/pts, /dev/shm and a fresh /tmp are
# mounted there alone, so they vanish with the namespace however CMD ends,
# and any daemon a test leaves behind is killed with it.
#
# What it does not do: it needs root, debootstrap and unshare on the host;
# it never installs anything on the host; it makes no network namespace (apt
# inside the chroot reaches the mirror through the host's resolv.conf).
# Environment: PMKIT_DEBIAN_MIRROR overrides the mirror.
set -eu

usage() {
    echo "usage: machine.sh bare|configured DIR | run DIR CHECKOUT CMD..." >&2
    exit 2
}

die() {
    echo "machine.sh: $*" >&2
    exit 1
}

# The first Debian mirror ("URIs:" in deb822 files, "deb URI" in one-line
# files) whose path ends in /debian, from the host's apt sources.
find_mirror() {
    if [ -n "${PMKIT_DEBIAN_MIRROR:-}" ]; then
        echo "$PMKIT_DEBIAN_MIRROR"
        return
    fi
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
        /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        sed -n -e 's/^URIs:[[:space:]]*//p' \
            -e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]*\)\{0,1\}//p' "$f" |
            tr ' \t' '\n\n' | grep -E '^https?://[^ ]*/debian/?$' | head -n 1
    done | head -n 1 | sed 's|/$||'
}

# bootstrap DIR: a minbase bookworm at DIR, from the cached package tarball
# (made on first use).
bootstrap() {
    dir=$1
    mirror=$(find_mirror)
    [ -n "$mirror" ] || die "no Debian mirror in /etc/apt/sources.list*; set PMKIT_DEBIAN_MIRROR"
    cache=${PMKIT_MACHINE_CACHE:-${HOME:-/root}/.cache/pmkit-machines}
    tarball=$cache/bookworm-minbase-$(dpkg --print-architecture).tgz
    mkdir -p "$cache"
    if [ ! -s "$tarball" ]; then
        echo "machine: downloading bookworm from $mirror into $tarball"
        rm -rf "$cache/make.$$"
        debootstrap --variant=minbase --make-tarball="$tarball.tmp" bookworm \
            "$cache/make.$$" "$mirror"
        rm -rf "$cache/make.$$"
        mv "$tarball.tmp" "$tarball"
    fi
    echo "machine: bootstrapping $dir"
    debootstrap --variant=minbase --unpack-tarball="$tarball" bookworm "$dir" "$mirror"

    # apt's sources: the release, its updates and its security suite, as on
    # the host (the security archive sits beside the main one).
    rm -f "$dir/etc/apt/sources.list"
    cat >"$dir/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $mirror-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    # Packages never start services inside the chroot.
    printf '#!/bin/sh\nexit 101\n' >"$dir/usr/sbin/policy-rc.d"
    chmod 755 "$dir/usr/sbin/policy-rc.d"
    [ -s "$dir/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$dir/etc/hosts"
    inside "$dir" / apt-get update -qq
}

# configure DIR: Debian's pcp installed and configured.  Its post-install
# step fails without a running systemd; with systemctl moved aside it
# completes, creating what a PCP user has (/etc/pcp.conf, /etc/pcp/labels/,
# the pmcd configuration), and Rebuild makes /var/lib/pcp/pmns/root.
configure() {
    dir=$1
    echo "machine: installing pcp in $dir"
    inside "$dir" / env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends pcp ||
        echo "machine: pcp's post-install failed, as expected without systemd"
    moved=
    if [ -e "$dir/usr/bin/systemctl" ]; then
        mv "$dir/usr/bin/systemctl" "$dir/usr/bin/systemctl.machine-sh"
        moved=1
    fi
    status=0
    inside "$dir" / env DEBIAN_FRONTEND=noninteractive dpkg --configure -a || status=$?
    [ -z "$moved" ] || mv "$dir/usr/bin/systemctl.machine-sh" "$dir/usr/bin/systemctl"
    [ "$status" -eq 0 ] || die "dpkg --configure -a failed in $dir"
    inside "$dir" /var/lib/pcp/pmns ./Rebuild
    for f in /etc/pcp.conf /var/lib/pcp/pmns/root; do
        [ -s "$dir$f" ] || die "$dir$f is missing after configuring pcp"
    done
    [ -d "$dir/etc/pcp/labels" ] || die "$dir/etc/pcp/labels is missing after configuring pcp"
    echo "machine: pcp configured in $dir"
}

# inside DIR WD CMD...: CMD in the chroot DIR, working directory WD, in a
# private mount and pid namespace with the file systems tests need.
inside() {
    dir=$1
    wd=$2
    shift 2
    [ -x "$dir/bin/sh" ] || die "$dir is not a machine (no /bin/sh)"
    cp /etc/resolv.conf "$dir/etc/resolv.conf" 2>/dev/null || true
    unshare --mount --pid --fork --propagation private \
        sh "$self" _mounted "$dir" "$wd" "$@"
}

# _mounted DIR WD CMD...: run by inside() in its new namespaces.
mounted() {
    dir=$1
    wd=$2
    shift 2
    mount -t proc proc "$dir/proc"
    mount -t sysfs sysfs "$dir/sys"
    mount --bind /dev "$dir/dev"
    mkdir -p "$dir/dev/pts" "$dir/dev/shm"
    mount -t devpts -o newinstance,ptmxmode=0666 devpts "$dir/dev/pts"
    mount -t tmpfs -o mode=1777 shm "$dir/dev/shm"
    mount -t tmpfs -o mode=1777 tmp "$dir/tmp"
    if [ -n "${MACHINE_CHECKOUT:-}" ]; then
        mkdir -p "$dir/checkout"
        mount --bind "$MACHINE_CHECKOUT" "$dir/checkout"
    fi
    exec chroot "$dir" /usr/bin/env -i HOME=/root TERM="${TERM:-dumb}" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        sh -c 'cd "$1" && shift && exec "$@"' sh "$wd" "$@"
}

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
bare | configured)
    [ $# -eq 1 ] || usage
    [ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot, mounts)"
    dir=$1
    if [ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ]; then
        die "$dir exists and is not empty"
    fi
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    bootstrap "$dir"
    [ "$cmd" = bare ] || configure "$dir"
    echo "machine: $cmd machine ready at $dir"
    ;;
run)
    [ $# -ge 3 ] || usage
    [ "$(id -u)" -eq 0 ] || die "needs root (chroot, mounts)"
    dir=$(cd "$1" && pwd)
    MACHINE_CHECKOUT=$(cd "$2" && pwd)
    export MACHINE_CHECKOUT
    shift 2
    inside "$dir" /checkout "$@"
    ;;
_mounted)
    mounted "$@"
    ;;
*)
    usage
    ;;
esac
