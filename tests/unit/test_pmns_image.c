/*
 * Unit tests for the binary namespace image (libpcp/format/pmns_image*.c,
 * docs/pmns-format.md): the hash and checksum test vectors and the worked
 * example of the specification, byte for byte; deterministic output; the
 * open-time checks (magic, version, features, checksums, truncation);
 * every byte of small images flipped, with and without the checksums
 * recomputed afterwards, and every truncation: each must give a clean
 * error, never a crash or a sanitizer report; and the names API over an
 * image file (pmLoadNameSpace, pmLoadASCIINameSpace, $PMNS_DEFAULT).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>
#endif
#include <cmocka.h>

#include <pcp/pmapi.h>
#include "pmns.h"
#include "pmns_image.h"

#define PMNS_WALK_CHECK(cond) assert_true(cond)
#include "../fuzz/pmns_image_walk.h"

static uint32_t get32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Text (preprocessed) to a tree; NULL if it does not load. */
static pmns_tree *parse(const char *text, size_t len, int dupok)
{
    pmns_load_opts o = {0};
    pmns_tree *t = NULL;

    o.file = "ns";
    o.use_cpp = 1;
    o.dupok = dupok;
    o.derived = 1;
    o.diag = walk_quiet;
    return pmns_load_buffer(&o, text, len, &t) == 0 ? t : NULL;
}

/* Text to a sealed image (pmnscomp's output). */
static uint8_t *compile(const char *text, size_t *len)
{
    pmns_tree *t = parse(text, strlen(text), 1);
    uint8_t *buf = NULL;

    assert_non_null(t);
    assert_int_equal(pmns_tree_image(t, 1, &buf, len), 0);
    pmns_free(t);
    return buf;
}

/* pmnscomp --check over len bytes at buf: 1 sound, 0 not. */
static int sound(const uint8_t *buf, size_t len)
{
    pmns_image *img;
    int ok;

    if (pmns_image_open_buffer(buf, len, 0, &img, NULL) < 0)
        return 0;
    ok = walk_sound(img);
    pmns_image_close(img);
    return ok;
}

/* Every walk of the names API over len bytes at buf; with strict, the
 * bytes must open and the answers agree (pmns_image_walk.h). */
static void exercise(const uint8_t *buf, size_t len, int strict)
{
    pmns_image *img;

    if (pmns_image_open_buffer(buf, len, 0, &img, NULL) < 0) {
        assert_false(strict);
        return;
    }
    walk_image(img, strict, 1);
    pmns_image_close(img);
}

/* ------------------------------------------------------------------ */

static void hash_and_checksum_vectors(void **state)
{
    (void)state;
    assert_int_equal(pmns_image_hash("", 0), 0x00000000u);
    assert_int_equal(pmns_image_hash("a", 1), 0x071717d2u);
    assert_int_equal(pmns_image_hash("kernel.all.load", 15), 0x4c6aa097u);
    assert_int_equal(pmns_image_crc32c(0, "123456789", 9), 0xe3069283u);
}

/* Home slot and linear probing as the specification describes them. */
static void expect_slots(const uint8_t *slots, uint32_t m, const char *const *names,
                         const uint32_t *offs, int n)
{
    uint8_t want[64 * 8] = {0};

    assert_true(m <= 64);
    for (int i = 0; i < n; i++) {
        uint32_t h = pmns_image_hash(names[i], strlen(names[i]));
        uint32_t s = (uint32_t)(((uint64_t)h * m) >> 32);
        while (get32(want + s * 8 + 4) != 0)
            s = (s + 1) % m;
        put32(want + s * 8, h);
        put32(want + s * 8 + 4, offs[i]);
    }
    assert_memory_equal(slots, want, m * 8);
}

static void expect_record(const uint8_t *r, uint32_t parent, uint32_t pmid, uint32_t info)
{
    assert_int_equal(get32(r), parent);
    assert_int_equal(get32(r + 4), pmid);
    assert_int_equal(get32(r + 8), info);
}

