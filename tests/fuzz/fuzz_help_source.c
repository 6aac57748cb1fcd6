/*
 * fuzz_help_source.c - libFuzzer target for the help source parser
 * (libpcp/front/help_parse.c) and, behind it, the database writer and the
 * validating reader (libpcp/pmda/help.c).
 *
 * The input is a help source.  Every entry the parser accepts gets a key
 * (its numeric key, or a hash of its name as newhelp would get a PMID from
 * the namespace); entries whose key repeats are dropped, as newhelp rejects
 * them.  The rest are written to an image in memory, the image is read back
 * through the reader, and every entry must come back with its exact texts.
 */
#include "help_int.h"
#include "help_parse.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ctx, const diag_msg *d)
{
    (void)ctx, (void)d;
}

static uint32_t name_key(const char *s, size_t n)
{
    uint32_t h = 2166136261u;

    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h & 0x7fffffffu; /* a PMID */
}

static int seen(const help_wentry *w, size_t n, uint32_t key)
{
    for (size_t i = 0; i < n; i++)
        if (w[i].key == key)
            return 1;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    help_parser p = {0};
    help_wentry *w;
    help_image img;
    help_db db;
    size_t n = 0;

    p.diag = quiet;
    if (help_parse(&p, "<fuzz>", (const char *)data, size) < 0 || p.n > 4096)
        goto out;
    if ((w = calloc(p.n + 1, sizeof(*w))) == NULL)
        goto out;
    for (size_t i = 0; i < p.n; i++) {
        const help_src_entry *e = &p.ent[i];
        uint32_t key = e->kind == HELP_KEY_NAME ? name_key(e->word, e->word_len) : e->key;
        if (e->word_len == 0 || memchr(e->oneline, '\0', e->oneline_len) ||
            memchr(help_entry_text(&p, e), '\0', e->text_len))
            abort(); /* the parser never accepts an empty key or a NUL */
        if (seen(w, n, key))
            continue;
        w[n++] = (help_wentry){key,        e->word,        e->word_len,
                               e->oneline, e->oneline_len, help_entry_text(&p, e),
                               e->text_len};
    }
    if (help_image_build(w, n, &img) == 0) {
        if (help_db_from_buffers(&db, img.dir, img.dirlen, img.pag, img.paglen, NULL, 0) != 0)
            abort(); /* what the writer writes, the reader reads */
        for (size_t i = 0; i < n; i++) {
            const help_record *r = help_db_find(&db, w[i].key, (w[i].key >> 31) != 0);
            if (r == NULL || strlen(db.pag + r->off_oneline) != w[i].oneline_len ||
                memcmp(db.pag + r->off_oneline, w[i].oneline, w[i].oneline_len) != 0 ||
                strlen(db.pag + r->off_text) != w[i].text_len ||
                memcmp(db.pag + r->off_text, w[i].text, w[i].text_len) != 0)
                abort(); /* an entry did not come back whole */
        }
        help_db_free(&db);
    }
    free(w);
out:
    help_parser_free(&p);
    return 0;
}
