#!/bin/sh
# signals.sh BINDIR: every step of every output write interrupted, through
# the outfile module's test hook (PMKIT_OUTFILE_FAULT, toolsupport/
# outfile.h): for each writer below, its steps are listed ("trace"), then
# for each step N and each fault (SIGKILL and SIGTERM raised just before
# the step, and ENOSPC or EIO, by turns, as the step's failure) the writer
# runs from the old outputs towards the new ones, and afterwards:
#  - every output holds its old bytes or its new bytes, nothing else; the
#    help pair is the old pair, the new pair, or no .dir at all;
#  - the exit status is the signal's (137, 143), or for an errno non-zero
#    with the cause in the message, the failed file old (the pair's .dir
#    may be gone when its last rename fails: no database, never a mixed
#    one); only an error of the final directory sync is ignored;
#  - no temporary is left, except by SIGKILL between a temporary's link
#    and its rename (a moment SIGKILL cannot be kept out of).
# Then the signals again with temporaries named from the start, as where
# O_TMPFILE is missing (the hook's "named"), for pmcpp -MD and newhelp:
# SIGTERM must still leave none (the handlers are in place before the
# first one exists), SIGKILL may.
# Writers: pmcpp's outfile, and with -MD its dependency file; pmgenmap -o
# and -M; pmnscomp's image, and with -MD; newhelp's pair.
set -u
. "$(dirname "$0")/faults_lib.sh"
setup "$1"
export SOURCE_DATE_EPOCH=0
printf '#define X one\nline X\n' >in1.cpp
printf '#define X two\nline X\nand more\n' >in2.cpp
cp map.spec map1.spec
printf 'group {\n    a A\n    b B\n    c C\n}\n' >map2.spec
cp ns ns1
cp help.src help1.src
printf 'root {\n    a 1:0:0\n    b 1:0:1\n    c 1:0:2\n}\n' >ns3

# writer NAME "OUTPUTS" COMMAND: COMMAND (with @V@ the input version, 1
# old or 2 new) writes OUTPUTS in the current directory; $named is "" or
# "named,", $faults the faults to try
writer() {
    name=$1 outputs=$2 cmd=$3
    rm -rf "w.$name"
    mkdir "w.$name" "w.$name/old" "w.$name/new" "w.$name/run"
    for v in 1 2; do
        dir=old
        [ $v = 2 ] && dir=new
        (cd "w.$name/$dir" && eval "$(echo "$cmd" | sed "s/@V@/$v/g")") >/dev/null 2>&1 ||
            { echo "FAIL: $name: the writer fails on its own: $cmd"; exit 1; }
    done
    # the steps of a run from old to new
    reset_run "$name"
    (cd "w.$name/run" && export PMKIT_OUTFILE_FAULT=${named}trace && eval "$(echo "$cmd" | sed "s/@V@/2/g")") \
        2>&1 >/dev/null | sed -n 's/^outfile step \([0-9]*\): \([a-z]*\) \(.*\)$/\1 \2 \3/p' \
        >"w.$name/steps"
    nsteps=$(wc -l <"w.$name/steps")
    ok "[ $nsteps -ge 6 ]" "$name: only $nsteps steps traced"
    while read -r n step path; do
        errno=ENOSPC
        [ $((n % 2)) = 0 ] && errno=EIO
        for what in $faults; do
            [ "$what" = errno ] && what=$errno
            one "$name" "$outputs" "$cmd" "$n" "$step" "$path" "$what"
        done
    done <"w.$name/steps"
}

reset_run() {
    rm -rf "w.$1/run"
    cp -a "w.$1/old" "w.$1/run"
}

# same A B: two files (or two absent files) alike
same() {
    if [ -e "$1" ] || [ -e "$2" ]; then cmp -s "$1" "$2"; else true; fi
}

# one NAME OUTPUTS CMD N STEP PATH WHAT: the run with the fault, checked
one() {
    name=$1 outputs=$2 cmd=$3 n=$4 step=$5 path=$6 what=$7
    w=w.$name
    reset_run "$name"
    (cd "$w/run" && export PMKIT_OUTFILE_FAULT="$named$n:$what" && eval "$(echo "$cmd" | sed "s/@V@/2/g")") \
        >/dev/null 2>"$w/err"
    sts=$?
    at="$name, $what at step $n ($step $path)${named:+, named temporaries}"
    for f in $outputs; do
        [ "$f" = db.dir ] && [ ! -e "$w/run/$f" ] && continue # no database: the pair check
        ok "same $w/run/$f $w/old/$f || same $w/run/$f $w/new/$f" "$at: $f is neither old nor new"
    done
    case " $outputs " in
    *" db.dir "*)
        ok "[ ! -e $w/run/db.dir ] || { same $w/run/db.dir $w/old/db.dir && same $w/run/db.pag $w/old/db.pag; } || { same $w/run/db.dir $w/new/db.dir && same $w/run/db.pag $w/new/db.pag; }" \
            "$at: a mixed help pair"
        ;;
    esac
    left=$(temporaries "$w/run")
    case $what in
    SIGKILL)
        ok "[ $sts = 137 ]" "$at: exit $sts"
        case $named$step in named,* | link | unlink | rename) ;; *) ok "[ -z '$left' ]" "$at: temporaries $left" ;; esac
        ;;
    SIGTERM)
        ok "[ $sts = 143 ]" "$at: exit $sts"
        ok "[ -z '$left' ]" "$at: temporaries $left"
        ;;
    *)
        ok "[ -z '$left' ]" "$at: temporaries $left"
        if [ "$step" = dirsync ]; then
            ok "[ $sts = 0 ]" "$at: exit $sts"
            return
        fi
        if [ "$what" = ENOSPC ]; then cause="No space left on device"; else cause="Input/output error"; fi
        ok "[ $sts != 0 ] && grep -q \"$cause\" $w/err" "$at: exit $sts, stderr '$(cat "$w/err")'"
        ok "grep -q \"$path\" $w/err" "$at: the message does not name $path: '$(cat "$w/err")'"
        f=$(basename "$path")
        if [ "$step" = rename ] && [ "$f" = db.dir ]; then
            ok "[ ! -e $w/run/db.dir ]" "$at: the old .dir is still there with a new .pag?"
        else
            ok "same $w/run/$f $w/old/$f" "$at: $f was changed"
        fi
        ;;
    esac
}

top=$(pwd)
named= faults="SIGKILL SIGTERM errno"
writer pmcpp "out" "pmcpp $top/in@V@.cpp out"
writer pmcpp_MD "out out.d" "pmcpp -MD $top/in@V@.cpp out"
writer pmgenmap "map.h map.d" "pmgenmap -o map.h -M map.d $top/map@V@.spec"
writer pmnscomp "img" "pmnscomp -f -n $top/ns@V@ img"
writer pmnscomp_MD "img img.d" "pmnscomp -f -MD -n $top/ns@V@ img"
writer newhelp "db.dir db.pag" "newhelp -n $top/ns3 -o db $top/help@V@.src"
named=named, faults="SIGKILL SIGTERM"
writer pmcpp_MD "out out.d" "pmcpp -MD $top/in@V@.cpp out"
writer newhelp "db.dir db.pag" "newhelp -n $top/ns3 -o db $top/help@V@.src"
finish signals
