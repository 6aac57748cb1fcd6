#!/bin/sh
# devices.sh BINDIR: outputs that are character devices are written where
# they are, never replaced by a file, and a device that refuses the data
# is reported with its cause.  On private device nodes made in a scratch
# directory (mknod: root), never the system's: ./null (1,3) takes
# anything, ./full (1,7) fails every write with ENOSPC.
#  - each tool's output, dependency file and help pair on ./null: exit 0,
#    the node still the same device (pmnscomp refuses a device as its
#    image, as PCP's did, and leaves it be);
#  - the same on ./full: "cannot write ...: No space left on device",
#    non-zero exit, the node intact;
#  - standard output on ./full for every tool that writes there: "PROG:
#    cannot write standard output: No space left on device", non-zero exit
#    (pmnscomp --dump no longer blames the image).
set -u
. "$(dirname "$0")/faults_lib.sh"
need_root "mknod"
setup "$1"
node null 1 3
node full 1 7
node h.dir 1 3
node h.pag 1 3
node f.pag 1 7
newhelp -n ns -o db help.src || exit 1
pmnscomp -n ns img.bin >/dev/null || exit 1

# run EXPECTED-STATUS EXPECTED-STDERR CMD...: status and stderr exactly
run() {
    want_sts=$1 want_err=$2
    shift 2
    "$@" 2>err >out.txt
    sts=$?
    ok "[ $sts = $want_sts ]" "$*: exit $sts, expected $want_sts"
    if [ -n "$want_err" ]; then printf '%s\n' "$want_err"; fi >want
    ok "cmp -s want err" "$*: stderr '$(cat err)', expected '$want_err'"
}

enospc="No space left on device"
# on ./null
run 0 "" pmcpp in.cpp null
run 0 "" pmcpp -M -MF null in.cpp
run 0 "" pmcpp -MD -MF null in.cpp out.txt
run 0 "" pmgenmap -o null map.spec
run 0 "" pmgenmap -o out.h -M null map.spec
run 0 "" newhelp -n ns -o h help.src
run 1 'pmnscomp: "null" is not a regular file' pmnscomp -f -n ns null
run 0 "" pmnscomp -n ns -MD -MF null out.bin
for n in null h.dir h.pag; do
    ok "is_chr $n 1 3" "$n is no longer the device it was: $(ls -l $n)"
done
# on ./full
run 1 "pmcpp: Cannot write outfile (full): $enospc" pmcpp in.cpp full
run 1 "pmcpp: cannot write the dependency file (full): $enospc" pmcpp -M -MF full in.cpp
run 1 "pmgenmap: cannot write \"full\": $enospc" pmgenmap -o full map.spec
run 1 "pmgenmap: cannot write \"full\": $enospc" pmgenmap -o out2.h -M full map.spec
run 2 "newhelp: cannot write f.pag: $enospc" newhelp -n ns -o f help.src
run 1 "pmnscomp: cannot write the dependency file (full): $enospc" \
    pmnscomp -n ns -MD -MF full out2.bin
for n in full f.pag; do
    ok "is_chr $n 1 7" "$n is no longer the device it was: $(ls -l $n)"
done
ok "[ ! -e f.dir ]" "newhelp left an index without its texts"
ok "[ -z \"\$(temporaries .)\" ]" "temporaries left: $(temporaries .)"
# standard output on ./full
stdout_full() {
    want_sts=$1 prog=$2
    shift 2
    "$@" >full 2>err
    sts=$?
    ok "[ $sts = $want_sts ]" "$* >full: exit $sts, expected $want_sts"
    printf '%s: cannot write standard output: %s\n' "$prog" "$enospc" >want
    ok "cmp -s want err" "$* >full: stderr '$(cat err)'"
}
stdout_full 1 pmcpp pmcpp in.cpp
stdout_full 1 pmcpp pmcpp -M in.cpp
stdout_full 1 pmerr pmerr -l
stdout_full 1 pmerr pmerr 1 2 3
stdout_full 1 pminfo pminfo -n ns -m
stdout_full 1 pmgenmap pmgenmap map.spec
stdout_full 1 pmnscomp pmnscomp --dump img.bin
stdout_full 1 chkhelp chkhelp -n ns -p db
ok "is_chr full 1 7" "full is no longer the device it was"
finish devices
