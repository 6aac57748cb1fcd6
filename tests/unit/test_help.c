/*
 * Unit tests for help databases: the source parser (libpcp/front/
 * help_parse.c), the writer and the validating reader (libpcp/pmda/help.c)
 * and the pmdaOpenHelp family.
 *
 * Expected values are Debian PCP 6.0.3 facts:
 *  - tests/cli/chkhelp/demo.{dir,pag} were written by Debian's newhelp from
 *    tests/cli/newhelp/demo.help and demo.pmns; parsing and writing the same
 *    source here must give the same bytes;
 *  - the parser cases reproduce what Debian's newhelp stored for the same
 *    lines (blanks, CRs, comments, trailing newlines);
 *  - with repeated keys Debian's libpcp_pmda answers a PMID with the first
 *    record and an InDom with the last (checked with tests/oracle/
 *    probe_help.c on a database of Debian's newhelp).
 * Robustness: every byte of the demo database flipped (three masks) and
 * every truncation of either file opens with -EINVAL or answers every
 * question with a string inside the text file; truncations always fail.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "help_int.h"
#include "help_parse.h"

static char scratch[256];

/* ---- files ---- */

static char *slurp(const char *path, size_t *len)
{
    FILE *fp = fopen(path, "rb");
    char *buf;
    long n;

    if (fp == NULL)
        return NULL;
    fseek(fp, 0, SEEK_END);
    n = ftell(fp);
    rewind(fp);
    buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    buf[n] = '\0';
    *len = (size_t)n;
    return buf;
}

static void spew(const char *path, const void *data, size_t len)
{
    FILE *fp = fopen(path, "wb");

    assert_non_null(fp);
    assert_int_equal(fwrite(data, 1, len, fp), len);
    fclose(fp);
}

/* scratch/NAME.dir and .pag from buffers; returns the base name. */
static const char *put_db(const char *name, const void *dir, size_t dirlen, const void *pag,
                          size_t paglen)
{
    static char base[512];
    char path[600];

    snprintf(base, sizeof(base), "%s/%s", scratch, name);
    snprintf(path, sizeof(path), "%s.dir", base);
    if (dir != NULL)
        spew(path, dir, dirlen);
    else
        unlink(path);
    snprintf(path, sizeof(path), "%s.pag", base);
    if (pag != NULL)
        spew(path, pag, paglen);
    else
        unlink(path);
    return base;
}

/* ---- the parser ---- */

static int quiet_count;
static void quiet(void *ctx, const diag_msg *d)
{
    (void)ctx, (void)d;
    quiet_count++;
}

static void parse_text(help_parser *p, const char *src)
{
    memset(p, 0, sizeof(*p));
    p->diag = quiet;
    assert_int_equal(help_parse(p, "src", src, strlen(src)), 0);
}

static void assert_entry(const help_parser *p, size_t i, const char *word, const char *one,
                         const char *text)
{
    const help_src_entry *e = &p->ent[i];

    assert_true(i < p->n);
    assert_int_equal(e->word_len, strlen(word));
    assert_memory_equal(e->word, word, e->word_len);
    assert_int_equal(e->oneline_len, strlen(one));
    assert_memory_equal(e->oneline, one, e->oneline_len);
    assert_int_equal(e->text_len, strlen(text));
    if (e->text_len)
        assert_memory_equal(help_entry_text(p, e), text, e->text_len);
}

/* What Debian's newhelp stored for these sources (its .pag bytes). */
static void parser_matches_debian(void **state)
{
    help_parser p;

    (void)state;
    parse_text(&p, "@a   x  y  \n  text  \n\n\n");
    assert_int_equal(p.n, 1);
    assert_entry(&p, 0, "a", "x  y  ", "  text  ");
    help_parser_free(&p);

    parse_text(&p, "@\ta\tsum\r\ntext\r\n\r\n");
    assert_entry(&p, 0, "a", "sum\r", "text\r\n\r");
    help_parser_free(&p);

    parse_text(&p, "junk\n@ a\ntext\n  \n\n");
    assert_entry(&p, 0, "a", "", "text\n  ");
    help_parser_free(&p);

    parse_text(&p, "@ a   \n");
    assert_entry(&p, 0, "a", "", "");
    help_parser_free(&p);

    parse_text(&p, "@ a s\n#c\ntext\n#x\nmore");
    assert_entry(&p, 0, "a", "s", "text\nmore");
    help_parser_free(&p);

    /* null entries skip their text; counted as warnings */
    parse_text(&p, "@ a sum a\ntext\n@\nlost\n@ b sum b\nb\n@   \ntext\n@ c.d x\ny\n");
    assert_int_equal(p.n, 3);
    assert_int_equal(p.warnings, 2);
    assert_entry(&p, 0, "a", "sum a", "text");
    assert_entry(&p, 1, "b", "sum b", "b");
    assert_entry(&p, 2, "c.d", "x", "y");
    help_parser_free(&p);
}