/* docs/pmns-format.md §9, field by field. */
static void specification_example(void **state)
{
    static const uint8_t magic[8] = {0x89, 'P', 'M', 'N', 'S', '\r', '\n', 0x1a};
    static const char *const names[] = {"a", "event", "event.flags", "event.missed"};
    static const uint32_t offs[] = {24, 40, 72, 92};
    static const uint32_t sect[4][3] = {{1, 128, 112}, {2, 240, 48}, {3, 288, 8}, {4, 296, 24}};
    size_t len;
    uint8_t *b = compile("root { a 1:0:1 }\n", &len), *n;
    uint8_t hdr[128];

    (void)state;
    assert_int_equal(len, 320);
    assert_memory_equal(b, magic, 8);
    assert_int_equal(b[8] | b[9] << 8, 1);
    assert_int_equal(b[10] | b[11] << 8, 0);
    assert_int_equal(get32(b + 12), 128);
    assert_int_equal(get32(b + 16), 0);
    assert_int_equal(get32(b + 20), 0);
    assert_int_equal(get32(b + 24), 320);
    assert_int_equal(get32(b + 28), 0);
    assert_int_equal(get32(b + 32), 5);
    assert_int_equal(get32(b + 36), 3);
    assert_int_equal(get32(b + 40), 4);
    assert_int_equal(get32(b + 44), 3);
    assert_int_equal(get32(b + 48), 4);
    assert_int_equal(get32(b + 52) | get32(b + 56), 0);
    memcpy(hdr, b, sizeof(hdr));
    put32(hdr + 60, 0);
    assert_int_equal(get32(b + 60), pmns_image_crc32c(0, hdr, sizeof(hdr)));
    for (int i = 0; i < 4; i++) {
        const uint8_t *e = b + 64 + 16 * i;
        assert_int_equal(get32(e), sect[i][0]);
        assert_int_equal(get32(e + 4), sect[i][1]);
        assert_int_equal(get32(e + 8), sect[i][2]);
        assert_int_equal(get32(e + 12), pmns_image_crc32c(0, b + sect[i][1], sect[i][2]));
    }
    n = b + 128;
    expect_record(n, 0xffffffffu, 0xffffffffu, 0x04000000u);
    assert_int_equal(get32(n + 12), 24);
    assert_int_equal(get32(n + 16), 2);
    assert_int_equal(get32(n + 20), 0);
    expect_record(n + 24, 0, 0x00400001u, 0x05000001u);
    assert_memory_equal(n + 36, "a\0\0\0", 4);
    expect_record(n + 40, 0, 0xffffffffu, 0x0c000005u);
    assert_int_equal(get32(n + 52), 72);
    assert_int_equal(get32(n + 56), 2);
    assert_int_equal(get32(n + 60), 5);
    assert_memory_equal(n + 64, "event\0\0\0", 8);
    expect_record(n + 72, 40, 0x7fc00001u, 0x0d000005u);
    assert_memory_equal(n + 84, "flags\0\0\0", 8);
    expect_record(n + 92, 40, 0x7fc00002u, 0x0d000006u);
    assert_memory_equal(n + 104, "missed\0\0", 8);
    expect_slots(b + 240, 6, names, offs, 4);
    assert_int_equal(get32(b + 288), 0);
    assert_int_equal(get32(b + 292), 3);
    assert_int_equal(get32(b + 296), 0x00400001u);
    assert_int_equal(get32(b + 300), 24);
    assert_int_equal(get32(b + 304), 0x7fc00001u);
    assert_int_equal(get32(b + 308), 72);
    assert_int_equal(get32(b + 312), 0x7fc00002u);
    assert_int_equal(get32(b + 316), 92);
    assert_true(sound(b, len));
    pmns_image_free(b, len);
}

/* Same namespace, same bytes, however the text is laid out. */
static void deterministic(void **state)
{
    size_t l1, l2, l3;
    uint8_t *a = compile("root {\n\tx\n\ty\t1:2:3\n}\nx {\n\tz\t1:2:4\n}\n", &l1);
    uint8_t *b = compile("root {\n\tx\n\ty\t1:2:3\n}\nx {\n\tz\t1:2:4\n}\n", &l2);
    uint8_t *c = compile("/* comment */\n#define D 1\nx { z D:2:4 }\nroot { x y D:2:3 }\n", &l3);

    (void)state;
    assert_int_equal(l1, l2);
    assert_memory_equal(a, b, l1);
    assert_int_equal(l1, l3);
    assert_memory_equal(a, c, l1);
    pmns_image_free(a, l1);
    pmns_image_free(b, l2);
    pmns_image_free(c, l3);
}

/* The writer zeroes only what it does not write (pmns_image_write.c's
 * place): every byte of an image is still a function of the namespace,
 * whatever the heap held before (glibc's M_PERTURB fills what malloc
 * gives with a byte of the caller's choice). */
static void deterministic_whatever_the_heap(void **state)
{
#ifdef M_PERTURB
    const char *text = "root {\n\tab\n\tc\t1:2:3\n\tdefg\t1:2:5\n\tevent\n}\n"
                       "ab {\n\tx\t1:2:4\n\tyyy\t1:2:4\n\tz\t7:*:*\n}\nevent {\n\tq\t1:0:9\n}\n";
    size_t l1, l2;
    uint8_t *a, *b;

    (void)state;
    mallopt(M_PERTURB, 0x5a);
    a = compile(text, &l1);
    mallopt(M_PERTURB, 0xa5);
    b = compile(text, &l2);
    mallopt(M_PERTURB, 0);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(l1, l2);
    assert_memory_equal(a, b, l1);
    pmns_image_free(a, l1);
    pmns_image_free(b, l2);
#else
    (void)state;
    skip();
#endif
}

/* Recompute every checksum after a change (a forger's image). */
static void reseal(uint8_t *b, size_t len)
{
    uint32_t hlen = get32(b + 12), nsect = get32(b + 48);
    uint8_t *copy;

    if (len < 64 || nsect > (len - 64) / 16 || hlen > len || hlen < 64 + 16 * nsect)
        return;
    for (uint32_t i = 0; i < nsect; i++) {
        uint8_t *e = b + 64 + 16 * i;
        uint32_t o = get32(e + 4), l = get32(e + 8);
        if (o <= len && l <= len - o)
            put32(e + 12, pmns_image_crc32c(0, b + o, l));
    }
    copy = malloc(hlen);
    memcpy(copy, b, hlen);
    put32(copy + 60, 0);
    put32(b + 60, pmns_image_crc32c(0, copy, hlen));
    free(copy);
}

