#!/bin/bash
# compat-programs.sh - build the C programs Debian's PCP 6.0.3 ships as
# source (the agents in usr/lib/pcp/pmdas, the demos in usr/share/pcp/demos,
# pcp-testsuite's src/ and pmdas/) against Debian's PCP and against pmkit,
# and write docs/compat.md's table of them: program, builds on Debian,
# builds on pmkit, the test that compares it running, and the reason for
# every program that does not build on pmkit.
#
#   deb    Debian's headers and libraries from ROOT, the way PCP's makefiles
#          build them (the private "libpcp.h" beside the sources).
#   pmkit  pmkit's installed headers (BUILD/include) and libraries
#          (BUILD/lib) only: the sources are staged without PCP's libpcp.h,
#          and each Debian <pcp/X.h> pmkit does not ship is shadowed by one
#          that stops with '#error "pmkit lacks <pcp/X.h>"'.
# A program is in scope when it builds on Debian and needs no PCP library
# but libpcp and libpcp_pmda.
#
# usage: scripts/compat-programs.sh ROOT [BUILD [OUTDIR]]
#        scripts/compat-programs.sh --table OUTDIR   (the table of a kept run)
#   ROOT    Debian's pcp, pcp-testsuite, libpcp3-dev and libpcp-pmda3-dev
#           (and the libraries they need, and the -dev packages of the
#           others whose headers programs include: libpcp-mmv1-dev,
#           libpcp-trace2-dev, libpcp-archive1-dev, ...) unpacked into one
#           directory with dpkg-deb -x
#   BUILD   pmkit's build directory (default: build)
#   OUTDIR  work files and results (default: a temporary directory, removed)
# With COMPAT_DEB_FROM=DIR (an earlier run's kept OUTDIR), Debian's side is
# taken from there and only pmkit's is built.
# Prints the table (markdown) on stdout and a summary on stderr.  One
# compiler runs at a time.  Needs bash, gcc, readelf.
set -u
[ $# -ge 1 ] || { echo "usage: $0 ROOT [BUILD [OUTDIR]] | --table OUTDIR" >&2; exit 2; }
TABLE_ONLY=
if [ "$1" = --table ]; then
  # the table again from an earlier run's OUTDIR
  TABLE_ONLY=1
  OUT=${2:?}
fi
if [ -z "$TABLE_ONLY" ]; then
ROOT=$(cd "$1" && pwd) || exit 2
BUILD=$(cd "${2:-build}" && pwd) || exit 2
PLIB=$BUILD/lib
PINC=$BUILD/include
GENMAP=$BUILD/bin/pmgenmap
PMCPP=$BUILD/bin/pmcpp
TS=$ROOT/var/lib/pcp/testsuite
for f in "$ROOT/usr/include/pcp/pmapi.h" "$ROOT/usr/lib/libpcp.so" "$TS/src" "$PINC/pcp/pmapi.h" "$PLIB/libpcp.so" "$GENMAP"; do
  [ -e "$f" ] || { echo "$0: $f is missing" >&2; exit 2; }
done
if [ $# -ge 3 ]; then
  OUT=$3
  rm -rf "$OUT"
  mkdir -p "$OUT"
else
  OUT=$(mktemp -d "${TMPDIR:-/tmp}/compat-programs.XXXXXX")
  trap 'rm -rf "$OUT"' EXIT
fi
fi

CFLAGS_COMMON="-O0 -fPIC -fno-strict-aliasing -D_GNU_SOURCE -fmax-errors=50 -Werror=implicit-function-declaration -Werror=implicit-int"
TESTSUITE_DEFS="-DDEBUG -DHAVE_TRACE"
OTHERLIBS="-lpcp_gui -lpcp_mmv -lpcp_trace -lpcp_import -lpcp_web -lpcp_archive"

# ---------------------------------------------------------------- programs
# id|source dir (relative to ROOT)|sources|extra cflags|kind (exe|dso)
programs() {
  local d=usr/lib/pcp/pmdas
  echo "pmdas/sample/pmdasample|$d/sample|pmda.c sample.c percontext.c events.c proc.c||exe"
  echo "pmdas/sample/pmda_sample.so|$d/sample|pmda.c sample.c percontext.c events.c proc.c||dso"
  echo "pmdas/simple/pmdasimple|$d/simple|simple.c||exe"
  echo "pmdas/simple/pmda_simple.so|$d/simple|simple.c||dso"
  echo "pmdas/trivial/pmdatrivial|$d/trivial|trivial.c||exe"
  echo "pmdas/trivial/pmda_trivial.so|$d/trivial|trivial.c||dso"
  echo "pmdas/txmon/pmdatxmon|$d/txmon|txmon.c||exe"
  echo "pmdas/txmon/txrecord|$d/txmon|txrecord.c||exe"
  d=usr/share/pcp/demos
  echo "demos/pmclient|$d/pmclient|pmclient.c||exe"
  echo "demos/pmclient_fg|$d/pmclient|pmclient_fg.c||exe"
  echo "demos/procmemstat|$d/procmemstat|procmemstat.c||exe"
  echo "demos/mmv/acme|$d/mmv|acme.c||exe"
  echo "demos/mmv/mmvdump|$d/mmv|mmvdump.c||exe"
  echo "demos/json/acme_json|$d/json|acme_json.c||exe"
  for a in app1 app2 app3 pmtrace; do echo "demos/trace/$a|$d/trace|$a.c||exe"; done
  echo "demos/trace/libpcp_trace-stub.so|$d/trace|stub.c||dso"
  d=var/lib/pcp/testsuite/pmdas
  echo "ts-pmdas/bigun.so|$d/bigun|bigun.c||dso"
  for b in 0 1 2 3 4 5; do
    bug=""; [ $b -gt 0 ] && bug="-DBUG_$b"
    echo "ts-pmdas/broken_pmda_2_$b|$d/broken|broken_pmda.c|-DVERSION_2 $bug|exe"
  done
  # its GNUmakefile adds -I../../src (for the testsuite's libpcp.h); @TSSRC@ is that
  # directory as staged for the pass (without PCP's libpcp.h for the pmkit passes)
  echo "ts-pmdas/pmdadynamic|$d/dynamic|dynamic.c|-I@TSSRC@|exe"
  echo "ts-pmdas/github-56/pmdatrivial|$d/github-56|trivial.c||exe"
  echo "ts-pmdas/pmdaschizo-A|$d/schizo|schizo-A.c||exe"
  echo "ts-pmdas/pmdaschizo-B|$d/schizo|schizo-B.c||exe"
  d=var/lib/pcp/testsuite/src
  local f n extra
  for f in "$ROOT/$d"/*.c; do
    n=$(basename "$f" .c)
    case $n in
      addctxdm) continue ;;                       # helper object, linked below
      qa_shmctl|qa_sem_msg_ctl|qa_shmctl_stat|qa_msgctl_stat|qa_semctl_stat)
        echo "ts/$n.so|$d|$n.c|$TESTSUITE_DEFS|dso"; continue ;;
      qa_timezone) echo "ts/$n.so|$d|$n.c|$TESTSUITE_DEFS|dso"; continue ;;
      grind_ctx|churnctx|torture_pmns)
        echo "ts/$n|$d|$n.c addctxdm.c|$TESTSUITE_DEFS|exe"; continue ;;
      hp-mib|pcp_lite_crash|store|store_and_fetch) extra="-DLITE=1" ;;
      check_fault_injection|exercise_fault) extra="-DPM_FAULT_INJECTION=1" ;;
      *) extra="" ;;
    esac
    echo "ts/$n|$d|$n.c|$TESTSUITE_DEFS $extra|exe"
  done
  echo "ts/chkctx2_lite|$d|chkctx2.c|$TESTSUITE_DEFS -DLITE=1|exe"
  echo "ts/fetchrate_lite|$d|fetchrate.c|$TESTSUITE_DEFS -DLITE=1|exe"
  echo "ts/pv64|$d|pv.c|$TESTSUITE_DEFS|exe"
}

# ---------------------------------------------------------------- staging
# stage PASS SRCDIR -> echo staged dir: symlinks to the source dir's files, minus
# PCP's private libpcp.h for the pmkit pass, plus generated headers.
stage() {
  local pass=$1 src=$2 key dir f
  key=$(echo "$src" | tr / _)
  dir=$OUT/stage/$pass/$key
  if [ ! -d "$dir" ]; then
    mkdir -p "$dir"
    for f in "$ROOT/$src"/*; do
      [ "$(basename "$f")" = libpcp.h ] && [ "$pass" != deb ] && continue
      ln -s "$(readlink -f "$f" 2>/dev/null || echo "$f")" "$dir/$(basename "$f")" 2>/dev/null
      # absolute links in the package point into /usr/lib/pcp: resolve inside ROOT
      if [ ! -e "$dir/$(basename "$f")" ]; then
        rm -f "$dir/$(basename "$f")"
        ln -s "$ROOT$(readlink "$f")" "$dir/$(basename "$f")"
      fi
    done
    case $src in
      */testsuite/src)
        # what qa's mk.localconfig writes for PCP 6.0.3 on Linux
        rm -f "$dir/localconfig.h"
        printf '#define PCP_PLATFORM linux\n#define PCP_VER 60003\n' > "$dir/localconfig.h" ;;
      */demos/pmclient|*/demos/procmemstat)
        # as the demos' Makefiles do: pmcpp -Dlinux, drop # and empty lines, pmgenmap
        rm -f "$dir/pmnsmap.h"
        "$PMCPP" -Dlinux < "$ROOT/$src/pmnsmap.spec" |
          sed -e '/^#/d' -e '/^$/d' > "$dir/pmnsmap.i"
        "$GENMAP" "$dir/pmnsmap.i" > "$dir/pmnsmap.h" ;;
    esac
  fi
  echo "$dir"
}

