#!/bin/sh
# endless_inputs.sh BINDIR [asan]: inputs that never end, or are huge,
# fail with a clear message in bounded memory and time: each tool runs
# under `ulimit -v` (256 MiB; not in the ASan build, whose shadow memory
# needs terabytes of address space) and a 20-second timeout, with the
# input limit at 16 MiB ($PMKIT_INPUT_LIMIT), once at its 1 GiB default
# (under 1.5 GiB), on /dev/zero and /dev/urandom as private device nodes
# (root; else FIFOs fed from the system's, which are only read):
#  - pmcpp on ZERO and on an #include of it: "line longer than the input
#    limit"; pmnscomp -n ZERO and pminfo -n ZERO the same, then the
#    namespace refused; pminfo -n URANDOM: the parse error, the
#    preprocessor stopped soon after;
#  - newhelp on ZERO and URANDOM, pmgenmap on ZERO: "larger than the
#    input limit";
#  - chkhelp on a .dir that is ZERO, and on a sparse 5 GiB pair: refused
#    on the .dir's header at once;
#  - pmcpp on 100 MB of ordinary lines streams through in flat memory.
set -u
. "$(dirname "$0")/faults_lib.sh"
setup "$1"
asan=${2:-}
limit=16777216
if [ "$(id -u)" = 0 ] && mknod zero c 1 5 2>/dev/null && mknod urandom c 1 9 2>/dev/null; then
    nodes=1
else
    nodes=0 # FIFOs, fed below
fi

# feed NAME SOURCE: (FIFOs only) NAME is a new FIFO a background cat feeds
feed() {
    [ $nodes = 1 ] && return
    rm -f "$1"
    mkfifo "$1"
    cat "$2" >"$1" 2>/dev/null &
}

# bounded KB STATUS PATTERN CMD...: CMD under ulimit -v KB exits STATUS
# (within the timeout) with PATTERN (a grep -F string) on stderr
bounded() {
    kb=$1 want=$2 pattern=$3
    shift 3
    feed zero /dev/zero
    feed urandom /dev/urandom
    (
        [ -z "$asan" ] && ulimit -v "$kb"
        exec timeout 20 "$@"
    ) >/dev/null 2>err
    sts=$?
    ok "[ $sts = $want ]" "$*: exit $sts, expected $want ($(head -c 300 err))"
    if [ -n "$pattern" ]; then
        printf '%s\n' "$pattern" >pattern
        ok "grep -qF -f pattern err" "$*: no '$pattern' in: $(head -c 300 err)"
    else
        ok "[ ! -s err ]" "$*: stderr $(head -c 300 err)"
    fi
}

printf '#include "zero"\n' >inc.cpp
line="line longer than the input limit ($limit bytes, PMKIT_INPUT_LIMIT)"
large="larger than the input limit ($limit bytes, PMKIT_INPUT_LIMIT)"
export PMKIT_INPUT_LIMIT=$limit
export PMKIT_DIAGNOSTICS=rich # newhelp's "FILE: error: ..." (PCP's form says "FILE: ...")
m=262144
bounded $m 1 "zero:1: error: $line" pmcpp zero
bounded $m 1 "zero:1: error: $line" pmcpp inc.cpp
bounded $m 1 "$line" pmnscomp -n zero out.bin
bounded $m 1 "Problems parsing PMNS definitions" pmnscomp -n zero out.bin
bounded $m 1 "$line" pminfo -n zero
bounded $m 1 "Error Parsing ASCII PMNS" pminfo -n urandom
bounded $m 2 "zero: error: $large" newhelp -n ns -o h zero
bounded $m 2 "urandom: error: $large" newhelp -n ns -o h urandom
bounded $m 1 "pmgenmap: cannot read \"zero\": $large" pmgenmap zero
ln -s zero z.dir
ln -s zero z.pag
bounded $m 1 ".dir has no PCP help magic" chkhelp z
truncate -s 5G big.dir
truncate -s 5G big.pag
bounded $m 1 ".dir has no PCP help magic" chkhelp big
ok "[ ! -e out.bin ] && [ ! -e h.dir ] && [ ! -e h.pag ]" "an output was written"
# ordinary lines, endlessly many: streamed
yes 'an ordinary line of text, and another word' | head -c 100000000 >lines
bounded $m 0 "" pmcpp -P lines
# the default limit, 1 GiB: still bounded
unset PMKIT_INPUT_LIMIT
bounded 1572864 1 "zero:1: error: line longer than the input limit (1073741824 bytes" pmcpp zero
finish endless_inputs
