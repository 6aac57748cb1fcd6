#!/bin/sh
# images.sh BINDIR: the namespace tools on binary namespace images
# (pmnscomp's, docs/pmns-format.md).
#  - pmnsmerge reads images as inputs (same output as from their text),
#    and with -b writes one: the very bytes pmnscomp -d makes of the text
#    pmnsmerge writes without -b;
#  - pmnsadd and pmnsdel on an image leave an image, the one pmnscomp
#    makes of what they do to the text; -b turns a text namespace into an
#    image;
#  - -x finds duplicate PMIDs in an image input as in its text;
#  - a damaged image is refused with a message, exit 1, nothing changed.
# Exit 0 pass, 1 failure.
set -u
bindir=$(cd "$1" && pwd) || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pmns_images.XXXXXX") || exit 1
trap 'cd /; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fail=0
bad() {
    echo "FAIL: $*"
    fail=1
}
comp() { "$bindir/pmnscomp" -f -d -n "$1" "$2" >/dev/null || bad "pmnscomp $1 failed"; }

cat >a <<'EOF'
root {
	mine	1:1:1
	foo
	yours	1:1:2
	dyn	40:*:*
	event	1:9:9
}
foo {
	fumble	1:2:1
	stumble	1:2:2
}
EOF
cat >b <<'EOF'
root {
	surprise	1:1:3
	mine	1:1:1
	foo
	yawn
}
foo {
	mumble	1:2:3
	stumble	1:2:2
}
yawn {
	sleepy	1:3:1
	alias	1:1:1
}
EOF
printf 'sub.deeper {\n\tx\t2:0:1\n}\n' >subtree
comp a a.bin
comp b b.bin

# merge: image inputs, image output
"$bindir/pmnsmerge" a b text.out 2>/dev/null || bad "pmnsmerge a b failed"
"$bindir/pmnsmerge" a.bin b.bin bin.in 2>/dev/null || bad "pmnsmerge a.bin b.bin failed"
cmp -s text.out bin.in || bad "pmnsmerge of images differs from pmnsmerge of their text"
"$bindir/pmnsmerge" -b a b image.out 2>/dev/null || bad "pmnsmerge -b failed"
comp text.out ref.bin
cmp -s image.out ref.bin || bad "pmnsmerge -b is not what pmnscomp makes of pmnsmerge's text"
"$bindir/pmnscomp" --check image.out >/dev/null 2>&1 || bad "pmnscomp --check refuses pmnsmerge -b's image"

# pmnsadd and pmnsdel keep an image an image
cp a ns.txt
cp a.bin ns.bin
"$bindir/pmnsadd" -n ns.txt subtree >/dev/null || bad "pmnsadd on text failed"
"$bindir/pmnsadd" -n ns.bin subtree >/dev/null || bad "pmnsadd on an image failed"
comp ns.txt ref.bin
cmp -s ns.bin ref.bin || bad "pmnsadd on an image: not pmnscomp's image of the text result"
"$bindir/pmnsdel" -n ns.txt foo.stumble dyn || bad "pmnsdel on text failed"
"$bindir/pmnsdel" -n ns.bin foo.stumble dyn || bad "pmnsdel on an image failed"
comp ns.txt ref.bin
cmp -s ns.bin ref.bin || bad "pmnsdel on an image: not pmnscomp's image of the text result"
cp a ns2
"$bindir/pmnsdel" -b -n ns2 yours || bad "pmnsdel -b failed"
"$bindir/pmnsdel" -n a.bin yours 2>/dev/null && cp a.bin expect.bin
comp a a.bin
cp a ns3 && "$bindir/pmnsdel" -n ns3 yours && comp ns3 expect.bin
cmp -s ns2 expect.bin || bad "pmnsdel -b did not write pmnscomp's image"

# -x: the image's duplicates, as its text's
"$bindir/pmnsmerge" -x b x1 >/dev/null 2>err.txt
s1=$?
"$bindir/pmnsmerge" -x b.bin x2 >/dev/null 2>err.bin
s2=$?
[ $s1 = 1 ] && [ $s2 = 1 ] || bad "-x on duplicates: exit $s1 (text) and $s2 (image), not 1"
grep -q 'pmLoadASCIINameSpace(b.bin, 0)' err.bin || bad "-x on an image: $(cat err.bin)"
[ ! -e x1 ] && [ ! -e x2 ] || bad "-x on a bad input wrote an output"

# a damaged image: refused, nothing changed
cp a.bin broken.bin
printf 'X' | dd of=broken.bin bs=1 seek=200 conv=notrunc 2>/dev/null
cp broken.bin broken.orig
"$bindir/pmnsdel" -n broken.bin mine >/dev/null 2>err.broken
st=$?
[ $st = 1 ] || bad "pmnsdel on a damaged image: exit $st"
grep -q 'pmnsdel: Error: pmLoadASCIINameSpace(broken.bin, 1)' err.broken ||
    bad "pmnsdel on a damaged image: $(cat err.broken)"
cmp -s broken.bin broken.orig || bad "pmnsdel changed a damaged image"

[ $fail = 0 ] && echo "PASS: images in and out of pmnsmerge, pmnsadd and pmnsdel are pmnscomp's"
exit $fail
