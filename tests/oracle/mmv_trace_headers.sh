#!/bin/sh
# mmv_trace_headers.sh BUILDDIR MMV_INCLUDE TRACE_INCLUDE
#
# pmkit's <pcp/mmv_stats.h>, <pcp/mmv_dev.h> and <pcp/trace.h>
# (BUILDDIR/include) declare what Debian's do (MMV_INCLUDE: the unpacked
# libpcp-mmv1-dev's usr/include, TRACE_INCLUDE: libpcp-trace2-dev's), and
# lay it out the same:
#  1. the declarations: each side's headers, preprocessed after
#     <pcp/pmapi.h> (which Debian's expect first) and cut to their own
#     lines, are read into a list of structs with their members in order,
#     enums with their enumerators, typedefs, struct tags and functions;
#     the two lists must be identical;
#  2. the layouts and values: a program generated from Debian's list alone
#     prints the size, alignment and kind (_Generic: which integer,
#     floating or pointer type) of every struct, typedef and member, each
#     member's offset, each enum's size and kind and each enumerator's
#     value; built against each side's headers, the two outputs must be
#     identical;
#  3. the prototypes: Debian's function declarations, as its preprocessed
#     headers have them, are repeated after pmkit's headers in one file
#     that must compile with every warning an error (a conflicting
#     redeclaration fails);
#  4. the macros: every macro Debian's headers define (beyond pmapi.h's) is
#     defined by pmkit's with the same value (integers and strings printed
#     by a program built against each side, other object-like macros by
#     their definitions less blanks), MMV_UNITS by the bytes of the pmUnits
#     it makes, and pmkit's define no others.
# Exit 0 all the same, 1 a difference, 2 usage, 77 skip (Debian's headers
# or a compiler missing).  KEEP=DIR keeps the work files in DIR.
set -u
[ $# = 3 ] || { echo "Usage: mmv_trace_headers.sh BUILDDIR MMV_INCLUDE TRACE_INCLUDE" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
mmvinc=$2
traceinc=$3
cc=${CC:-cc}
for f in /usr/include/pcp/pmapi.h "$mmvinc/pcp/mmv_stats.h" "$mmvinc/pcp/mmv_dev.h" "$traceinc/pcp/trace.h"; do
    [ -f "$f" ] || { echo "SKIP: $f is missing (sh scripts/deps.sh test installs and unpacks it)"; exit 77; }
done
command -v "$cc" >/dev/null 2>&1 || { echo "SKIP: no C compiler ($cc)"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmv_trace_headers.XXXXXX") || exit 1
if [ -n "${KEEP:-}" ]; then
    rm -rf "$tmp"
    tmp=$KEEP
    rm -rf "$tmp" && mkdir -p "$tmp" || exit 1
else
    trap 'rm -rf "$tmp"' EXIT
fi
theirs="-I$mmvinc -I$traceinc"
ours="-I$build/include"
headers='pcp/mmv_stats.h pcp/mmv_dev.h pcp/trace.h'
{
    echo '#include <stddef.h>'
    echo '#include <stdio.h>'
    echo '#include <string.h>'
    echo '#include <pcp/pmapi.h>'
    for h in $headers; do echo "#include <$h>"; done
} >"$tmp/all.h"

# model FLAGS: the declarations of the three headers, one a line
# ("struct T", "member T N NAME", "enum T NAME", "typedef T", "tag KIND S",
# "opaque T DECLARATION" for a typedef of an incomplete type, "func F"),
# and their function declarations as "proto TEXT".
model() {
    # shellcheck disable=SC2086
    $cc -E -D_GNU_SOURCE $1 "$tmp/all.h" | awk '
        /^# [0-9]+ "/ { keep = ($3 ~ /\/pcp\/(mmv_stats|mmv_dev|trace)\.h"$/); next }
        keep { text = text " " $0 }
        END { print text }' |
        sed -e 's/extern "C" *{//' -e 's/\([{};,]\)/ \1 /g' -e 's/\[/ [/g' | awk '
        # statements at depth 0 end at ";": split them, keeping bodies
        function ident_before_paren(s,   n, w, i) {
            sub(/\(.*/, "", s); n = split(s, w, /[^A-Za-z0-9_]+/)
            for (i = n; i > 0; i--) if (w[i] != "") return w[i]
            return ""
        }
        function last_ident(s,   n, w, i) {
            sub(/\[.*/, "", s); n = split(s, w, /[^A-Za-z0-9_]+/)
            for (i = n; i > 0; i--) if (w[i] != "") return w[i]
            return ""
        }
        function stmt(s,   head, body, tail, kind, name, n, item, i, k, w) {
            gsub(/^ +| +$/, "", s); gsub(/  +/, " ", s)
            if (s == "" || s == "}") return
            if (index(s, "{")) {
                head = substr(s, 1, index(s, "{") - 1)
                body = substr(s, index(s, "{") + 1)
                tail = body; sub(/.*\}/, "", tail); sub(/\}[^}]*$/, "", body)
                kind = (head ~ /(^| )enum( |$)/) ? "enum" : "struct"
                tag = last_ident(head); if (tag ~ /^(enum|struct|typedef)$/) tag = ""
                if (tag != "") print "tag " kind " " tag
                name = last_ident(tail); if (name == "") name = tag
                if (name == "") name = "anon"
                if (head ~ /^typedef /) print "typedef " name
                if (kind == "struct") {
                    print "struct " name
                    n = split(body, item, ";"); k = 0
                    for (i = 1; i <= n; i++) if (item[i] ~ /[A-Za-z_]/) print "member " name " " ++k " " last_ident(item[i])
                } else {
                    n = split(body, item, ",")
                    for (i = 1; i <= n; i++) if (item[i] ~ /[A-Za-z_]/) {
                        split(item[i], w, /[^A-Za-z0-9_]+/); k = (w[1] != "") ? w[1] : w[2]
                        print "enum " name " " k
                    }
                }
            } else if (s ~ /\(/) {
                print "func " ident_before_paren(s)
                print "proto " s ";"
            } else if (s ~ /^typedef /) {
                print "opaque " last_ident(s) " " s
            } else if (s ~ /^struct [A-Za-z_0-9]+$/) {
                print "tag struct " last_ident(s)
            } else print "other " s
        }
        { text = text " " $0 }
        END {
            depth = 0; cur = ""
            for (i = 1; i <= length(text); i++) {
                c = substr(text, i, 1)
                if (c == "{") depth++
                if (c == "}") depth--
                if (c == ";" && depth == 0) { stmt(cur); cur = "" } else cur = cur c
            }
            stmt(cur)
        }'
}
model "$theirs" >"$tmp/theirs.model" || exit 1
model "$ours" >"$tmp/ours.model" || exit 1
grep -v '^proto ' "$tmp/theirs.model" | sort >"$tmp/theirs.decls"
grep -v '^proto ' "$tmp/ours.model" | sort >"$tmp/ours.decls"
[ "$(grep -c '^member ' "$tmp/theirs.decls")" -gt 50 ] ||
    { echo "FAIL: too few struct members read from Debian's headers"; exit 1; }
fail=0
# build_both NAME: $tmp/NAME.c built against each side's headers and run,
# its output in $tmp/NAME_theirs.out and $tmp/NAME_ours.out
build_both() {
    for side in theirs ours; do
        eval "flags=\$$side"
        # shellcheck disable=SC2086,SC2154
        $cc -std=gnu11 -D_GNU_SOURCE $flags -o "$tmp/$1_$side" "$tmp/$1.c" 2>"$tmp/$1_$side.err" ||
            { echo "FAIL: the $1 program does not build against $side headers:"; head -20 "$tmp/$1_$side.err"; exit 1; }
        "$tmp/$1_$side" >"$tmp/$1_$side.out" || { echo "FAIL: the $1 program ($side) failed"; exit 1; }
    done
}
if ! cmp -s "$tmp/theirs.decls" "$tmp/ours.decls"; then
    echo "FAIL: the declarations differ (< Debian, > pmkit):"
    diff "$tmp/theirs.decls" "$tmp/ours.decls" | grep '^[<>]' | sed 's/^/  /'
    fail=1
fi

# 2. the layout program, from Debian's declarations
{
    cat "$tmp/all.h"
    cat <<'EOF'
#define K_(x) _Generic((x), char: "char", signed char: "schar", unsigned char: "uchar", \
    short: "short", unsigned short: "ushort", int: "int", unsigned int: "uint", long: "long", \
    unsigned long: "ulong", long long: "llong", unsigned long long: "ullong", float: "float", \
    double: "double", char *: "char*", const char *: "const char*", void *: "void*", \
    default: "other")
#define T_(t) printf("type %s size %zu align %zu\n", #t, sizeof(t), _Alignof(t))
#define M_(t, m) printf("member %s.%s offset %zu size %zu kind %s\n", #t, #m, \
    offsetof(t, m), sizeof(((t *)0)->m), K_(((t *)0)->m))
#define E_(t) printf("enum %s size %zu kind %s\n", #t, sizeof(t), K_((t)0))
#define V_(e) printf("value %s %lld kind %s\n", #e, (long long)(e), K_(e))
int main(void) {
EOF
    awk '$1 == "typedef" { print "T_(" $2 ");" }
        $1 == "member" { print "M_(" $2 ", " $4 ");" }
        $1 == "enum" && $2 != "anon" { if (!($2 in seen)) print "E_(" $2 ");"; seen[$2] = 1 }
        $1 == "enum" { print "V_(" $3 ");" }' "$tmp/theirs.decls"
    echo 'return 0; }'
} >"$tmp/layout.c"
build_both layout
if ! cmp -s "$tmp/layout_theirs.out" "$tmp/layout_ours.out"; then
    echo "FAIL: sizes, offsets, kinds or values differ (< Debian, > pmkit):"
    diff "$tmp/layout_theirs.out" "$tmp/layout_ours.out" | grep '^[<>]' | sed 's/^/  /'
    fail=1
fi

# 3. Debian's prototypes after pmkit's headers
{
    cat "$tmp/all.h"
    sed -n 's/^proto //p' "$tmp/theirs.model"
} >"$tmp/protos.c"
# shellcheck disable=SC2086
if ! $cc -std=gnu11 -D_GNU_SOURCE -Wall -Werror $ours -c -o "$tmp/protos.o" "$tmp/protos.c" 2>"$tmp/protos.err"; then
    echo "FAIL: Debian's prototypes conflict with pmkit's:"
    grep -E 'error|note' "$tmp/protos.err" | head -20 | sed 's/^/  /'
    fail=1
fi

# 4. the macros: those of the three headers, less those of pmapi.h and the
# system headers included before them
grep -v 'mmv_\|trace' "$tmp/all.h" >"$tmp/base.h"
defs() {
    # shellcheck disable=SC2086
    $cc -E -dM -D_GNU_SOURCE $1 "$2" | sed -n 's/^#define \([A-Za-z_][A-Za-z0-9_]*\)\(([^)]*)\)\{0,1\}\( \(.*\)\)\{0,1\}$/\1\2 \4/p' | sort
}
for side in theirs ours; do
    eval "flags=\$$side"
    defs "$flags" "$tmp/base.h" | sed 's/[ (].*//' | sort -u >"$tmp/base_$side.names"
    defs "$flags" "$tmp/all.h" >"$tmp/all_$side.defs"
    sed 's/[ (].*//' "$tmp/all_$side.defs" | sort -u | comm -23 - "$tmp/base_$side.names" >"$tmp/$side.macros"
done
if ! cmp -s "$tmp/theirs.macros" "$tmp/ours.macros"; then
    echo "FAIL: the macros defined differ (< Debian, > pmkit):"
    diff "$tmp/theirs.macros" "$tmp/ours.macros" | grep '^[<>]' | sed 's/^/  /'
    fail=1
fi
[ "$(wc -l <"$tmp/theirs.macros")" -gt 30 ] || { echo "FAIL: too few macros read from Debian's headers"; exit 1; }
{
    cat "$tmp/all.h"
    printf '%s\n' 'static void s_(const char *n, const char *v) { printf("%s = \"%s\"\n", n, v); }'
    printf '%s\n' 'static void i_(const char *n, long long v) { printf("%s = %lld\n", n, v); }'
    echo '#define P_(m) _Generic((m), char *: s_, const char *: s_, default: i_)(#m, (m))'
    echo 'int main(void) {'
    # MMV_UNITS: the bytes of the pmUnits it builds
    echo 'pmUnits u = MMV_UNITS(1, -1, 1, PM_SPACE_KBYTE, PM_TIME_SEC, PM_COUNT_ONE + 3);'
    echo 'unsigned char b[sizeof u]; memcpy(b, &u, sizeof u);'
    printf '%s\n' 'for (size_t i = 0; i < sizeof u; i++) printf("MMV_UNITS byte %zu = %d\n", i, b[i]);'
    while read -r name; do
        def=$(awk -v n="$name" '$1 == n { $1 = ""; print }' "$tmp/all_theirs.defs")
        case $name in
        MMV_UNITS) ;;
        *\(*) echo "FAIL: the function-like macro $name is not compared" >&2 && exit 1 ;;
        *)
            # empty (guards) and numeric or string definitions
            if [ -z "$(echo "$def" | tr -d ' ')" ]; then
                printf 'printf("%s defined\\n");\n' "$name"
            else
                echo "P_($name);"
            fi
            ;;
        esac
    done <"$tmp/theirs.macros"
    echo 'return 0; }'
} >"$tmp/macros.c" || exit 1
build_both macros
# guards are defined empty on both sides
sed -n 's/ defined$//p' "$tmp/macros_theirs.out" | while read -r name; do
    awk -v n="$name" '$1 == n { $1 = ""; print }' "$tmp/all_ours.defs" | grep -q '[^ ]' &&
        echo "$name not empty" >>"$tmp/macros_ours.out"
done
if ! cmp -s "$tmp/macros_theirs.out" "$tmp/macros_ours.out"; then
    echo "FAIL: macro values differ (< Debian, > pmkit):"
    diff "$tmp/macros_theirs.out" "$tmp/macros_ours.out" | grep '^[<>]' | sed 's/^/  /'
    fail=1
fi
[ $fail = 0 ] || exit 1
echo "PASS: $(grep -c '^struct ' "$tmp/theirs.decls") structs, $(grep -c '^member ' "$tmp/theirs.decls") members," \
    "$(grep -c '^enum ' "$tmp/theirs.decls") enumerators, $(grep -c '^func ' "$tmp/theirs.decls") functions and" \
    "$(wc -l <"$tmp/theirs.macros") macros of Debian's mmv_stats.h, mmv_dev.h and trace.h as in pmkit's"
