#!/bin/sh
# sequence.sh BINDIR: runs of newhelp and pmnscomp, each from where the last
# one stopped, each interrupted or failed at a step drawn from a fixed
# pseudo-random sequence (SIGKILL, SIGTERM, ENOSPC, EIO through the
# outfile module's test hook, PMKIT_OUTFILE_FAULT; one run in five left to
# finish), writing alternately version A and version B: after every run,
# what a reader accepts is A or B, never anything else:
#  - the help pair: chkhelp either refuses it (no .dir: no database) or
#    reads exactly A's or B's texts, and the files are A's or B's bytes;
#  - the namespace image: pmnscomp --check accepts it and it is A's or
#    B's bytes.
# First it checks that the reader does accept a mixed pair (A's .dir with
# B's .pag) and reads texts that are neither A's nor B's: so the order in
# which newhelp replaces the pair is what keeps it out.
set -u
. "$(dirname "$0")/faults_lib.sh"
setup "$1"
printf 'root {\n    a 1:0:0\n    b 1:0:1\n    c 1:0:2\n}\n' >ns3
printf '@ a x\n@ b the second one-line text\n@ c z\n' >helpA
printf '@ a the first one-line text\n@ b y\n@ c zz\n' >helpB
printf 'root {\n    a 1:0:0\n    b 1:0:1\n}\n' >nsA
printf 'root {\n    a 1:0:0\n    b 1:0:1\n    sub\n}\nsub {\n    c 1:0:2\n}\n' >nsB
mkdir A B
for v in A B; do
    newhelp -n ns3 -o $v/db help$v || exit 1
    chkhelp -n ns3 -p -O $v/db >$v/texts || exit 1
    pmnscomp -n ns$v $v/img >/dev/null || exit 1
done

# the mixed pair is accepted, and wrong
mkdir mixed
cp A/db.dir mixed/db.dir
cp B/db.pag mixed/db.pag
chkhelp -n ns3 -p -O mixed/db >mixed/texts 2>/dev/null
ok "[ $? = 0 ] && ! cmp -s mixed/texts A/texts && ! cmp -s mixed/texts B/texts" \
    "a mixed pair is refused or reads right: this test would show nothing"

# pair_state: the help pair is A, B or none
pair_state() {
    if [ ! -e db.dir ]; then
        ! chkhelp -n ns3 -p -O db >/dev/null 2>&1 && echo none
        return
    fi
    chkhelp -n ns3 -p -O db >texts 2>/dev/null || { echo refused; return; }
    for v in A B; do
        if cmp -s texts $v/texts && cmp -s db.dir $v/db.dir && cmp -s db.pag $v/db.pag; then
            echo $v
            return
        fi
    done
    echo wrong
}

image_state() {
    [ -e img ] || { echo none; return; }
    pmnscomp --check img >/dev/null 2>&1 || { echo refused; return; }
    for v in A B; do
        cmp -s img $v/img && { echo $v; return; }
    done
    echo wrong
}

seed=12345
# draw N: $r, a number in 0..N-1 from the fixed sequence
draw() {
    seed=$(((seed * 1103515245 + 12345) % 2147483648))
    r=$(((seed / 65536) % $1))
}

faults="SIGKILL SIGTERM ENOSPC EIO none"
image_seen=none
seen=
for i in $(seq 1 50); do
    if [ $((i % 2)) = 0 ]; then v=A; else v=B; fi
    draw 5
    what=$(echo $faults | cut -d' ' -f$((r + 1)))
    draw 14
    step=$((r + 1))
    fault=$step:$what
    [ "$what" = none ] && fault=
    (export PMKIT_OUTFILE_FAULT="$fault" && newhelp -n ns3 -o db help$v) >/dev/null 2>&1
    st=$(pair_state)
    ok "[ $st = A ] || [ $st = B ] || [ $st = none ]" "run $i (newhelp $v, fault $fault): the pair is $st"
    seen="$seen $st"
    (export PMKIT_OUTFILE_FAULT="$fault" && pmnscomp -f -n ns$v img) >/dev/null 2>&1
    st=$(image_state)
    ok "[ $st = A ] || [ $st = B ] || { [ $st = none ] && [ $image_seen = none ]; }" \
        "run $i (pmnscomp $v, fault $fault): the image is $st"
    [ "$st" = A ] || [ "$st" = B ] && image_seen=$st
    rm -f ./*.tmp* # what SIGKILL may leave between a link and its rename
done 2>/dev/null # the shell's "Killed" and "Terminated"
# the sequence went through every state a reader may meet
for st in A B none; do
    ok "echo '$seen' | grep -qw $st" "the help pair was never $st in the sequence"
    echo "the help pair was $st after $(echo "$seen" | tr ' ' '\n' | grep -cx $st) runs"
done
finish sequence
