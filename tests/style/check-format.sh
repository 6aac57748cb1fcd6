#!/bin/sh
# check-format.sh SRCDIR: every C source and header of pmkit is formatted as
# the checked-in .clang-format says (clang-format 14, Debian 12's).  Lists
# the files that are not and fails; the fix is clang-format -i on them.
# Build trees, the cache and test inputs that are not pmkit's code (each
# with its own .clang-format that disables formatting) are left alone.
set -u
top=${1:?usage: check-format.sh SRCDIR}
cd "$top" || exit 2
command -v clang-format >/dev/null 2>&1 || {
    echo "check-format: clang-format is not installed" >&2
    exit 2
}
bad=0
files=0
for f in $(find . \( -name 'build*' -o -name .cache -o -name .git \) -prune -o \
    \( -name '*.c' -o -name '*.h' \) -type f -print | sort); do
    files=$((files + 1))
    if ! clang-format --style=file "$f" | cmp -s - "$f"; then
        echo "not formatted: $f"
        bad=$((bad + 1))
    fi
done
echo "check-format: $files files, $bad not formatted"
[ "$bad" -eq 0 ]
