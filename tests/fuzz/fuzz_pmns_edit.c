/*
 * fuzz_pmns_edit.c - libFuzzer target for the namespace editing room
 * (libpcp/edit): merge, delete and write, and the readers of raw files
 * (the _DATESTAMP order, pmnsadd's upper levels).
 *
 * The input is up to three parts separated by NUL bytes: a namespace, a
 * namespace to merge into it, and names to delete (one per line).  When
 * the first loads (raw, duplicates allowed), the second is merged, the
 * names deleted, and the result written; that text must load again, and
 * written again from what it loads must give the same bytes (so what
 * pmnsmerge, pmnsadd and pmnsdel write always loads, and is canonical).
 * The whole input is also read as a file by pmns_sources_order and
 * pmns_add_prelude, whose upper levels, if any, must end with a newline,
 * and, when it has no '#' (so no #include or #shell), by pmns_source_load,
 * which must load it exactly when the preprocessed buffer loads, to the
 * same namespace (it skips the preprocessor for plain text).
 */
#include "pmns_edit.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void quiet(void *ctx, const diag_msg *d)
{
    (void)ctx;
    (void)d;
}

static void conflict(void *ctx, const char *name, uint32_t kept, uint32_t ignored)
{
    (void)name;
    if (kept == ignored) /* a conflict is two different PMIDs */
        abort();
    ++*(unsigned *)ctx;
}

static pmns_tree *load(const char *text, size_t len)
{
    pmns_load_opts o = {0};
    pmns_tree *t = NULL;

    o.file = "<fuzz>";
    o.dupok = 1;
    o.diag = quiet;
    if (pmns_load_buffer(&o, text, len, &t) < 0)
        return NULL;
    return t;
}

/* e's text, which must load and give the same text again. */
static void check_written(const pmns_ed *e)
{
    char *text, *again;
    size_t len, alen;
    pmns_tree *t;
    pmns_ed *e2;

    if (pmns_ed_text(e, &text, &len) < 0)
        return;
    if ((t = load(text, len)) == NULL)
        abort(); /* the tools' output does not load */
    if (pmns_ed_new(t, &e2) == 0) {
        if (pmns_ed_text(e2, &again, &alen) == 0) {
            if (alen != len || memcmp(again, text, len) != 0)
                abort(); /* not canonical */
            free(again);
        }
        pmns_ed_free(e2);
    }
    free(text);
}

static void edit(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    const char *sep1 = memchr(p, '\0', size), *sep2;
    pmns_tree *t;
    pmns_ed *e;
    unsigned conflicts = 0;

    if ((t = load(p, sep1 != NULL ? (size_t)(sep1 - p) : size)) == NULL || pmns_ed_new(t, &e) < 0)
        return;
    if (sep1 != NULL) {
        const char *q = sep1 + 1;
        sep2 = memchr(q, '\0', (size_t)(end - q));
        if ((t = load(q, sep2 != NULL ? (size_t)(sep2 - q) : (size_t)(end - q))) != NULL) {
            pmns_ed_merge(e, t, conflict, &conflicts);
            pmns_free(t);
        }
        for (q = sep2 != NULL ? sep2 + 1 : end; q < end;) {
            const char *nl = memchr(q, '\n', (size_t)(end - q));
            size_t n = nl != NULL ? (size_t)(nl - q) : (size_t)(end - q);
            char *name = strndup(q, n);
            if (name != NULL && strlen(name) == n)
                pmns_ed_delete(e, name);
            free(name);
            q += n + 1;
        }
    }
    check_written(e);
    pmns_ed_free(e);
}

/* path loaded as a merge source loads as text through the preprocessor
 * does, to the same namespace. */
static void check_source(const char *path, const uint8_t *data, size_t size)
{
    pmns_source src = {path, NULL, 0, NULL, 0};
    pmns_load_opts o = {0};
    pmns_tree *a = NULL, *b = NULL;
    pmns_ed *ea = NULL, *eb = NULL;
    char *ta = NULL, *tb = NULL;
    size_t la = 0, lb = 0;
    int sa, sb;

    o.file = path;
    o.use_cpp = 1;
    o.dupok = 1;
    o.diag = quiet;
    sa = pmns_source_load(&src, &o, &a);
    if (src.is_image) {
        if (sa == 0)
            pmns_free(a);
        return;
    }
    sb = pmns_load_buffer(&o, (const char *)data, size, &b);
    if ((sa == 0) != (sb == 0))
        abort(); /* one way loads it, the other does not */
    if (sa < 0)
        return;
    if (pmns_ed_new(a, &ea) < 0) { /* out of memory; a is gone */
        pmns_free(b);
        return;
    }
    if (pmns_ed_new(b, &eb) == 0) {
        if (pmns_ed_text(ea, &ta, &la) == 0 && pmns_ed_text(eb, &tb, &lb) == 0 &&
            (la != lb || memcmp(ta, tb, la) != 0))
            abort(); /* not the same namespace */
        pmns_ed_free(eb);
    }
    pmns_ed_free(ea);
    free(ta);
    free(tb);
}

/* The raw readers, over the whole input as a file. */
static void readers(const uint8_t *data, size_t size)
{
    char path[] = "/tmp/fuzz_pmns_edit.XXXXXX", *prelude;
    pmns_source src = {path, NULL, 0, NULL, 0};
    size_t bad, len;
    int fd = mkstemp(path);

    if (fd < 0)
        return;
    if (write(fd, data, size) == (ssize_t)size) {
        if (pmns_sources_order(&src, 1, &bad) == 0)
            pmns_sources_clear(&src, 1);
        if (pmns_add_prelude(path, &prelude, &len) == 0 && prelude != NULL) {
            if (len == 0 || prelude[len - 1] != '\n')
                abort();
            free(prelude);
        }
        if (memchr(data, '#', size) == NULL)
            check_source(path, data, size);
    }
    close(fd);
    unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    edit(data, size);
    readers(data, size);
    return 0;
}
