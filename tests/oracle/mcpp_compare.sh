#!/bin/sh
# mcpp_compare.sh - check pmcpp against Debian's mcpp on the C-compatible subset.
#
# usage: mcpp_compare.sh PMCPP CASEDIR
#
# Requirement: "For the C-compatible subset (unquoted #define, #if expressions,
# nested conditionals, #include, comments) the output equals Debian's
# `mcpp -P` output up to blank lines."
#
# For every CASEDIR/NAME.c, from inside CASEDIR (so that "inc/x.h" resolves
# to the same file for both tools, see "Includes" below):
#     PMCPP -P NAME.c
#     LC_ALL=C mcpp -P -@std -V199901L -N -I- -I. NAME.c
# Both must exit 0 with an empty stderr (for mcpp: apart from the two
# tolerated warnings described below); their outputs, normalised as
# described below, must be identical.  If CASEDIR/NAME.expect exists, mcpp's
# normalised output must also equal it (a hand-written check that the case
# and our understanding of mcpp are right; a mismatch there is reported as a
# corpus error, not as a pmcpp bug).
#
# Exit status: 0 all identical ("mcpp comparison: N cases identical"),
#              1 any difference or failure, 2 usage error,
#              77 mcpp is not installed (SKIP).
# Environment: MCPP (default: mcpp), MCPP_DIFF_LINES (diff lines shown, 20),
#              MCPP_CASES (glob of case names, default *; MCPP_CASES='pcp_*'
#              with Debian's pmcpp re-checks the normalisation, see below).
#
# ---------------------------------------------------------------------------
# mcpp options, and why
#   -P          no #line markers (the requirement compares against mcpp -P).
#   -@std       the default mode, spelled out (-@kr and -@old reject
#               `defined(X)` and the u suffix in #if).
#   -V199901L   C99 rules: #if arithmetic in intmax_t/uintmax_t and LL
#               suffixes accepted without a warning.  (The default is C90+AMD1,
#               where long is 64 bits on x86_64 anyway.)
#   -N          do not predefine non-standard macros such as __linux__ and
#               __unix__ (mcpp still predefines __STDC__*, __MCPP, __FILE__,
#               __LINE__, __DATE__, __TIME__, __x86_64__, __amd64__; cases
#               must not use identifiers starting with two underscores).
#   (no -W)     default warning level.  mcpp warns about well-defined unsigned
#               arithmetic: `-1 > 0u` gives 'Negative value "-1" is converted
#               to positive "18446744073709551615"' and `0u - 1` gives
#               'Result of "-" is out of range' (signed overflow is an error,
#               not this warning).  Exactly these two warnings are tolerated;
#               any other mcpp diagnostic makes the case a corpus error.  -W0
#               would also hide the warnings that flag non-portable input
#               such as `1 << 64` or `-8 >> 1`, which cases must not use.
#   -I- -I.     do not search /usr/include etc.; search the case directory.
#   LC_ALL=C    with LANG=C.UTF-8 mcpp warns "Unknown encoding: C.UTF-8" for
#               every file (with -W0 it prints it anyway, followed by a
#               garbage number).
#
# Includes
#   pmcpp looks a quoted name up relative to the current directory first,
#   then in the directory of the top-level input file; mcpp looks a quoted
#   name up in the directory of the *including* file, then in the -I
#   directories.  Cases write every include path relative to CASEDIR
#   ("inc/x.h", also inside inc/*.h) and both tools run in CASEDIR with
#   mcpp given -I. ; then both open the same files.
#
# ---------------------------------------------------------------------------
# Normalisation (applied to both outputs)
#   1. Blank lines are dropped.  This is what "up to blank lines" allows, and
#      it is needed: pmcpp writes one line per input line, mcpp -P writes an
#      empty line for a directive but omits larger gaps entirely and joins
#      the lines of a multi-line comment.
#   2. Horizontal white space (space, tab) matters only between two word
#      characters [A-Za-z0-9_]: there a run becomes one space; anywhere
#      else (line start, line end, next to punctuation) it is deleted.
#      A line that becomes empty is dropped as in 1.
#      This is unavoidable, for three reasons, all verified with mcpp 2.7.2:
#      a. in standard mode mcpp surrounds every macro expansion with spaces so
#         that tokens cannot paste: `a.MAC (MAC) [EMPTY] MAC:0` with MAC=27
#         comes out as `a. 27 ( 27 ) [ ] 27 :0`, where pmcpp (like PCP's
#         pmcpp and any text substitution) gives `a.27 (27) [] 27:0`.  Only
#         the modes without #if expressions (-@kr, -@old) leave them out.
#         Next to punctuation, an inserted space cannot be told from one in
#         the input, so all white space there must go.
#      b. mcpp replaces a comment by one space and squeezes runs of white
#         space inside a line to one space; pmcpp replaces every character
#         of a comment by a space and keeps runs of blanks (`x /* c */ y`:
#         mcpp `x y`, pmcpp `x` + 9 spaces + `y`).  Between two words that
#         is the same separation, hence "a run becomes one space".
#      c. mcpp always strips trailing white space; pmcpp keeps it on lines
#         without a comment.  mcpp keeps leading white space but also puts
#         a space where a comment at the start of a line was.
#      What stays exact: every non-blank character, their order, the line
#      structure, and whether two words are separated at all (`a b` is not
#      `ab`), i.e. the token sequence of each line.
#   Nothing else is normalised.  Differences that normalisation cannot hide
#   must be avoided by the corpus instead (see the rules below).
#
# Corpus rules (where a correct pmcpp and mcpp are known to disagree)
#   - no function-like macros, no `##`/`#` operators, no quoted #define values
#     (pmcpp strips the quotes), no redefinition without #undef;
#   - no macro whose value contains the name of a macro (pmcpp never
#     rescans), and no empty macro used as an #if operand;
#   - no macro name inside a pp-number or a string/character literal (pmcpp
#     substitutes in `1foo`, `1.foo`, `"foo"`; mcpp does not);
#   - no `//`, no `/*` inside a comment or string, no apostrophes or quotes
#     outside comments and #if character constants, no backslash at the end
#     of a line, no text line starting with `#`, no #error/#warning/#pragma;
#   - a comment spanning lines must not start on a directive line (for mcpp
#     `#define B /* ...` + `... */ 2` defines B as 2, for pmcpp B is empty
#     and ` 2` is text), and must not have text both before its `/*` and
#     after its `*/` (mcpp joins those lines into one; pmcpp does not);
#   - directives start in column 1 as `#name` (pmcpp requires that);
#   - no implementation-defined #if arithmetic (right shift of a negative
#     value, signed overflow, shift counts >= 64, multi-character constants);
#   - ?: only where mcpp 2.7.2 gets it right (see if_ternary.c): it computes
#     `A op (C ? X : Y)` as `C op (C ? X : Y)` and gets `1 ? 0 ? 3 : 4 : 5`
#     and `1 ? 1 : 0 ? 3 : 4` wrong, so a parenthesised ?: only starts an
#     #if expression, and the only nesting is `0 ? a : c ? d : e`;
#   - every include path is relative to CASEDIR; every file ends in a newline.
#   Cases named pcp_*.c (and the inc/ files they include) also stay within
#   PCP's own pmcpp: no #if/#elif/defined, no nesting, at most one #else that
#   turns a block true and none after an #undef of a defined macro
#   (toolchain.md 2.15); Debian's pmcpp passes them, which is how this
#   normalisation was validated.
set -u