# include directories of each pass
mkinc() {
  local h
  # pmkit: shadow every Debian <pcp/X.h> that pmkit does not ship
  mkdir -p "$OUT/inc/pmkit/pcp"
  for h in "$ROOT"/usr/include/pcp/*.h libpcp.h; do
    h=$(basename "$h")
    [ -e "$PINC/pcp/$h" ] && continue
    printf '#error "pmkit lacks <pcp/%s>"\n' "$h" > "$OUT/inc/pmkit/pcp/$h"
  done
}

incflags() {
  case $1 in
    deb) echo "-I$ROOT/usr/include/pcp -I$ROOT/usr/include" ;;
    pmkit) echo "-I$PINC/pcp -I$PINC -I$OUT/inc/pmkit/pcp -I$OUT/inc/pmkit" ;;
  esac
}

libflags() {
  case $1 in
    deb) echo "-L$ROOT/usr/lib -Wl,-rpath-link,$ROOT/usr/lib -Wl,--allow-shlib-undefined -Wl,--as-needed" ;;
    pmkit) echo "-L$PLIB -Wl,-rpath-link,$PLIB -Wl,--as-needed" ;;
  esac
}

# errors FILE: the distinct error lines of a compiler/linker log, compacted
errors() {
  grep -E ': (fatal )?error: |undefined reference' "$1" |
    sed -E -e 's/^[^ ]*: (fatal )?error: //' -e 's/^[^ ]*:[0-9]+:[0-9]+: //' \
      -e "s/^.*undefined reference to \`([^']*)'.*/undefined: \1/" |
    grep -v 'ld returned' | awk '!seen[$0]++' | head -40 | tr '\n' ';' | tr '\t' ' '
}