static void parser_keys(void **state)
{
    help_parser p;

    (void)state;
    parse_text(&p, "@ 253.1.2 x\n@ 253.1 y\n@ 01.002.0003 z\n@ +1.0.7 w\n@ 1.2.3junk v\n"
                   "@ 1.2.x u\n@ 1.2.3.4 t\n@ 511.4095.1023 s\n@ 511.4194303 r\n");
    assert_int_equal(p.n, 9);
    assert_int_equal(p.errors, 0);
    assert_int_equal(p.ent[0].kind, HELP_KEY_PMID);
    assert_int_equal(p.ent[0].key, 253u << 22 | 1u << 10 | 2u);
    assert_int_equal(p.ent[1].kind, HELP_KEY_INDOM);
    assert_int_equal(p.ent[1].key, 0x80000000u | 253u << 22 | 1u);
    assert_int_equal(p.ent[2].key, 1u << 22 | 2u << 10 | 3u);
    assert_int_equal(p.ent[3].key, 1u << 22 | 7u);
    for (int i = 4; i < 7; i++)
        assert_int_equal(p.ent[i].kind, HELP_KEY_NAME);
    assert_int_equal(p.ent[7].key, 0xffffffffu & ~0x80000000u);
    assert_int_equal(p.ent[8].key, 0xffffffffu);
    help_parser_free(&p);

    /* fields that do not fit are errors, and the entries are left out */
    parse_text(&p, "@ 600.0.0 a\n@ 1.5000.0 b\n@ 1.0.1024 c\n@ -1.2 d\n@ 1.4194304 e\n@ ok f\n");
    assert_int_equal(p.errors, 5);
    assert_int_equal(p.n, 1);
    help_parser_free(&p);

    /* a NUL byte is an error */
    static const char nul[] = "@ a x\nte\0xt\n@ b y\n";
    memset(&p, 0, sizeof(p));
    p.diag = quiet;
    assert_int_equal(help_parse(&p, "src", nul, sizeof(nul) - 1), 0);
    assert_int_equal(p.errors, 1);
    assert_int_equal(p.n, 1);
    assert_entry(&p, 0, "b", "y", "");
    help_parser_free(&p);
}

/* No line or entry limit (PCP: 127-byte lines, 1024-byte entries). */
static void parser_no_limits(void **state)
{
    size_t n = 200000;
    char *src = malloc(n + 64);
    help_parser p;

    (void)state;
    strcpy(src, "@ a ");
    memset(src + 4, 'x', n);
    strcpy(src + 4 + n, "\nshort\n");
    parse_text(&p, src);
    assert_int_equal(p.n, 1);
    assert_int_equal(p.ent[0].oneline_len, n);
    assert_int_equal(p.ent[0].text_len, 5);
    help_parser_free(&p);
    free(src);
}

/* ---- writing: the demo database, byte for byte as Debian wrote it ---- */

/* The writer's entry for p's entry i; with_text 0 leaves the long text out. */
static help_wentry wentry(const help_parser *p, size_t i, int with_text)
{
    const help_src_entry *e = &p->ent[i];
    help_wentry w = {e->key, e->word, e->word_len, e->oneline, e->oneline_len, "", 0};

    if (with_text) {
        w.text = help_entry_text(p, e);
        w.text_len = e->text_len;
    }
    return w;
}

