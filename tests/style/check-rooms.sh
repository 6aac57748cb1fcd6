#!/bin/sh
# check-rooms.sh SRCDIR: the dependency rule between libpcp's rooms, as
# docs/architecture.md writes it down (the table between its "rooms: begin"
# and "rooms: end" marks), holds for every quoted #include in libpcp/,
# toolsupport/ and the tools: a file includes headers of its own room and
# of the rooms its row names, never by a relative path.  The tools' rows
# are in the same table.  Fails listing each forbidden include.
set -u
top=${1:?usage: check-rooms.sh SRCDIR}
cd "$top" || exit 2
doc=docs/architecture.md
[ -f "$doc" ] || { echo "check-rooms: no $doc" >&2; exit 2; }

# "room allowed..." lines from the table rows "| `room` | `a`, `b` |".
rules=$(sed -n '/<!-- rooms: begin -->/,/<!-- rooms: end -->/p' "$doc" |
    awk -F'|' '/^\| *`/ {
        room = $2; gsub(/[` ]/, "", room)
        uses = $3; gsub(/[`,]/, " ", uses); gsub(/—/, "", uses)
        print room, uses
    }')
[ -n "$rules" ] || { echo "check-rooms: no rules found in $doc" >&2; exit 2; }

# The room a directory's files belong to: libpcp/<room>/, or a top-level directory.
room_of() {
    case $1 in
    libpcp/include/*) echo include ;;
    libpcp/*/*) r=${1#libpcp/}; echo "${r%%/*}" ;;
    */*) echo "${1%%/*}" ;;
    esac
}

# Every header of the checked directories, "name room", to find an include's room.
headers=$(find libpcp toolsupport -name '*.h' -type f | while read -r h; do
    echo "$(basename "$h") $(room_of "$h")"
done)

bad=0
checked=0
for room_line in $(echo "$rules" | awk '{print $1}'); do
    if [ -d "libpcp/$room_line" ]; then dir=libpcp/$room_line; else dir=$room_line; fi
    [ -d "$dir" ] || continue
    allowed=$(echo "$rules" | awk -v r="$room_line" '$1 == r { $1 = ""; print }')
    for f in $(find "$dir" -name '*.[ch]' -type f | sort); do
        checked=$((checked + 1))
        for inc in $(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
            case $inc in
            */*)
                echo "$f: #include \"$inc\": a path into another folder; use the room's target"
                bad=$((bad + 1))
                continue
                ;;
            esac
            owner=$(echo "$headers" | awk -v h="$inc" '$1 == h { print $2; exit }')
            [ -n "$owner" ] || continue # the folder's own generated or local header
            [ "$owner" = "$room_line" ] && continue
            case " $allowed " in
            *" $owner "*) ;;
            *)
                echo "$f: #include \"$inc\": room $room_line may not use room $owner"
                bad=$((bad + 1))
                ;;
            esac
        done
    done
done
echo "check-rooms: $checked files, $bad forbidden includes"
[ "$bad" -eq 0 ]