static int open_code(const uint8_t *b, size_t len)
{
    pmns_image *img;
    int sts = pmns_image_open_buffer(b, len, 0, &img, NULL);

    pmns_image_close(img);
    return sts;
}

static void open_checks(void **state)
{
    size_t len;
    uint8_t *b = compile("root { a 1:0:1 b }\nb { c 1:0:2 d 33:*:* }\n", &len);
    uint8_t *x = malloc(len + 1);

    (void)state;
    assert_int_equal(open_code(b, len), 0);
    assert_int_equal(open_code((const uint8_t *)"root {\n a 1:0:1\n}\n", 17), PMNS_IMG_EMAGIC);
    for (size_t n = 0; n < len; n++) /* every truncation */
        assert_int_equal(open_code(b, n), n < 8 ? PMNS_IMG_EMAGIC : PMNS_IMG_ETRUNC);
    memcpy(x, b, len);
    x[len] = 0;
    assert_int_equal(open_code(x, len + 1), PMNS_IMG_ECORRUPT); /* bytes appended */
    x[8] = 2;                                                   /* major version 2 */
    reseal(x, len);
    assert_int_equal(open_code(x, len), PMNS_IMG_EVERSION);
    memcpy(x, b, len);
    x[10] = 1; /* minor version 1: accepted */
    reseal(x, len);
    assert_int_equal(open_code(x, len), 0);
    assert_false(sound(x, len)); /* but not what this pmnscomp writes */
    memcpy(x, b, len);
    x[16] = 1; /* a required feature */
    reseal(x, len);
    assert_int_equal(open_code(x, len), PMNS_IMG_EFEATURE);
    memcpy(x, b, len);
    x[61] ^= 1;
    assert_int_equal(open_code(x, len), PMNS_IMG_ECHECKSUM);
    memcpy(x, b, len);
    put32(x + 64 + 4, 100); /* NODES at an unaligned offset */
    reseal(x, len);
    assert_int_equal(open_code(x, len), PMNS_IMG_ECORRUPT);
    free(x);
    pmns_image_free(b, len);
}

/* Small images with every kind of node: duplicates, dynamic roots, hidden
 * groups, an "event" of the source's own, deep and wide nodes. */
static const char *const samples[] = {
    "root { a 1:0:1 }\n",
    "root {\n  zeta 1:0:1\n  alpha\n  mid 1:0:1\n  dyn 33:*:*\n  empty\n}\n"
    "alpha {\n  z 1:0:1\n  b 1:0:2\n  a 1:0:1\n}\nempty {\n}\n",
    "root {\n  event 40:*:*\n  x\n}\nx {\n  y\n  k 2:0:0\n}\nx.y {\n  deep 2:0:1\n}\n",
    "root {\n  event\n  d 30:*:*\n}\nevent {\n  flags 3:0:1\n  mine 3:0:2\n}\n",
    "root {\n  event 4:5:6\n  kernel\n}\nkernel {\n  all\n}\nkernel.all {\n"
    "  load 60:2:0\n  cpu\n}\nkernel.all.cpu {\n  user 60:0:20\n  sys 60:0:22\n}\n",
};

/* Section id's offset in the image at b (its length into *len if not
 * NULL): the section table says where each one is, in any order. */
static uint32_t section(const uint8_t *b, uint32_t id, uint32_t *len)
{
    for (uint32_t i = 0; i < get32(b + 48); i++) {
        if (get32(b + 64 + 16 * i) == id) {
            if (len != NULL)
                *len = get32(b + 64 + 16 * i + 8);
            return get32(b + 64 + 16 * i + 4);
        }
    }
    fail_msg("no section %u", id);
    return 0;
}

/* Bytes no index covers: the PMID of a dynamic root and the name of a
 * hidden node.  A re-sealed flip there may give another sound image (a
 * root for another domain, a hidden group of another name). */
static int unindexed_byte(const uint8_t *b, size_t at)
{
    pmns_image *img;
    pmns_image_node nd;
    uint32_t nodes = section(b, 1, NULL);
    int hit = 0;

    if (at < nodes || pmns_image_open_buffer(b, get32(b + 24), 0, &img, NULL) < 0)
        return 0;
    for (uint32_t off = 0; pmns_image_node_at(img, off, &nd) == 0; off = nd.next) {
        size_t rec = nodes + off;
        if ((nd.flags & PMNS_IMG_DYNAMIC) && at >= rec + 4 && at < rec + 8)
            hit = 1;
        if (!(nd.flags & PMNS_IMG_VISIBLE) && at >= rec + 24 && at < rec + 24 + nd.pathlen)
            hit = 1;
    }
    pmns_image_close(img);
    return hit;
}