static void writer_matches_debian(void **state)
{
    char path[512];
    size_t len, dlen, plen;
    char *src, *dir, *pag;
    help_parser p = {0};
    help_wentry *w;
    help_image img;

    (void)state;
    snprintf(path, sizeof(path), "%s/tests/cli/newhelp/demo.pmns", PMKIT_SOURCE_DIR);
    assert_int_equal(pmLoadASCIINameSpace(path, 1), 0);
    snprintf(path, sizeof(path), "%s/tests/cli/newhelp/demo.help", PMKIT_SOURCE_DIR);
    assert_non_null(src = slurp(path, &len));
    assert_int_equal(help_parse(&p, "demo.help", src, len), 0);
    assert_int_equal(p.errors + p.warnings, 0);
    w = calloc(p.n, sizeof(*w));
    for (size_t i = 0; i < p.n; i++) {
        help_src_entry *e = &p.ent[i];
        char name[256];
        const char *np = name;
        if (e->kind == HELP_KEY_NAME) {
            snprintf(name, sizeof(name), "%.*s", (int)e->word_len, e->word);
            assert_int_equal(pmLookupName(1, &np, &e->key), 1);
        }
        w[i] = wentry(&p, i, 1);
    }
    assert_int_equal(help_image_build(w, p.n, &img), 0);
    snprintf(path, sizeof(path), "%s/tests/cli/chkhelp/demo.dir", PMKIT_SOURCE_DIR);
    assert_non_null(dir = slurp(path, &dlen));
    snprintf(path, sizeof(path), "%s/tests/cli/chkhelp/demo.pag", PMKIT_SOURCE_DIR);
    assert_non_null(pag = slurp(path, &plen));
    assert_int_equal(img.dirlen, dlen);
    assert_memory_equal(img.dir, dir, dlen);
    assert_int_equal(img.paglen, plen);
    assert_memory_equal(img.pag, pag, plen);
    help_image_free(&img);
    free(w);
    free(dir);
    free(pag);
    free(src);
    help_parser_free(&p);
    pmUnloadNameSpace();
}

/* Debian's index order for numeric keys (its .dir for the same source). */
static void writer_sort_order(void **state)
{
    static const char *const src[] = {"2.0.1", "1.0.1", "3.0.0", "1.1.0", "5.3",
                                      "4.3",   "2.0.1", "7.0.1", "6.2",   "1.0.0"};
    static const unsigned want[] = {0x00c00000, 0x00400000, 0x00800001, 0x00400001, 0x00800001,
                                    0x01c00001, 0x00400400, 0x81800002, 0x81400003, 0x81000003};
    help_wentry w[10];
    help_image img;
    help_parser p;
    char text[256] = "";

    (void)state;
    for (int i = 0; i < 10; i++)
        snprintf(text + strlen(text), sizeof(text) - strlen(text), "@ %s e%d\n", src[i], i);
    parse_text(&p, text);
    assert_int_equal(p.n, 10);
    for (size_t i = 0; i < p.n; i++)
        w[i] = wentry(&p, i, 0);
    assert_int_equal(help_image_build(w, 10, &img), 0);
    for (int i = 0; i < 10; i++) {
        const unsigned char *r = img.dir + 12 * (i + 1);
        assert_int_equal((unsigned)r[0] | r[1] << 8 | r[2] << 16 | (unsigned)r[3] << 24, want[i]);
    }
    help_image_free(&img);
    help_parser_free(&p);
}

/* ---- reading ---- */

static char *demo_dir, *demo_pag;
static size_t demo_dirlen, demo_paglen;

static const char *demo_base(void)
{
    return put_db("demo", demo_dir, demo_dirlen, demo_pag, demo_paglen);
}

/* Lookups enough to pass the scan budget (HELP_SCAN_BUDGET) of any
 * database of fewer than 4096 records, so that later lookups go through
 * the index, not PCP's scans. */
static void spend_scans(int h)
{
    for (int i = 0; i < 5000; i++)
        assert_null(pmdaGetHelp(h, 511u << 22 | 1023, PM_TEXT_ONELINE));
}

