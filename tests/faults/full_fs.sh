#!/bin/sh
# full_fs.sh BINDIR: every output on a full file system (a 64 KiB tmpfs
# mounted in the scratch directory and filled up: root; skipped where
# mounting is not allowed) fails with the path and the real cause, "No space left on
# device", a non-zero exit, the old output untouched and no temporary
# left: pmcpp's outfile and dependency file, pmgenmap -o and -M, pmnscomp's
# image, newhelp's pair (both old files), and standard output redirected
# there.
set -u
. "$(dirname "$0")/faults_lib.sh"
need_root "mount"
setup "$1"
mkdir fs
if ! mount -t tmpfs -o size=64k pmkit-faults fs 2>/dev/null; then
    echo "SKIP: mounting a tmpfs is not allowed here"
    exit 77
fi
mounted=$tmp/fs
# the old outputs, small; then the rest of the space taken
for f in out dep map.h dep2 img db.dir db.pag stdout; do
    echo "old $f" >"fs/$f"
done
dd if=/dev/zero of=fs/filler bs=4096 2>/dev/null
enospc="No space left on device"

# full STATUS MESSAGE FILE... -- CMD...: CMD fails with STATUS and
# MESSAGE, each FILE as it was
full() {
    want_sts=$1 want_err=$2
    shift 2
    files=
    while [ "$1" != -- ]; do
        files="$files $1"
        shift
    done
    shift
    "$@" >/dev/null 2>err
    sts=$?
    ok "[ $sts = $want_sts ]" "$*: exit $sts, expected $want_sts"
    printf '%s\n' "$want_err" >want
    ok "cmp -s want err" "$*: stderr '$(cat err)', expected '$want_err'"
    for f in $files; do
        ok "[ \"\$(cat fs/$f)\" = 'old $f' ]" "$*: fs/$f was touched"
    done
    ok "[ -z \"\$(temporaries fs)\" ]" "$*: temporaries left: $(temporaries fs)"
}
full 1 "pmcpp: Cannot write outfile (fs/out): $enospc" out -- pmcpp in.cpp fs/out
full 1 "pmcpp: cannot write the dependency file (fs/dep): $enospc" dep -- \
    pmcpp -M -MF fs/dep in.cpp
full 1 "pmgenmap: cannot write \"fs/map.h\": $enospc" map.h -- pmgenmap -o fs/map.h map.spec
full 1 "pmgenmap: cannot write \"fs/dep2\": $enospc" dep2 -- pmgenmap -o out.h -M fs/dep2 map.spec
full 1 "pmnscomp: cannot write \"fs/img\": $enospc" img -- pmnscomp -f -n ns fs/img
full 2 "newhelp: cannot write fs/db.pag: $enospc" db.dir db.pag -- newhelp -n ns -o fs/db help.src
# standard output to a file there (more than the page its old text has)
awk 'BEGIN { for (i = 0; i < 1000; i++) printf "line %d of a text\n", i }' >big.cpp
pmcpp big.cpp >>fs/stdout 2>err
ok "[ $? = 1 ]" "pmcpp >full file system: exit status"
printf 'pmcpp: cannot write standard output: %s\n' "$enospc" >want
ok "cmp -s want err" "pmcpp >full file system: stderr '$(cat err)'"
finish full_fs
