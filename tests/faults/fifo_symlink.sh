#!/bin/sh
# fifo_symlink.sh BINDIR: a FIFO as an output is written in place (a
# reader gets the bytes a regular file would hold, the FIFO stays a FIFO),
# and a symbolic link as an output has its target replaced while the
# link stays (through a chain of relative links too; a dangling link gets
# its target made; the target's mode is kept).  For every tool's output,
# dependency file and the help pair.  No root needed.
set -u
. "$(dirname "$0")/faults_lib.sh"
setup "$1"
mkdir ref
pmcpp in.cpp ref/cpp || exit 1
pmcpp -M -MF ref/dep -MT t in.cpp || exit 1
SOURCE_DATE_EPOCH=0 pmgenmap -o ref/map.h map.spec || exit 1
newhelp -n ns -o ref/db help.src || exit 1
pmnscomp -n ns ref/img >/dev/null || exit 1
export SOURCE_DATE_EPOCH=0

# fifo NAME REF CMD...: CMD writes into the FIFO NAME; a reader gets REF
fifo() {
    name=$1 ref=$2
    shift 2
    rm -f "$name" got
    mkfifo "$name"
    timeout 20 cat "$name" >got & # not for ever when the FIFO is replaced
    reader=$!
    "$@" >/dev/null 2>err
    sts=$?
    wait $reader
    ok "[ $sts = 0 ]" "$* into a FIFO: exit $sts ($(cat err))"
    ok "cmp -s got $ref" "$* into a FIFO: the reader got other bytes"
    ok "[ -p $name ]" "$* : $name is no longer a FIFO"
}
fifo out ref/cpp pmcpp in.cpp out
fifo dep ref/dep pmcpp -M -MF dep -MT t in.cpp
fifo out ref/map.h pmgenmap -o out map.spec
# the help pair: two FIFOs, two readers
rm -f h.dir h.pag
mkfifo h.dir h.pag
timeout 20 cat h.dir >got.dir &
r1=$!
timeout 20 cat h.pag >got.pag &
r2=$!
newhelp -n ns -o h help.src 2>err
ok "[ $? = 0 ]" "newhelp into FIFOs: $(cat err)"
wait $r1 $r2
ok "cmp -s got.dir ref/db.dir && cmp -s got.pag ref/db.pag" "newhelp into FIFOs: other bytes"
ok "[ -p h.dir ] && [ -p h.pag ]" "newhelp: the FIFOs were replaced"

# link NAME REF CMD...: NAME -> sub/../target.NAME -> real.NAME; CMD
# writes NAME: real.NAME holds REF with its mode, both links stay
mkdir sub
link() {
    name=$1 ref=$2
    shift 2
    rm -f "$name" "target.$name" "real.$name"
    echo old >"real.$name"
    chmod 0640 "real.$name"
    ln -s "real.$name" "target.$name"
    ln -s "sub/../target.$name" "$name"
    "$@" >/dev/null 2>err
    sts=$?
    ok "[ $sts = 0 ]" "$* through links: exit $sts ($(cat err))"
    ok "[ -L $name ] && [ -L target.$name ]" "$*: a link was replaced"
    ok "cmp -s real.$name $ref" "$*: the target does not hold the output"
    ok "[ \$(stat -c %a real.$name) = 640 ]" "$*: the target's mode became $(stat -c %a real.$name)"
    # dangling: the target is made
    rm -f "real.$name"
    "$@" >/dev/null 2>err
    ok "cmp -s real.$name $ref" "$* through a dangling link: no target made ($(cat err))"
    ok "[ -L $name ]" "$*: the dangling link was replaced"
}
link out ref/cpp pmcpp in.cpp out
link dep ref/dep pmcpp -M -MF dep -MT t in.cpp
link out ref/map.h pmgenmap -o out map.spec
link img ref/img pmnscomp -f -n ns img
link db.dir ref/db.dir newhelp -n ns -o db help.src
link db.pag ref/db.pag newhelp -n ns -o db help.src
# a link to a directory: refused, nothing made
rm -f out
mkdir adir
ln -s adir out
pmcpp in.cpp out 2>err
ok "[ $? = 1 ] && grep -q 'Is a directory' err" "pmcpp through a link to a directory: $(cat err)"
ok "[ -z \"\$(ls adir)\" ] && [ -L out ]" "pmcpp wrote into a directory"
ok "[ -z \"\$(temporaries .)\" ]" "temporaries left: $(temporaries .)"
finish fifo_symlink