/* The demo database's answers, as Debian's libpcp_pmda gives them. */
static void demo_answers(int h)
{
    assert_string_equal(pmdaGetHelp(h, 245u << 22, PM_TEXT_ONELINE),
                        "Time since the demo agent started");
    assert_string_equal(pmdaGetHelp(h, 245u << 22, PM_TEXT_PMID | PM_TEXT_ONELINE),
                        "Time since the demo agent started");
    assert_string_equal(pmdaGetHelp(h, 245u << 22, PM_TEXT_HELP),
                        "Seconds elapsed since the agent was started, as an\nunsigned 32-bit "
                        "counter.\nIt wraps after about 136 years.");
    /* ONELINE wins when both bits are set; neither means the long text */
    assert_string_equal(pmdaGetHelp(h, 245u << 22, PM_TEXT_ONELINE | PM_TEXT_HELP),
                        "Time since the demo agent started");
    assert_string_equal(pmdaGetHelp(h, 245u << 22, 0), pmdaGetHelp(h, 245u << 22, PM_TEXT_HELP));
    /* an entry with empty texts answers "" (not NULL) */
    assert_string_equal(pmdaGetHelp(h, 245u << 22 | 1, PM_TEXT_HELP), "");
    /* the same-numbered PMID of another domain */
    assert_string_equal(pmdaGetHelp(h, 246u << 22, PM_TEXT_ONELINE), "A metric named by its PMID");
    assert_null(pmdaGetHelp(h, 246u << 22 | 5, PM_TEXT_ONELINE));
    assert_string_equal(pmdaGetInDomHelp(h, pmInDom_build(245, 0), PM_TEXT_ONELINE),
                        "demo instances");
    assert_string_equal(pmdaGetInDomHelp(h, pmInDom_build(245, 1), PM_TEXT_HELP), "");
    assert_null(pmdaGetInDomHelp(h, pmInDom_build(245, 2), PM_TEXT_ONELINE));
    /* keys compare whole: an InDom's record answers pmdaGetHelp for the
     * PMID with the same bits and the InDom flag (bit 31), as in PCP */
    assert_string_equal(pmdaGetHelp(h, 0x80000000u | 245u << 22, PM_TEXT_ONELINE),
                        "demo instances");
    assert_null(pmdaGetHelp(h, 0x80000000u | 245u << 22 | 1u << 10, PM_TEXT_ONELINE));
}

static void get_help_semantics(void **state)
{
    int h;

    (void)state;
    assert_int_equal(h = pmdaOpenHelp(demo_base()), 0);
    demo_answers(h); /* the first lookups scan */
    spend_scans(h);
    demo_answers(h); /* the same through the index */
    /* bad handles */
    assert_null(pmdaGetHelp(-1, 245u << 22, PM_TEXT_ONELINE));
    assert_null(pmdaGetHelp(h + 1, 245u << 22, PM_TEXT_ONELINE));
    assert_null(pmdaGetInDomHelp(1000000, pmInDom_build(245, 0), PM_TEXT_ONELINE));
    pmdaCloseHelp(h);
    assert_null(pmdaGetHelp(h, 245u << 22, PM_TEXT_ONELINE));
    pmdaCloseHelp(h); /* twice: harmless */
    pmdaCloseHelp(-5);
}

/* PCP returns the last slot instead of the one it filled (docs/compat.md). */
static void handles_reused_correctly(void **state)
{
    static const char dir2[] = "\x68\x50\x63\x50\x00\x00\x32\x31\x01\x00\x00\x00"
                               "\x00\x00\x40\x00\x10\x00\x00\x00\x12\x00\x00\x00";
    static const char pag2[] = "PcPh22\n\n@ 1.0.0 C\0\0";
    int a, b, c;
    char other[600];

    (void)state;
    a = pmdaOpenHelp(demo_base());
    b = pmdaOpenHelp(demo_base());
    assert_int_equal(a, 0);
    assert_int_equal(b, 1);
    pmdaCloseHelp(a);
    snprintf(other, sizeof(other), "%s",
             put_db("c", dir2, sizeof(dir2) - 1, pag2, sizeof(pag2) - 1));
    c = pmdaOpenHelp(other);
    assert_int_equal(c, 0);
    assert_string_equal(pmdaGetHelp(c, 1u << 22, PM_TEXT_ONELINE), "C");
    assert_string_equal(pmdaGetHelp(b, 245u << 22, PM_TEXT_ONELINE),
                        "Time since the demo agent started");
    pmdaCloseHelp(b);
    pmdaCloseHelp(c);
    /* many at once: handles keep growing past the first chunk */
    int hs[100];
    for (int i = 0; i < 100; i++)
        assert_int_equal(hs[i] = pmdaOpenHelp(demo_base()), i);
    assert_non_null(pmdaGetHelp(hs[99], 245u << 22, PM_TEXT_ONELINE));
    for (int i = 0; i < 100; i++)
        pmdaCloseHelp(hs[i]);
}