static void flip_every_byte(void **state)
{
    static const uint8_t masks[] = {0x01, 0x80, 0xff};
    unsigned flips = 0, resealed = 0, detected = 0;

    (void)state;
    for (size_t s = 0; s < sizeof(samples) / sizeof(samples[0]); s++) {
        size_t len;
        uint8_t *b = compile(samples[s], &len), *x = malloc(len);
        assert_true(sound(b, len));
        exercise(b, len, 1);
        for (size_t at = 0; at < len; at++) {
            for (size_t m = 0; m < sizeof(masks); m++) {
                memcpy(x, b, len);
                x[at] ^= masks[m];
                flips++;
                assert_false(sound(x, len)); /* the checksums see every byte */
                exercise(x, len, 0);         /* and the reader survives it */
                reseal(x, len);
                if (memcmp(x, b, len) == 0)
                    continue; /* a checksum byte: re-sealing undid the flip */
                resealed++;
                if (!sound(x, len)) {
                    detected++;
                    exercise(x, len, 0);
                    continue;
                }
                /* sound after all: a different namespace, consistent */
                if (!unindexed_byte(x, at))
                    fail_msg("sample %zu: flipping byte %zu by 0x%02x and re-sealing gives a "
                             "sound image",
                             s, at, masks[m]);
                exercise(x, len, 1);
            }
        }
        for (size_t n = 0; n < len; n++) { /* every truncation */
            assert_false(sound(b, n));
            exercise(b, n, 0);
        }
        free(x);
        pmns_image_free(b, len);
    }
    print_message("%u flips, all detected; %u re-sealed, %u detected by the structure\n", flips,
                  resealed, detected);
}

/* The same image with NODES moved to the very end of the file, in a
 * buffer of exactly that size: a read past NODES is then a read past the
 * buffer, which AddressSanitizer reports (where NODES comes first, such a
 * read would land in NAME_INDEX unseen).  The section table allows any
 * order. */
static uint8_t *nodes_last(const uint8_t *b, size_t len, size_t *outlen)
{
    uint32_t nlen, off = section(b, 1, &nlen);
    size_t at = (len + 7) & ~(size_t)7;
    uint8_t *x;

    assert_int_equal(get32(b + 64), 1); /* NODES is the first entry */
    *outlen = at + nlen;
    x = calloc(1, *outlen);
    assert_non_null(x);
    memcpy(x, b, len);
    memcpy(x + at, b + off, nlen);
    memset(x + off, 0, nlen); /* where NODES was: padding now */
    put32(x + 64 + 4, (uint32_t)at);
    { /* and its entry last in the section table, which is in file order */
        uint8_t e[16];
        uint32_t nsect = get32(x + 48);
        memcpy(e, x + 64, 16);
        memmove(x + 64, x + 64 + 16, 16 * (nsect - 1));
        memcpy(x + 64 + 16 * (nsect - 1), e, 16);
    }
    put32(x + 24, (uint32_t)*outlen);
    put32(x + 28, 0);
    reseal(x, *outlen);
    return x;
}

/* The full names of the nodes below nd, into names[*n]. */
static char names_below[64][64];

static void collect_names(const pmns_image *img, const pmns_image_node *nd, size_t *n)
{
    pmns_image_iter it;
    pmns_image_node c;

    pmns_image_children(nd, &it);
    while (pmns_image_next(img, &it, &c) > 0) {
        const char *h, *t;
        uint32_t hl, tl;
        assert_int_equal(pmns_image_name(img, &c, &h, &hl, &t, &tl), 0);
        assert_true(*n < 64 && hl + tl + 2 <= 64);
        snprintf(names_below[(*n)++], 64, "%.*s%s%.*s", (int)hl, h, hl ? "." : "", (int)tl, t);
        collect_names(img, &c, n);
    }
}

/* The names of the (sound) image at b into names_below; their count. */
static size_t names_of(const uint8_t *b, size_t len)
{
    pmns_image *img;
    pmns_image_node root;
    size_t n = 0;

    assert_int_equal(pmns_image_open_buffer(b, len, 0, &img, NULL), 0);
    assert_int_equal(pmns_image_node_at(img, 0, &root), 0);
    collect_names(img, &root, &n);
    pmns_image_close(img);
    return n;
}

/* Every name of the image at b looked up in the image at y (a damaged
 * copy), under AddressSanitizer: what the walks cannot reach once the
 * tree is broken, the name index still can. */
static void find_all(const uint8_t *y, size_t ylen, size_t n)
{
    pmns_image *img;
    pmns_image_node nd;

    if (pmns_image_open_buffer(y, ylen, 0, &img, NULL) < 0)
        return;
    for (size_t i = 0; i < n; i++)
        (void)pmns_image_find(img, names_below[i], strlen(names_below[i]), &nd);
    pmns_image_close(img);
}

/* A forged index slot that leads to a leaf whose parent pointer lands 8
 * bytes before it, so that the "parent's" full-name length is read from
 * the leaf's own name ("x": 120) and its name would run 120 bytes past
 * NODES, which ends the buffer.  The lookup must refuse it before reading
 * those bytes: a read past the buffer is what AddressSanitizer builds
 * report; elsewhere the lookup fails either way (the bytes past NODES are
 * not the name). */
