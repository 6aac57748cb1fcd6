/*
 * fuzz_help_source.c - libFuzzer target for the help source parser
 * (libpcp/front/help_parse.c) and, behind it, the database writer and the
 * validating reader (libpcp/pmda/help.c).
 *
 * The input is a help source.  help_resolve, newhelp's own step, gives
 * every entry the parser accepts a key (its numeric key, or for a name a
 * hash standing in for the namespace's PMID) and keeps those whose key
 * does not repeat (strict, so that every key read back is unique).  They
 * are written to an image in memory, the image is read back through the
 * reader, and every entry must come back with its exact texts.
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

/* A name's "PMID": a hash, as if every name were in the namespace. */
static int name_key(void *ctx, const char *s, uint32_t *pmid)
{
    uint32_t h = 2166136261u;

    (void)ctx;
    for (; *s != '\0'; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    *pmid = h & 0x7fffffffu;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    help_parser p = {0};
    help_resolve_opts o = {name_key, NULL, 1, 0};
    help_wentry *w = NULL;
    help_image img;
    help_db db;
    size_t n = 0, *kept = NULL;

    p.diag = quiet;
    if (help_parse(&p, "<fuzz>", (const char *)data, size) < 0 || p.n > 4096)
        goto out;
    if (help_resolve(&p, &o, &kept, &n) < 0 || (w = calloc(n + 1, sizeof(*w))) == NULL)
        goto out;
    for (size_t i = 0; i < n; i++) {
        const help_src_entry *e = &p.ent[kept[i]];
        if (e->word_len == 0 || memchr(e->oneline, '\0', e->oneline_len) ||
            memchr(help_entry_text(&p, e), '\0', e->text_len))
            abort(); /* the parser never accepts an empty key or a NUL */
        for (size_t j = 0; j < i; j++)
            if (w[j].key == e->key)
                abort(); /* strict keeps no repeated key */
        w[i] = (help_wentry){e->key,     e->word,        e->word_len,
                             e->oneline, e->oneline_len, help_entry_text(&p, e),
                             e->text_len};
    }
    if (help_image_build(w, n, &img) == 0) {
        if (help_db_from_buffers(&db, img.dir, img.dirlen, img.pag, img.paglen, NULL, 0) != 0)
            abort(); /* what the writer writes, the reader reads */
        for (size_t i = 0; i < n; i++) {
            uint32_t k = help_db_find(&db, w[i].key, (w[i].key >> 31) != 0);
            help_record r = k != HELP_NONE ? help_db_record(&db, k) : (help_record){0, 0, 0};
            if (k == HELP_NONE || strlen(db.pag + r.off_oneline) != w[i].oneline_len ||
                memcmp(db.pag + r.off_oneline, w[i].oneline, w[i].oneline_len) != 0 ||
                strlen(db.pag + r.off_text) != w[i].text_len ||
                memcmp(db.pag + r.off_text, w[i].text, w[i].text_len) != 0)
                abort(); /* an entry did not come back whole */
        }
        help_db_free(&db);
    }
out:
    free(w);
    free(kept);
    help_parser_free(&p);
    return 0;
}