/* Repeated keys: first record for a PMID, last for an InDom (Debian's
 * newhelp stored this source as is; Debian's libpcp_pmda answers a, third). */
static void repeated_keys(void **state)
{
    static const char src[] = "@ 3.4 first\n@ 5.5 x\n@ 3.4 second\n@ 1.0.1 a\n@ 1.0.2 b\n"
                              "@ 1.0.1 c\n@ 3.4 third\n";
    help_parser p;
    help_wentry w[7];
    help_image img;
    int h;

    (void)state;
    parse_text(&p, src);
    for (size_t i = 0; i < p.n; i++)
        w[i] = wentry(&p, i, 0);
    assert_int_equal(help_image_build(w, p.n, &img), 0);
    h = pmdaOpenHelp(put_db("dup", img.dir, img.dirlen, img.pag, img.paglen));
    assert_true(h >= 0);
    for (int pass = 0; pass < 2; pass++) { /* scans, then the index */
        assert_string_equal(pmdaGetHelp(h, 1u << 22 | 1, PM_TEXT_ONELINE), "a");
        assert_string_equal(pmdaGetInDomHelp(h, pmInDom_build(3, 4), PM_TEXT_ONELINE), "third");
        assert_string_equal(pmdaGetInDomHelp(h, pmInDom_build(5, 5), PM_TEXT_ONELINE), "x");
        spend_scans(h);
    }
    pmdaCloseHelp(h);
    help_image_free(&img);
    help_parser_free(&p);
}

/* A .dir written on a big-endian machine reads the same. */
static void big_endian_index(void **state)
{
    char *swapped = malloc(demo_dirlen);
    int h;

    (void)state;
    for (size_t i = 0; i + 4 <= demo_dirlen; i += 4)
        for (int k = 0; k < 4; k++)
            swapped[i + k] = demo_dir[i + 3 - k];
    h = pmdaOpenHelp(put_db("be", swapped, demo_dirlen, demo_pag, demo_paglen));
    assert_true(h >= 0);
    demo_answers(h);
    spend_scans(h);
    demo_answers(h);
    pmdaCloseHelp(h);
    free(swapped);
}

/* PCP's handle table as Debian's chkhelp -p reads it (__pmdaHelpTab): 40
 * bytes a handle, the .dir's records in host order with its header first,
 * the .pag's bytes; a big-endian .dir shows the same records, a closed
 * handle zeros.  tests/oracle/help_shipped.sh --debian-on runs Debian's
 * chkhelp on it. */
typedef struct pcp_tab {
    int dir_fd, pag_fd, numidx;
    help_record *index;
    char *text;
    int textlen;
} pcp_tab;
void *__pmdaHelpTab(void);

static void help_tab(void **state)
{
    char *swapped = malloc(demo_dirlen);
    int le, gone, be;
    pcp_tab *t;

    (void)state;
    for (size_t i = 0; i + 4 <= demo_dirlen; i += 4)
        for (int k = 0; k < 4; k++)
            swapped[i + k] = demo_dir[i + 3 - k];
    le = pmdaOpenHelp(put_db("tab_le", demo_dir, demo_dirlen, demo_pag, demo_paglen));
    gone = pmdaOpenHelp(put_db("tab_gone", demo_dir, demo_dirlen, demo_pag, demo_paglen));
    be = pmdaOpenHelp(put_db("tab_be", swapped, demo_dirlen, demo_pag, demo_paglen));
    assert_true(le >= 0 && gone > le && be > gone);
    pmdaCloseHelp(gone);
    for (int pass = 0; pass < 2; pass++) { /* the copy is made afresh */
        t = __pmdaHelpTab();
        assert_non_null(t);
        for (int h = le; h <= be; h += be - le) {
            assert_int_equal(t[h].numidx, demo_dirlen / 12 - 1);
            assert_memory_equal(t[h].index, demo_dir, demo_dirlen);
            assert_int_equal(t[h].textlen, demo_paglen);
            assert_memory_equal(t[h].text, demo_pag, demo_paglen);
        }
        assert_int_equal(t[le].index[0].key, HELP_MAGIC);
        assert_int_equal(t[gone].numidx, 0);
        assert_null(t[gone].index);
        assert_null(t[gone].text);
    }
    pmdaCloseHelp(le);
    pmdaCloseHelp(be);
    free(swapped);
}