static void parent_name_past_the_end(void **state)
{
    size_t len, xlen;
    uint8_t *b = compile("root { g }\ng { h }\ng.h { x 1:0:1 }\n", &len);
    uint8_t *x = nodes_last(b, len, &xlen);
    uint32_t nodes = section(x, 1, NULL), off, h, m, slots = section(x, 2, &m);
    char name[123];
    pmns_image *img;
    pmns_image_node nd;

    (void)state;
    off = (uint32_t)(xlen - nodes) - 16; /* the last record: the leaf x */
    assert_int_equal(get32(x + nodes + off + 8) & 0xffffff, 1);
    assert_int_equal(x[nodes + off + 12], 'x');
    put32(x + nodes + off, off - 8);
    memset(name, 'a', 120);
    memcpy(name + 120, ".x", 3);
    m /= 8; /* slots */
    h = pmns_image_hash(name, 122);
    put32(x + slots + 8 * pmns_image_scale(h, m), h);
    put32(x + slots + 8 * pmns_image_scale(h, m) + 4, off);
    assert_int_equal(pmns_image_open_buffer(x, xlen, 0, &img, NULL), 0);
    assert_int_equal(pmns_image_find(img, name, 122, &nd), PMNS_IMG_NONE);
    pmns_image_close(img);
    free(x);
    pmns_image_free(b, len);
}

static void flip_nodes_at_the_end(void **state)
{
    static const uint8_t masks[] = {0x01, 0x04, 0x80, 0xff};
    unsigned flips = 0;

    (void)state;
    for (size_t s = 0; s < sizeof(samples) / sizeof(samples[0]); s++) {
        size_t len, xlen;
        uint8_t *b = compile(samples[s], &len), *x = nodes_last(b, len, &xlen);
        uint8_t *y = malloc(xlen);
        size_t nodes = section(x, 1, NULL), nnames = names_of(x, xlen);

        exercise(x, xlen, 1); /* moved, it still answers alike */
        for (size_t at = nodes; at < xlen; at++) {
            for (size_t m = 0; m < sizeof(masks); m++) {
                memcpy(y, x, xlen);
                y[at] ^= masks[m];
                flips++;
                exercise(y, xlen, 0); /* NODES is not checksummed at open */
                find_all(y, xlen, nnames);
            }
        }
        /* every word of NODES (parents among them) made an offset just
         * before itself */
        for (size_t r = nodes + 4; r < xlen; r += 4) {
            for (uint32_t d = 1; d <= 24 && d <= r - nodes; d++) {
                memcpy(y, x, xlen);
                put32(y + r, (uint32_t)(r - nodes - d));
                flips++;
                exercise(y, xlen, 0);
                find_all(y, xlen, nnames);
            }
        }
        free(y);
        free(x);
        pmns_image_free(b, len);
    }
    print_message("%u flips of NODES at the end of the file\n", flips);
}

static void writer_input(void **state)
{
    pmns_image_writer *w = pmns_image_writer_new();
    uint8_t *buf;
    size_t len;
    pmns_image *img;

    (void)state;
    assert_int_equal(pmns_image_add(w, 1, "a", 1, 1, 0), PMNS_IMG_EORDER); /* parent is itself */
    assert_int_equal(pmns_image_add(w, 0, "", 0, 1, 0), PMNS_IMG_EORDER);  /* no name */
    assert_int_equal(pmns_image_add(w, 0, "a", 1, PMNS_IMG_PMID_NULL, 0), 0);
    assert_int_equal(pmns_image_add(w, 0, "b", 1, 5, 0), 0);
    assert_int_equal(pmns_image_add(w, 1, "c", 1, 5, 0), 0);
    assert_int_equal(pmns_image_add(w, 0, "d", 1, 6, 0), PMNS_IMG_EORDER); /* root's again */
    assert_int_equal(pmns_image_finish(w, 1, &buf, &len), 0);
    assert_int_equal(pmns_image_open_buffer(buf, len, 1, &img, NULL), 0);
    assert_true(img->props & PMNS_IMG_PROP_DUPLICATES);
    assert_int_not_equal(pmns_image_find(img, "a.c", 3, NULL), PMNS_IMG_NONE);
    pmns_image_close(img);
    pmns_image_writer_free(NULL);
}

/* The full names of the entries of pmid, in the image's order, joined
 * by spaces into buf. */
static void entry_names(const pmns_image *img, uint32_t want, char *buf, size_t cap)
{
    uint32_t pmid, off;
    size_t at = 0;

    buf[0] = '\0';
    for (uint32_t i = 0; pmns_image_entry(img, i, &pmid, &off) == 0; i++) {
        pmns_image_node nd;
        const char *h, *t;
        uint32_t hl, tl;
        if (pmid != want)
            continue;
        assert_int_equal(pmns_image_node_at(img, off, &nd), 0);
        assert_int_equal(pmns_image_name(img, &nd, &h, &hl, &t, &tl), 0);
        at += (size_t)snprintf(buf + at, cap - at, "%s%.*s%s%.*s", at ? " " : "", (int)hl, h,
                               hl ? "." : "", (int)tl, t);
        assert_true(at < cap);
    }
}

/* A PMID's entries are in reverse depth-first pre-order (docs/pmns-format.md
 * §6), a node with a PMID and children (HASPMID) before its descendants:
 * worked out by hand from the tree, with few repeats (ordered by the
 * nodes' ancestors) and with more than 16 (ordered by pre-order positions). */
