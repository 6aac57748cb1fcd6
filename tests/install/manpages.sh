#!/bin/sh
# manpages.sh BUILD SRC
#
# The man pages under SRC/share/man against the tools and libraries of the
# build tree BUILD:
#  - every tool has a page in man1, and its usage text (-?) and the page
#    agree both ways: each option the usage lists appears in the page's
#    SYNOPSIS or OPTIONS section, and each option the OPTIONS section
#    describes (the tags of its .TP entries) is in the usage (-? and --help
#    excepted: every tool takes them, not every usage lists them);
#  - every function (and variable) libpcp.so, libpcp_pmda.so and
#    libpcp_gui.so export,
#    other than the __ internals, is named in the NAME section of a man3
#    page, each name in one page only, and every name there is exported;
#    the .so pages the build made for those names point at real pages;
#  - every page formats without a groff warning (when groff is installed);
#  - `cmake --install` puts every page and .so page under share/man, and
#    each .so page resolves there.
# Exit 0 pass, 1 failure.
set -u
build=$1 src=$2
man=$src/share/man
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmkit-man.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
tools="pmcpp pmerr pminfo pmgenmap newhelp chkhelp pmnscomp pmnsmerge pmnsadd pmnsdel"

bad() {
    echo "FAIL: $*"
    fail=1
}

# Option tokens (-x, -MF, --long) in the text on stdin, one per line.
tokens() {
    awk '{
        s = $0
        while (match(s, /(^|[^A-Za-z0-9_-])--?[A-Za-z?][A-Za-z0-9?-]*/)) {
            t = substr(s, RSTART, RLENGTH)
            sub(/^[^-]/, "", t)
            print t
            s = substr(s, RSTART + RLENGTH)
        }
    }' | sort -u
}

# The sections named by the awk regex $2 of page $1, roff escapes removed.
sections() {
    awk -v want="$2" '
        /^\.SH / { on = ($0 ~ want); next }
        on {
            gsub(/\\f[BIRP]/, ""); gsub(/\\-/, "-"); gsub(/"/, " ")
            print
        }' "$1"
}

# The tags (the line after each .TP) of the OPTIONS section of page $1.
tags() {
    sections "$1" '^[.]SH OPTIONS' | awk '/^\.TP/ { getline; print }'
}

for tool in $tools; do
    page=$man/man1/$tool.1
    if [ ! -f "$page" ]; then
        bad "no man page for $tool ($page)"
        continue
    fi
    # the rich form of the usage lists pmkit's options too (PCP's form: PCP's lines)
    PMKIT_DIAGNOSTICS=rich "$build/bin/$tool" -? >"$tmp/usage" 2>&1
    # usage options: the lines that start (after blanks) with a dash, or
    # when there are none (a one-line usage, as pmnsadd's), the Usage line
    grep '^[[:space:]]*-' "$tmp/usage" | tokens >"$tmp/usage.opts"
    [ -s "$tmp/usage.opts" ] || grep '^Usage:' "$tmp/usage" | tokens >"$tmp/usage.opts"
    [ -s "$tmp/usage.opts" ] || bad "$tool: no options found in its -? text"
    sections "$page" '^[.]SH (SYNOPSIS|OPTIONS)' | tokens >"$tmp/man.opts"
    comm -23 "$tmp/usage.opts" "$tmp/man.opts" >"$tmp/missing"
    if [ -s "$tmp/missing" ]; then
        bad "$tool: options in its usage but not in $tool.1 SYNOPSIS/OPTIONS:" \
            "$(tr '\n' ' ' <"$tmp/missing")"
    fi
    tags "$page" | tokens | grep -v -x -e '-?' -e '--help' >"$tmp/man.tags"
    comm -23 "$tmp/man.tags" "$tmp/usage.opts" >"$tmp/extra"
    if [ -s "$tmp/extra" ]; then
        bad "$tool: options described in $tool.1 but not in its usage:" \
            "$(tr '\n' ' ' <"$tmp/extra")"
    fi
done

# Every exported name has a page; every NAME entry is exported, once.  The
# names carry their version (name@@PCP_3.0); the nodes themselves are
# absolute symbols (A).
nm -D --defined-only "$build/lib/libpcp.so.3" "$build/lib/libpcp_pmda.so.3" \
    "$build/lib/libpcp_gui.so.2" |
    awk 'NF == 3 && $2 != "A" && $3 !~ /^_/ { sub(/@.*/, "", $3); print $3 }' | sort -u >"$tmp/exported"
[ -s "$tmp/exported" ] || bad "nm found no exported names in $build/lib"
: >"$tmp/named"
for page in "$man"/man3/*.3; do
    awk '/^\.SH NAME/ { on = 1; next } /^\.SH/ { on = 0 } on' "$page" |
        sed 's/\\-.*//; s/\\//g' | tr ',' '\n' | tr -d ' \t' | grep -v '^$' |
        sed "s|\$| $(basename "$page")|" >>"$tmp/named"
done
awk '{ print $1 }' "$tmp/named" | sort | uniq -d >"$tmp/dups"
[ -s "$tmp/dups" ] && bad "names in the NAME section of more than one man3 page:" \
    "$(tr '\n' ' ' <"$tmp/dups")"
awk '{ print $1 }' "$tmp/named" | sort -u >"$tmp/names"
comm -23 "$tmp/exported" "$tmp/names" >"$tmp/undocumented"
[ -s "$tmp/undocumented" ] && bad "exported but on no man3 page (add each to the NAME" \
    "line of its family's page under share/man/man3):" "$(tr '\n' ' ' <"$tmp/undocumented")"
comm -13 "$tmp/exported" "$tmp/names" >"$tmp/unknown"
[ -s "$tmp/unknown" ] && bad "named in a man3 page but not exported:" \
    "$(tr '\n' ' ' <"$tmp/unknown")"
while read -r name page; do
    [ "$name.3" = "$page" ] && continue
    alias=$build/man/man3/$name.3
    if [ "$(cat "$alias" 2>/dev/null)" != ".so man3/$page" ]; then
        bad "$alias should say .so man3/$page"
    fi
done <"$tmp/named"

# groff's warnings.
if command -v groff >/dev/null 2>&1; then
    for page in "$man"/man1/*.1 "$man"/man3/*.3; do
        groff -man -ww -z -Tutf8 "$page" >"$tmp/groff" 2>&1
        [ -s "$tmp/groff" ] && bad "groff warns about $page:" "$(head -5 "$tmp/groff")"
    done
else
    echo "note: groff is not installed; pages not formatted"
fi

# Installed.
if cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then
    inst=$tmp/prefix/share/man
    for page in "$man"/man1/*.1 "$man"/man3/*.3; do
        sect=$(basename "$(dirname "$page")")
        cmp -s "$page" "$inst/$sect/$(basename "$page")" || bad "$page is not installed"
    done
    while read -r name page; do
        [ -f "$inst/man3/$name.3" ] || bad "man3/$name.3 is not installed"
    done <"$tmp/named"
    if command -v groff >/dev/null 2>&1; then
        for f in "$inst"/man3/*.3; do
            (cd "$inst" && groff -man -z "man3/$(basename "$f")") >"$tmp/groff" 2>&1
            [ -s "$tmp/groff" ] && bad "installed $f does not format:" "$(head -3 "$tmp/groff")"
        done
    fi
else
    tail -20 "$tmp/install.log"
    bad "cmake --install $build failed"
fi

[ $fail = 0 ] && echo "PASS: man pages agree with the tools and cover the libraries"
exit $fail