static void open_errors(void **state)
{
    (void)state;
    assert_int_equal(pmdaOpenHelp(put_db("none", NULL, 0, NULL, 0)), -ENOENT);
    assert_int_equal(pmdaOpenHelp(put_db("nopag", demo_dir, demo_dirlen, NULL, 0)), -ENOENT);
    assert_int_equal(pmdaOpenHelp(put_db("magic", "garbagegarbage", 14, demo_pag, demo_paglen)),
                     -EINVAL);
    /* a bad index is reported before a missing text file, as PCP does */
    assert_int_equal(pmdaOpenHelp(put_db("magic2", "garbagegarbage", 14, NULL, 0)), -EINVAL);
    assert_int_equal(pmdaOpenHelp(put_db("short", "short", 5, demo_pag, demo_paglen)), -EINVAL);
    /* version 1 */
    char v1[12];
    memcpy(v1, demo_dir, 12);
    v1[7] = '1';
    assert_int_equal(pmdaOpenHelp(put_db("v1", v1, 12, demo_pag, demo_paglen)), -EINVAL);
    /* an empty database is fine */
    int h =
        pmdaOpenHelp(put_db("empty", "\x68\x50\x63\x50\0\0\x32\x31\0\0\0\0", 12, "PcPh22\n", 7));
    assert_true(h >= 0);
    assert_null(pmdaGetHelp(h, 0, PM_TEXT_ONELINE));
    pmdaCloseHelp(h);
}

/* Opening reads no record: the index is built only once the scans have
 * read HELP_SCAN_BUDGET records, and answers are the same before and
 * after, in either byte order, for every key and for absent ones. */
static void index_built_lazily(void **state)
{
    static const uint32_t absent[] = {0, 1, 0x80000000u, 245u << 22 | 7, 0xffffffffu};
    help_db db;
    uint32_t want[64][2];

    (void)state;
    assert_int_equal(help_db_open(&db, demo_base(), NULL, 0), 0);
    assert_true(db.n > 0 && db.n < 64);
    assert_null(atomic_load(&db.index));
    for (uint32_t i = 0; i < db.n; i++)
        for (int last = 0; last < 2; last++)
            want[i][last] = help_db_find(&db, help_db_record(&db, i).key, last);
    assert_null(atomic_load(&db.index));
    /* the demo's keys do not repeat: each is its own first and last */
    for (uint32_t i = 0; i < db.n; i++)
        assert_true(want[i][0] == i && want[i][1] == i);
    while (atomic_load(&db.scanned) < HELP_SCAN_BUDGET(db.n))
        assert_int_equal(help_db_find(&db, absent[0], 0), HELP_NONE);
    assert_null(atomic_load(&db.index));
    assert_int_equal(help_db_find(&db, absent[1], 1), HELP_NONE); /* builds it */
    assert_non_null(atomic_load(&db.index));
    for (uint32_t i = 0; i < db.n; i++)
        for (int last = 0; last < 2; last++)
            assert_int_equal(help_db_find(&db, help_db_record(&db, i).key, last), want[i][last]);
    for (size_t i = 0; i < sizeof(absent) / sizeof(absent[0]); i++)
        assert_int_equal(help_db_find(&db, absent[i], i & 1), HELP_NONE);
    help_db_free(&db);
}

/* A record whose offset leads outside the .pag: PCP's open takes it (and
 * its lookup reads outside the file: Debian's crashes), pmkit's too, and
 * that lookup answers no text while every other answer stays right, by
 * scan and by index; chkhelp's full check refuses the database.  A .dir of
 * another size than its header says is refused at open (docs/compat.md),
 * and a .pag whose header is damaged is read as Debian's reads it. */
/* A lookup proves a text good by its own NUL (text_end, the .pag's last
 * NUL, is found only when that is not near): a text running into the end
 * of the .pag without one is refused, before and after text_end is known,
 * and one longer than the 64 KiB looked at is answered. */
