#!/bin/sh
# symbol_versions.sh LIB REF: LIB's exports carry PCP's symbol versions.
#
# REF is either the library's version script (libpcp/lib*.map, the
# checked-in list) or Debian's library of the same name (the oracle).  The
# test fails when
#   - an export of LIB has no version node, or only a non-default one;
#   - an export is at another node than REF puts it at, or sits in a node
#     REF does not have while REF exports the name (it belongs at PCP's);
#   - a node of REF is missing from LIB, has another parent, or differs in
#     its flags (against a library: an empty node is WEAK, Debian's are not);
#   - a node has no ABS symbol of its own name (Debian's libraries have one
#     per node), or the soname differs (against a library).
# It prints how many exports it checked and how many of REF's names LIB
# does not define yet.
set -u
lib=$1
ref=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# nodes FILE: "NODE PARENT FLAGS" per version definition (PARENT '-').
nodes() {
    readelf -V -W "$1" | awk '
        /Version definition section/ { on = 1; next }
        /Version needs section|Version symbols section/ { on = 0 }
        !on { next }
        / Name: / {
            if (name != "") print name, parent, flags
            name = $NF; parent = "-"; flags = "none"
            for (i = 1; i <= NF; i++) if ($i == "Flags:") flags = $(i + 1)
            if (flags == "BASE") name = ""
            next
        }
        /Parent 1:/ { parent = $NF }
        END { if (name != "") print name, parent, flags }' | sort
}

# exports FILE: "NAME NODE" per defined dynamic symbol, NODE '-' when the
# symbol has no version and '@NODE' when it is not the default one; the
# ABS symbols named after nodes are listed as "NAME ABS".
exports() {
    readelf --dyn-syms -W "$1" | awk '
        $1 ~ /^[0-9]+:$/ && $7 != "UND" && NF >= 8 {
            s = $8
            # the ODR indicators AddressSanitizer adds in the sanitizer build are
            # not part of the interface
            if (s ~ /^__odr_asan[._]/) next
            if ($7 == "ABS" && $3 == 0 && index(s, "@") == 0) { print s, "ABS"; next }
            if (index(s, "@@")) { split(s, a, "@@"); print a[1], a[2] }
            else if (index(s, "@")) { split(s, a, "@"); print a[1], "@" a[2] }
            else print s, "-"
        }' | sort
}

# map_tokens MAP: the version script's words, '{', '}' and ';' one a line.
map_tokens() {
    sed 's/#.*//; s/[{};]/ & /g' "$1" | tr -s ' \t' '\n\n' | grep -v '^$'
}
# map_nodes MAP / map_syms MAP: the same two lists from a version script
# (NODE { global: NAME; ... } PARENT;).
map_nodes() {
    map_tokens "$1" | awk '
        $0 == "{" { node = prev; depth = 1; next }
        $0 == "}" { depth = 0; after = 1; parent = "-"; next }
        after && $0 == ";" { print node, parent, "none"; after = 0; next }
        after { parent = $0; next }
        { prev = $0 }' | sort
}
map_syms() {
    map_tokens "$1" | awk '
        $0 == "{" { node = prev; depth = 1; next }
        $0 == "}" { depth = 0; next }
        depth && $0 != ";" && $0 !~ /:$/ { print $0, node }
        { prev = $0 }' | sort
}

nodes "$lib" >"$tmp/lib.nodes"
exports "$lib" >"$tmp/lib.all"
grep -v ' ABS$' "$tmp/lib.all" >"$tmp/lib.syms"
case $ref in
*.map)
    map_nodes "$ref" >"$tmp/ref.nodes"
    map_syms "$ref" >"$tmp/ref.syms"
    ;;
*)
    nodes "$ref" >"$tmp/ref.nodes"
    exports "$ref" | grep -v ' ABS$' >"$tmp/ref.syms"
    a=$(readelf -d "$lib" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
    b=$(readelf -d "$ref" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
    [ "$a" = "$b" ] || echo "FAIL: soname $a, $b's is $b" >>"$tmp/fail"
    ;;
esac
[ -s "$tmp/ref.nodes" ] || { echo "FAIL: no version nodes in $ref"; exit 1; }

awk -v out="$tmp/fail" -v ref="$ref" '
    FILENAME == ARGV[1] { rnode[$1] = $2; next }
    FILENAME == ARGV[2] { refnode[$1] = $2 " " $3; next }
    FILENAME == ARGV[3] { libnode[$1] = $2 " " $3; next }
    FILENAME == ARGV[4] { if ($2 == "ABS") abs[$1] = 1; next }
    {
        n++
        if ($2 == "-") { print "FAIL: " $1 " is exported with no version node" > out; next }
        if ($2 ~ /^@/) { print "FAIL: " $1 " is at " $2 ", not a default version" > out; next }
        if ($1 in rnode) {
            if (rnode[$1] != $2)
                print "FAIL: " $1 " is at " $2 ", the reference has it at " rnode[$1] > out
        } else if ($2 in refnode)
            print "FAIL: " $1 " is at " $2 ", a node of the reference that does not list it" > out
        found[$1] = 1
    }
    END {
        for (v in refnode) {
            if (!(v in libnode)) print "FAIL: node " v " is missing" > out
            else if (libnode[v] != refnode[v])
                print "FAIL: node " v ": parent and flags " libnode[v] ", reference " refnode[v] > out
        }
        for (v in libnode) if (!(v in abs)) print "FAIL: no ABS symbol for node " v > out
        for (s in rnode) if (!(s in found)) missing++
        printf "%d exports checked against %s; %d of its names not defined yet\n", n, ref, missing
    }' "$tmp/ref.syms" "$tmp/ref.nodes" "$tmp/lib.nodes" "$tmp/lib.all" "$tmp/lib.syms"

if [ -s "$tmp/fail" ]; then
    sort "$tmp/fail"
    exit 1
fi
exit 0