build_one() {
  local pass=$1 id=$2 src=$3 files=$4 extra=$5 kind=$6
  local dir obj log f o objs=() libs status needed="" undef=""
  dir=$(stage "$pass" "$src")
  case $extra in
    *@TSSRC@*) extra=${extra//@TSSRC@/$(stage "$pass" var/lib/pcp/testsuite/src)} ;;
  esac
  obj=$OUT/obj/$pass/$id
  mkdir -p "$obj"
  log=$obj/log
  : > "$log"
  # programs that use no PCP header at all are recorded and skipped
  if ! cat $(for f in $files; do echo "$ROOT/$src/$f"; done) | grep -qE '#include.*(pcp/|libpcp\.h|pmapi\.h|pmda\.h)'; then
    printf '%s\tnopcp\t\t\t\n' "$id"
    return
  fi
  status=ok
  for f in $files; do
    o=$obj/${f%.c}.o
    # shellcheck disable=SC2086
    if ! gcc $CFLAGS_COMMON $extra $(incflags "$pass") -c "$dir/$f" -o "$o" >>"$log" 2>&1; then
      status=compile
    fi
    objs+=("$o")
  done
  if [ $status = ok ]; then
    case $extra in
      *PM_FAULT_INJECTION*) libs="-lpcp_fault -lpcp_pmda -lpcp" ;;
      *) libs="-lpcp_pmda -lpcp" ;;
    esac
    [ "$pass" = deb ] && libs="$libs $OTHERLIBS"
    local out=$obj/a.out
    case $kind in
      exe)
        # shellcheck disable=SC2086
        gcc -o "$out" "${objs[@]}" $(libflags "$pass") $libs -lpthread -lm >>"$log" 2>&1 || status=link ;;
      dso)
        # shellcheck disable=SC2086
        gcc -shared -Wl,-z,defs -o "$out" "${objs[@]}" $(libflags "$pass") $libs -lpthread -lm >>"$log" 2>&1 || status=link ;;
    esac
    if [ $status = ok ]; then
      needed=$(readelf -dW "$out" | sed -n 's/.*(NEEDED).*\[\(libpcp[^]]*\)\].*/\1/p' | tr '\n' ',' | sed 's/,$//')
      if [ "$pass" = deb ]; then
        printf '%s\t%s\n' "$id" "$(readelf --dyn-syms -W "$out" |
          awk '$7=="UND" && $8 ~ /@PCP_/ {print $8}' | sort -u | tr '\n' ' ')" >> "$OUT/deb-imports.tsv"
      fi
    fi
  fi
  if [ $status = link ]; then
    undef=$(grep -o "undefined reference to \`[^']*'" "$log" | sed "s/.*\`//; s/'//" | sort -u | tr '\n' ' ')
  fi
  printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$status" "$needed" "$(errors "$log")" "$undef"
}