static void text_without_nul_at_lookup(void **state)
{
    size_t tail = 70000, plen = demo_paglen + tail + 1;
    char *d = malloc(demo_dirlen), *p = malloc(plen + 5);
    uint32_t off = (uint32_t)demo_paglen;
    int h;

    (void)state;
    memcpy(d, demo_dir, demo_dirlen);
    memcpy(p, demo_pag, demo_paglen);
    memset(p + demo_paglen, 'a', tail);
    p[demo_paglen + tail] = '\0';
    memcpy(p + plen, "oops", 4); /* after the last NUL: no NUL */
    /* record 1 (245.0.0): one-line text the long one, help text the tail */
    memcpy(d + 12 + 4, &off, 4);
    off = (uint32_t)(plen + 1);
    memcpy(d + 12 + 8, &off, 4);
    h = pmdaOpenHelp(put_db("nonul", d, demo_dirlen, p, plen + 4));
    assert_true(h >= 0);
    assert_null(pmdaGetHelp(h, 245u << 22, PM_TEXT_HELP));
    assert_int_equal(strlen(pmdaGetHelp(h, 245u << 22, PM_TEXT_ONELINE)), tail);
    assert_null(pmdaGetHelp(h, 245u << 22, PM_TEXT_HELP));
    assert_string_equal(pmdaGetHelp(h, 246u << 22, PM_TEXT_ONELINE), "A metric named by its PMID");
    pmdaCloseHelp(h);
    h = pmdaOpenHelp(put_db("nonul", d, demo_dirlen, p, plen + 4));
    assert_true(h >= 0);
    assert_null(pmdaGetHelp(h, 245u << 22, PM_TEXT_HELP)); /* before text_end is known */
    pmdaCloseHelp(h);
    free(d);
    free(p);
}

static void damaged_record_at_lookup(void **state)
{
    char *d = malloc(demo_dirlen), *p = malloc(demo_paglen), why[200] = "";
    help_db db;
    int h;

    (void)state;
    memcpy(d, demo_dir, demo_dirlen);
    /* record 1 (245.0.0): its one-line offset far past the end */
    memcpy(d + 12 + 4, "\xff\xff\xff\x7f", 4);
    h = pmdaOpenHelp(put_db("badoff", d, demo_dirlen, demo_pag, demo_paglen));
    assert_true(h >= 0);
    for (int pass = 0; pass < 2; pass++) {
        assert_null(pmdaGetHelp(h, 245u << 22, PM_TEXT_ONELINE));
        assert_string_equal(pmdaGetHelp(h, 245u << 22, PM_TEXT_HELP),
                            "Seconds elapsed since the agent was started, as an\nunsigned 32-bit "
                            "counter.\nIt wraps after about 136 years.");
        assert_string_equal(pmdaGetHelp(h, 246u << 22, PM_TEXT_ONELINE),
                            "A metric named by its PMID");
        assert_string_equal(pmdaGetInDomHelp(h, pmInDom_build(245, 0), PM_TEXT_ONELINE),
                            "demo instances");
        spend_scans(h);
    }
    pmdaCloseHelp(h);
    assert_int_equal(help_db_load(&db, put_db("badoff", d, demo_dirlen, demo_pag, demo_paglen), why,
                                  sizeof(why)),
                     -EINVAL);
    assert_string_equal(why, ".dir entry 1: one-line offset 2147483647 is outside the text of "
                             "the .pag (721 bytes)");
    /* sizes: one byte more, one record fewer */
    memcpy(d, demo_dir, demo_dirlen);
    assert_int_equal(pmdaOpenHelp(put_db("long", d, demo_dirlen, demo_pag, demo_paglen)) >= 0, 1);
    d = realloc(d, demo_dirlen + 1);
    d[demo_dirlen] = 'x';
    assert_int_equal(pmdaOpenHelp(put_db("long", d, demo_dirlen + 1, demo_pag, demo_paglen)),
                     -EINVAL);
    assert_int_equal(pmdaOpenHelp(put_db("trunc", d, demo_dirlen - 12, demo_pag, demo_paglen)),
                     -EINVAL);
    /* the .pag's header: Debian's opens and answers (seen with a probe) */
    memcpy(p, demo_pag, demo_paglen);
    memcpy(p, "XXXXXXX", 7);
    h = pmdaOpenHelp(put_db("badpag", demo_dir, demo_dirlen, p, demo_paglen));
    assert_true(h >= 0);
    demo_answers(h);
    pmdaCloseHelp(h);
    assert_int_equal(help_db_load(&db, put_db("badpag", demo_dir, demo_dirlen, p, demo_paglen), why,
                                  sizeof(why)),
                     -EINVAL);
    assert_string_equal(why, ".pag does not start with the version 2 header");
    free(d);
    free(p);
}