static void writer_repeat_order(void **state)
{
    char got[1024], want[1024];

    (void)state;
    for (int many = 0; many <= 1; many++) {
        pmns_image_writer *w = pmns_image_writer_new();
        pmns_image *img;
        uint8_t *buf;
        size_t len;
        int at = 0;
        /* root: a (7, children x, y), b (7), then c0.. (7) if many; y: z (7) */
        assert_int_equal(pmns_image_add(w, 0, "a", 1, 7, 0), 0);
        assert_int_equal(pmns_image_add(w, 0, "b", 1, 7, 0), 0);
        for (int i = 0; many && i < 20; i++) {
            char name[8];
            snprintf(name, sizeof(name), "c%d", i);
            assert_int_equal(pmns_image_add(w, 0, name, strlen(name), 7, 0), 0);
        }
        assert_int_equal(pmns_image_add(w, 1, "x", 1, 7, 0), 0);
        assert_int_equal(pmns_image_add(w, 1, "y", 1, PMNS_IMG_PMID_NULL, 0), 0);
        assert_int_equal(pmns_image_add(w, many ? 24 : 4, "z", 1, 7, 0), 0);
        assert_int_equal(pmns_image_finish(w, 1, &buf, &len), 0);
        assert_int_equal(pmns_image_open_buffer(buf, len, 1, &img, NULL), 0);
        entry_names(img, 7, got, sizeof(got));
        for (int i = many ? 19 : -1; i >= 0; i--)
            at += snprintf(want + at, sizeof(want) - (size_t)at, "c%d ", i);
        snprintf(want + at, sizeof(want) - (size_t)at, "b a.y.z a.x a");
        assert_string_equal(got, want);
        pmns_image_close(img);
    }
}

/* ------------------------------------------------------------------ */
/* The names API over image files. */