if [ -z "$TABLE_ONLY" ]; then
mkinc
: > "$OUT/deb-imports.tsv"
programs > "$OUT/programs.txt"
passes="deb pmkit"
if [ -n "${COMPAT_DEB_FROM:-}" ]; then
  # Debian's side of an earlier run of the same script (it does not depend
  # on pmkit): only the pmkit pass is built again
  cp "$COMPAT_DEB_FROM/deb.tsv" "$COMPAT_DEB_FROM/deb-imports.tsv" "$OUT/" || exit 2
  passes=pmkit
fi
for pass in $passes; do
  while IFS='|' read -r id src files extra kind; do
    build_one "$pass" "$id" "$src" "$files" "$extra" "$kind"
  done < "$OUT/programs.txt" > "$OUT/$pass.tsv"
done
fi

# ---------------------------------------------------------------- the table
# reason ERRORS: why a program does not build on pmkit, from its errors
lacking() { # ERRORS: the first three names the compiler did not know
  printf '%s' "$1" | sed -e "s/did you mean ‘[^’]*’//g" -e "s/use ‘struct’ keyword//g" | grep -oE "‘[A-Za-z_0-9]+’" |
    tr -d '‘’' | awk '!s[$0]++' | head -3 | tr '\n' ' ' | sed 's/ $//; s/ /, /g'
}
reason() {
  case $1 in
    *archive.h*) echo "needs <pcp/archive.h> (libpcp_archive's header), which pmkit does not ship" ;;
    *LogLabel*|*Archive*|*__pmLog*|*__pmArchCtl*|*__pmFopen*|*PM_LOG_VERS*)
      echo "archive internals pmkit lacks: $(lacking "$1")" ;;
    *Derived*|*PCP_DERIVED*) echo "derived-metric internals pmkit lacks: $(lacking "$1")" ;;
    *mmv_*) echo "needs libpcp_mmv's headers" ;;
    *trace.h*) echo "needs libpcp_trace's headers" ;;
    *__pmAcc*) echo "access control (__pmAcc*) not in pmkit" ;;
    *) echo "lacks $(lacking "$1")" ;;
  esac
}
runs() {
  case $1 in
    pmdas/simple/*.so|pmdas/trivial/*.so) echo "same (oracle.agents)" ;;
    pmdas/simple/*|pmdas/trivial/*) echo "same (oracle.daemon)" ;;
    demos/pmclient|demos/pmclient_fg) echo "same (oracle.pmclient)" ;;
    ts/chkoptfetch) echo "same (oracle.testsuite_optfetch)" ;;
    ts/chkacc1|ts/chkacc2|ts/chkacc3|ts/multithread2) echo "same (oracle.testsuite_access)" ;;
    ts/logcontrol|ts/chknumval) echo "same (oracle.logctl_pmlogger)" ;;
    ts/eofarch|ts/eol|ts/interp[0-3]) echo "same but the read counts (oracle.testsuite_archive)" ;;
    ts/scandata|ts/timeshift) echo "same (oracle.testsuite_archive_calls)" ;;
    ts/template|ts/usergroup) echo "same (oracle.testsuite_archive_h)" ;;
    ts/scanmeta|ts/torture_logmeta) echo "same (oracle.testsuite_logmeta)" ;;
    demos/mmv/mmvdump|demos/trace/libpcp_trace-stub.so|ts/badmmv|ts/mmv_noinit|ts/mmv_poke)
      echo "same (oracle.mmv_programs)" ;;
    *) echo "not compared" ;;
  esac
}
echo "| Program | Builds on Debian | Builds on pmkit | Runs the same | Why not |"
echo "|---|---|---|---|---|"
# one line a program, fields split by \037 (not white space, so empty
# fields stay fields): id, Debian's status and libraries, pmkit's status
# and errors
paste "$OUT/deb.tsv" "$OUT/pmkit.tsv" | awk -F'\t' '{ printf "%s\037%s\037%s\037%s\037%s\n", $1, $2, $3, $7, $9 }' |
while IFS=$'\037' read -r id dst dneed pst perr; do
  case $dst in
    nopcp) continue ;;
    ok) ;;
    *) echo "| $id | no | — | — | does not build on Debian |"; continue ;;
  esac
  others=$(printf '%s' "$dneed" | tr ',' '\n' | grep -vE '^(libpcp\.so\.3|libpcp_pmda\.so\.3)?$' | tr '\n' ' ' | sed 's/ $//')
  if [ -n "$others" ]; then
    echo "| $id | yes | — | — | out of scope: needs $others |"
  elif [ "$pst" = ok ]; then
    echo "| $id | yes | yes | $(runs "$id") | |"
  else
    echo "| $id | yes | no | — | $(reason "$perr") |"
  fi
done
awk -F'\t' 'NR==FNR { d[$1]=$2; n[$1]=$3; next }
  d[$1]=="ok" { x=n[$1]; gsub(/libpcp_pmda\.so\.3|libpcp\.so\.3|,/,"",x); if (x=="") { t++; if ($2=="ok") ok++ } }
  END { printf "%d programs in scope (build on Debian, only libpcp and libpcp_pmda); %d build on pmkit\n", t, ok > "/dev/stderr" }' \
  "$OUT/deb.tsv" "$OUT/pmkit.tsv"