/* Open a damaged copy: -EINVAL, or every answer inside the .pag. */
static int try_damaged(const char *dir, size_t dirlen, const char *pag, size_t paglen)
{
    help_db db;
    unsigned char *d = malloc(dirlen + 1);
    char *p = malloc(paglen + 1);
    int sts;

    memcpy(d, dir, dirlen);
    memcpy(p, pag, paglen);
    sts = help_db_from_buffers(&db, d, dirlen, p, paglen, NULL, 0);
    if (sts < 0) {
        assert_int_equal(sts, -EINVAL);
        return sts;
    }
    for (uint32_t i = 0; i < db.n; i++) {
        for (int last = 0; last < 2; last++) {
            uint32_t k = help_db_find(&db, help_db_record(&db, i).key, last);
            assert_true(k < db.n);
            help_record r = help_db_record(&db, k);
            assert_true(r.off_oneline < db.paglen && r.off_text < db.paglen);
            assert_true(memchr(db.pag + r.off_oneline, '\0', db.paglen - r.off_oneline));
            assert_true(memchr(db.pag + r.off_text, '\0', db.paglen - r.off_text));
        }
    }
    help_db_free(&db);
    return 0;
}

static void corrupt_files(void **state)
{
    static const unsigned char masks[] = {0x01, 0x80, 0xff};
    char *d = malloc(demo_dirlen), *p = malloc(demo_paglen);

    (void)state;
    assert_int_equal(try_damaged(demo_dir, demo_dirlen, demo_pag, demo_paglen), 0);
    for (size_t m = 0; m < sizeof(masks); m++) {
        for (size_t i = 0; i < demo_dirlen; i++) {
            memcpy(d, demo_dir, demo_dirlen);
            d[i] ^= (char)masks[m];
            try_damaged(d, demo_dirlen, demo_pag, demo_paglen);
        }
        for (size_t i = 0; i < demo_paglen; i++) {
            memcpy(p, demo_pag, demo_paglen);
            p[i] ^= (char)masks[m];
            try_damaged(demo_dir, demo_dirlen, p, demo_paglen);
        }
    }
    for (size_t n = 0; n < demo_dirlen; n++)
        assert_int_equal(try_damaged(demo_dir, n, demo_pag, demo_paglen), -EINVAL);
    for (size_t n = 0; n < demo_paglen; n++)
        assert_int_equal(try_damaged(demo_dir, demo_dirlen, demo_pag, n), -EINVAL);
    free(d);
    free(p);
}

static int setup(void **state)
{
    char path[512];

    (void)state;
    snprintf(scratch, sizeof(scratch), "/tmp/test_help.XXXXXX");
    if (mkdtemp(scratch) == NULL)
        return -1;
    snprintf(path, sizeof(path), "%s/tests/cli/chkhelp/demo.dir", PMKIT_SOURCE_DIR);
    demo_dir = slurp(path, &demo_dirlen);
    snprintf(path, sizeof(path), "%s/tests/cli/chkhelp/demo.pag", PMKIT_SOURCE_DIR);
    demo_pag = slurp(path, &demo_paglen);
    return demo_dir != NULL && demo_pag != NULL ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[600];

    (void)state;
    free(demo_dir);
    free(demo_pag);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parser_matches_debian),
        cmocka_unit_test(parser_keys),
        cmocka_unit_test(parser_no_limits),
        cmocka_unit_test(writer_matches_debian),
        cmocka_unit_test(writer_sort_order),
        cmocka_unit_test(get_help_semantics),
        cmocka_unit_test(handles_reused_correctly),
        cmocka_unit_test(repeated_keys),
        cmocka_unit_test(big_endian_index),
        cmocka_unit_test(help_tab),
        cmocka_unit_test(open_errors),
        cmocka_unit_test(corrupt_files),
        cmocka_unit_test(index_built_lazily),
        cmocka_unit_test(damaged_record_at_lookup),
        cmocka_unit_test(text_without_nul_at_lookup),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