static void write_file(char *path, const void *data, size_t len)
{
    int fd;

    strcpy(path, "/tmp/pmkit-image-XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    assert_int_equal(close(fd), 0);
}

/* pmLookupName of many names at once (looked up in prefetched groups of
 * 16 from an image) answers each name as a lookup of that name alone, and
 * counts as PCP does: every name of each sample, each with ".sub" after
 * it (below a dynamic root, or nothing), unknown, empty and NULL names,
 * the derived metrics, three times over so that groups end mid-list. */
static void batch_equals_single(void **state)
{
    (void)state;
    for (size_t s = 0; s < sizeof(samples) / sizeof(samples[0]); s++) {
        char path[64], sub[64][80];
        const char *q[200];
        pmID one[200], many[200];
        int got, n = 0, found = 0, derived = 0;
        size_t len;
        uint8_t *b = compile(samples[s], &len);
        size_t nnames = names_of(b, len);
        for (int rep = 0; rep < 3; rep++) {
            for (size_t i = 0; i < nnames; i++) {
                snprintf(sub[i], sizeof(sub[i]), "%.63s.sub", names_below[i]);
                q[n++] = names_below[i];
                q[n++] = sub[i];
            }
            q[n++] = "no.such.name";
            q[n++] = "";
            q[n++] = NULL;
            q[n++] = "event.flags";
            q[n++] = "event.missed";
            q[n++] = "event";
        }
        assert_true(n <= 200 && n > 32);
        write_file(path, b, len);
        assert_int_equal(pmLoadNameSpace(path), 0);
        for (int i = 0; i < n; i++) {
            one[i] = PM_ID_NULL;
            got = q[i] != NULL ? pmLookupName(1, &q[i], &one[i]) : PM_ERR_NAME;
            if (got < 0)
                continue;
            if (one[i] == pmID_build(511, 0, 1) || one[i] == pmID_build(511, 0, 2))
                derived++; /* the anonymous derived metrics */
            else
                found++;
        }
        assert_true(found > 0 && found + derived < n);
        assert_int_equal(pmLookupName(n, q, many), found); /* derived ones do not count */
        for (int i = 0; i < n; i++)
            assert_int_equal(many[i], one[i]);
        pmUnloadNameSpace();
        unlink(path);
        pmns_image_free(b, len);
    }
}

/* Single lookups in an image with enough non-leaves that each one first
 * prefetches its parent's record by name: the answers are the image's,
 * names without a parent (no dot, a leading or trailing dot) are fine,
 * and a NAME_INDEX overwritten with junk gives errors or the right answer,
 * never a read outside the image (ASan, over a malloc'd copy). */
#define BIG_GROUPS (PMNS_IMG_PARENT_PREFETCH_MIN + 100)

static void single_lookups_prefetch_parents(void **state)
{
    static char names[BIG_GROUPS][8];
    const char *odd[] = {"m", ".m", "g1.", ".", "g1..m", "g1.m.m", "g1", "event.flags"};
    pmns_image_writer *w = pmns_image_writer_new();
    uint32_t nslots, slots;
    size_t len;
    uint8_t *b;
    pmns_image *img;
    char path[64], junk[64], q[32];
    const char *qp = q;
    pmID id;

    (void)state;
    for (uint32_t i = 0; i < BIG_GROUPS; i++) { /* root { g0 g1 ... }, gI { m 1:C:I } */
        snprintf(names[i], sizeof(names[i]), "g%u", i);
        assert_int_equal(pmns_image_add(w, 0, names[i], strlen(names[i]), PMNS_IMG_PMID_NULL, 0),
                         0);
    }
    for (uint32_t i = 0; i < BIG_GROUPS; i++)
        assert_int_equal(pmns_image_add(w, i + 1, "m", 1, pmID_build(1, i >> 10, i & 1023), 0), 0);
    assert_int_equal(pmns_image_finish(w, 1, &b, &len), 0);
    assert_int_equal(pmns_image_open_buffer(b, len, 0, &img, NULL), 0);
    assert_true(img->nnodes - img->nleaves >= PMNS_IMG_PARENT_PREFETCH_MIN);
    pmns_image_close(img);

    write_file(path, b, len);
    assert_int_equal(pmLoadNameSpace(path), 0);
    for (uint32_t i = 0; i < BIG_GROUPS; i++) {
        snprintf(q, sizeof(q), "g%u.m", i);
        assert_int_equal(pmLookupName(1, &qp, &id), 1);
        assert_int_equal(id, pmID_build(1, i >> 10, i & 1023));
        snprintf(q, sizeof(q), "g%u.x", i);
        assert_int_equal(pmLookupName(1, &qp, &id), PM_ERR_NAME);
    }
    for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
        assert_int_equal(pmLookupName(1, &odd[i], &id), i == 6   ? PM_ERR_NONLEAF
                                                        : i == 7 ? 1
                                                                 : PM_ERR_NAME);
    pmUnloadNameSpace();

    slots = section(b, 2, &nslots);
    srand(7);
    for (uint32_t i = 0; i < nslots; i++)
        b[slots + i] = (uint8_t)rand();
    write_file(junk, b, len); /* its checksum no longer matches: not checked at open */
    assert_int_equal(pmLoadNameSpace(junk), 0);
    for (uint32_t i = 0; i < BIG_GROUPS; i += 7) {
        snprintf(q, sizeof(q), "g%u.m", i);
        int sts = pmLookupName(1, &qp, &id);
        assert_true(sts == 1 || sts == PM_ERR_NAME || sts == PM_ERR_PMNS);
        if (sts == 1) /* the records are sound: a name found is the right one */
            assert_int_equal(id, pmID_build(1, i >> 10, i & 1023));
    }
    pmUnloadNameSpace();
    /* the same from a malloc'd copy, where ASan sees a read past its end
     * (a file is mapped, and out of ASan's sight) */
    {
        uint8_t *copy = malloc(len);
        pmns_image_node nd;
        assert_non_null(copy);
        memcpy(copy, b, len);
        assert_int_equal(pmns_image_open_buffer(copy, len, 0, &img, NULL), 0);
        for (uint32_t i = 0; i < BIG_GROUPS; i++) {
            snprintf(q, sizeof(q), "g%u.m", i);
            pmns_image_prefetch_parent(img, q, strlen(q));
            if (pmns_image_find(img, q, strlen(q), &nd) != PMNS_IMG_NONE)
                assert_int_equal(nd.pmid, pmID_build(1, i >> 10, i & 1023));
        }
        pmns_image_close(img);
        free(copy);
    }
    unlink(path);
    unlink(junk);
    pmns_image_free(b, len);
}

/* pmNameID gives the first of pmNameAll's names, but like pmNameAll it
 * fails when another name of the PMID is damaged. */
static void nameid_sees_every_entry(void **state)
{
    size_t len;
    uint8_t *b = compile("root {\n    a 1:0:1\n    b 1:0:1\n    c 1:0:2\n}\n", &len);
    uint32_t n, entries = section(b, 4, &n), seen = 0;
    char path[64], *name = (char *)"untouched", **list = NULL;

    (void)state;
    for (uint32_t i = 0; i < n / 8; i++)
        if (get32(b + entries + 8 * i) == pmID_build(1, 0, 1) && ++seen == 2)
            put32(b + entries + 8 * i + 4, 2); /* the second name: no record there */
    assert_int_equal(seen, 2);
    write_file(path, b, len);
    assert_int_equal(pmLoadNameSpace(path), 0);
    assert_int_equal(pmNameID(pmID_build(1, 0, 1), &name), PM_ERR_PMNS);
    assert_int_equal(pmNameAll(pmID_build(1, 0, 1), &list), PM_ERR_PMNS);
    assert_int_equal(pmNameID(pmID_build(1, 0, 2), &name), 0);
    assert_string_equal(name, "c");
    free(name);
    pmUnloadNameSpace();
    unlink(path);
    pmns_image_free(b, len);
}

static void names_api(void **state)
{
    char path[64], name[64];
    const char *names[] = {"alpha.b", "dyn.x.y", "empty", "event.flags"};
    pmID ids[4];
    char **list = NULL;
    size_t len;
    uint8_t *b = compile(samples[1], &len);

    (void)state;
    write_file(path, b, len);
    assert_int_equal(pmLoadNameSpace(path), 0);
    /* derived names count only when they complete the list, as in PCP */
    assert_int_equal(pmLookupName(4, names, ids), 2);
    assert_int_equal(ids[0], pmID_build(1, 0, 2));
    assert_int_equal(ids[1], pmID_build(511, 33, 0));
    assert_int_equal(ids[2], PM_ID_NULL);
    assert_int_equal(ids[3], pmID_build(511, 0, 1));
    assert_int_equal(pmNameAll(pmID_build(1, 0, 1), &list), 4);
    assert_string_equal(list[0], "mid");
    assert_string_equal(list[3], "zeta");
    free(list);
    assert_int_equal(pmGetChildren("", &list), 5); /* zeta alpha mid dyn event */
    free(list);
    pmUnloadNameSpace();
    /* duplicates: refused without dupok, as the text is */
    assert_int_equal(pmLoadASCIINameSpace(path, 0), PM_ERR_PMNS);
    assert_int_equal(pmGetPMNSLocation(), PM_ERR_NOPMNS);
    assert_int_equal(pmLoadASCIINameSpace(path, 1), 0);
    pmUnloadNameSpace();
    setenv("PMNS_DEFAULT", path, 1);
    assert_int_equal(pmLoadNameSpace(PM_NS_DEFAULT), 0);
    assert_int_equal(pmNameID(pmID_build(1, 0, 2), (char **)&list), 0);
    snprintf(name, sizeof(name), "%s", (char *)list);
    free(list);
    assert_string_equal(name, "alpha.b");
    pmUnloadNameSpace();
    unsetenv("PMNS_DEFAULT");
    unlink(path);
    /* a damaged file: a clean error, nothing loaded */
    b[200] ^= 0x40;
    put32(b + 60, get32(b + 60) ^ 1);
    write_file(path, b, len);
    assert_int_equal(pmLoadNameSpace(path), PM_ERR_PMNS);
    assert_int_equal(pmGetPMNSLocation(), PM_ERR_NOPMNS);
    unlink(path);
    write_file(path, b, len / 2);
    assert_int_equal(pmLoadNameSpace(path), PM_ERR_PMNS);
    unlink(path);
    pmns_image_free(b, len);
}

/* A traversal's callbacks may unload the namespace and load another: the
 * walk goes on over the old one (PCP gathers its names first). */
static char other[64];
static int calls, nested;

static void count_leaf(const char *name, void *closure)
{
    (void)name;
    ++*(int *)closure;
}

static void reloading(const char *name, void *closure)
{
    int n = 0;

    (void)closure;
    if (calls++ == 0) {
        pmUnloadNameSpace();
        assert_int_equal(pmLoadNameSpace(other), 0);
    }
    assert_true(strncmp(name, "alpha.", 6) == 0 || strchr(name, '.') == NULL ||
                strncmp(name, "event.", 6) == 0);
    if (pmTraversePMNS_r("", count_leaf, &n) >= 0)
        nested += n;
}

static void traversal_callbacks_reload(void **state)
{
    char path[64];
    size_t l1, l2;
    uint8_t *b = compile(samples[1], &l1), *o = compile("root { x 7:0:1 }\n", &l2);

    (void)state;
    write_file(path, b, l1);
    write_file(other, o, l2);
    assert_int_equal(pmLoadNameSpace(path), 0);
    calls = nested = 0;
    /* zeta alpha.z alpha.b alpha.a mid dyn event.flags event.missed */
    assert_int_equal(pmTraversePMNS_r("", reloading, NULL), 8);
    assert_int_equal(calls, 8);
    assert_int_equal(nested, 8 * 3); /* the other namespace: x and event.* */
    pmUnloadNameSpace();
    unlink(path);
    unlink(other);
    pmns_image_free(b, l1);
    pmns_image_free(o, l2);
}

/* pmns_image_canonical (pmnscomp --check): pmnscomp's own output is
 * canonical; an image the writer laid out otherwise (unsealed, or without
 * the derived names every compiled namespace carries) is not, and the
 * first byte that differs is named. */
static void canonical_form(void **state)
{
    static const char text[] = "root {\n a 1:0:0\n b\n}\nb {\n c 1:0:1\n}\n";
    pmns_canonical c;
    pmns_image *img;
    pmns_tree *t;
    uint8_t *buf;
    size_t len;

    (void)state;
    buf = compile(text, &len);
    assert_int_equal(pmns_image_open_buffer(buf, len, 0, &img, NULL), 0);
    assert_int_equal(pmns_image_canonical(img, "ns", &c), 0);
    pmns_image_close(img);
    pmns_image_free(buf, len);

    t = parse(text, strlen(text), 1);
    assert_non_null(t);
    assert_int_equal(pmns_tree_image(t, 0, &buf, &len), 0);
    assert_int_equal(pmns_image_open_buffer(buf, len, 0, &img, NULL), 0);
    assert_int_equal(pmns_image_canonical(img, "ns", &c), PMNS_CANON_DIFFERS);
    assert_true(c.at < len);
    pmns_image_close(img);
    pmns_image_free(buf, len);
    pmns_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hash_and_checksum_vectors),
        cmocka_unit_test(specification_example),
        cmocka_unit_test(deterministic),
        cmocka_unit_test(deterministic_whatever_the_heap),
        cmocka_unit_test(open_checks),
        cmocka_unit_test(flip_every_byte),
        cmocka_unit_test(flip_nodes_at_the_end),
        cmocka_unit_test(parent_name_past_the_end),
        cmocka_unit_test(writer_input),
        cmocka_unit_test(writer_repeat_order),
        cmocka_unit_test(names_api),
        cmocka_unit_test(batch_equals_single),
        cmocka_unit_test(single_lookups_prefetch_parents),
        cmocka_unit_test(nameid_sees_every_entry),
        cmocka_unit_test(traversal_callbacks_reload),
        cmocka_unit_test(canonical_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