if [ $# -ne 2 ]; then
    echo "usage: $0 PMCPP CASEDIR" >&2
    exit 2
fi
PMCPP=$1
CASEDIR=$2
MCPP=${MCPP:-mcpp}
MAXLINES=${MCPP_DIFF_LINES:-20}
CASES=${MCPP_CASES:-*}

if ! command -v "$MCPP" >/dev/null 2>&1; then
    echo "SKIP: mcpp is not installed (Debian package mcpp)"
    exit 77
fi
MCPP=$(command -v "$MCPP")

case $PMCPP in
    /*) ;;
    */*) PMCPP=$(pwd)/$PMCPP ;;
    *) PMCPP=$(command -v "$PMCPP" || echo "$PMCPP") ;;
esac
if [ ! -x "$PMCPP" ] || [ -d "$PMCPP" ]; then
    echo "mcpp comparison: FAIL: pmcpp '$PMCPP' is not an executable file" >&2
    exit 2
fi
if [ ! -d "$CASEDIR" ]; then
    echo "mcpp comparison: FAIL: no case directory '$CASEDIR'" >&2
    exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcppcmp.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# See "Normalisation" above.
normalise() {
    awk '{
        out = ""; prev = ""; gap = 0
        n = length($0)
        for (i = 1; i <= n; i++) {
            c = substr($0, i, 1)
            if (c == " " || c == "\t") { gap = 1; continue }
            if (gap && prev ~ /[A-Za-z0-9_]/ && c ~ /[A-Za-z0-9_]/)
                out = out " "
            gap = 0
            out = out c
            prev = c
        }
        if (out != "") print out
    }' "$1"
}

# Drop the two tolerated mcpp warnings (see "mcpp options") from its stderr,
# each with the indented lines that follow it (the source line, "from ...").
mcpp_filter() {
    awk '
        /: warning: Negative value "[^"]*" is converted to positive "[^"]*"$/ { skip = 1; next }
        /: warning: Result of "[^"]*" is out of range$/ { skip = 1; next }
        skip && /^    / { next }
        { skip = 0; print }
    ' "$1"
}

DIFFOPT=-u
if diff -a /dev/null /dev/null >/dev/null 2>&1; then
    DIFFOPT=-au
fi

show_stderr() {
    # $1 = file
    if [ -s "$1" ]; then
        sed -n "1,${MAXLINES}s/^/    /p" "$1"
    fi
}

total=0
failed=0
for src in "$CASEDIR"/$CASES.c; do
    [ -f "$src" ] || continue
    file=${src##*/}
    name=${file%.c}
    total=$((total + 1))
    bad=0

    prc=0
    (cd "$CASEDIR" && "$PMCPP" -P "$file") \
        >"$tmp/p.raw" 2>"$tmp/p.err" </dev/null || prc=$?
    mrc=0
    (cd "$CASEDIR" && LC_ALL=C "$MCPP" -P -@std -V199901L -N -I- -I. "$file") \
        >"$tmp/m.raw" 2>"$tmp/m.all" </dev/null || mrc=$?
    mcpp_filter "$tmp/m.all" >"$tmp/m.err"

    if [ "$mrc" -ne 0 ] || [ -s "$tmp/m.err" ]; then
        echo "$name: CORPUS ERROR: mcpp exited with status $mrc and/or reported a problem"
        show_stderr "$tmp/m.all"
        bad=1
    fi
    if [ "$prc" -ne 0 ] || [ -s "$tmp/p.err" ]; then
        echo "$name: FAIL: pmcpp exited with status $prc and/or wrote to stderr"
        show_stderr "$tmp/p.err"
        bad=1
    fi

    normalise "$tmp/p.raw" >"$tmp/pmcpp"
    normalise "$tmp/m.raw" >"$tmp/mcpp"
    if ! cmp -s "$tmp/mcpp" "$tmp/pmcpp"; then
        echo "$name: FAIL: normalised output differs (- mcpp, + pmcpp)"
        (cd "$tmp" && diff $DIFFOPT mcpp pmcpp) | sed -n "3,$((MAXLINES + 2))s/^/    /p"
        bad=1
    fi

    if [ -f "$CASEDIR/$name.expect" ] && ! cmp -s "$CASEDIR/$name.expect" "$tmp/mcpp"; then
        echo "$name: CORPUS ERROR: mcpp output differs from $name.expect (- expect, + mcpp)"
        cp "$CASEDIR/$name.expect" "$tmp/expect"
        (cd "$tmp" && diff $DIFFOPT expect mcpp) | sed -n "3,$((MAXLINES + 2))s/^/    /p"
        bad=1
    fi

    failed=$((failed + bad))
done

if [ "$total" -eq 0 ]; then
    echo "mcpp comparison: FAIL: no cases ($CASES.c) in '$CASEDIR'" >&2
    exit 2
fi
if [ "$failed" -ne 0 ]; then
    echo "mcpp comparison: $failed of $total cases differ"
    exit 1
fi
echo "mcpp comparison: $total cases identical"
exit 0
