/*
 * help_resolve.c - the entries a help source gives a database: each
 * entry's key resolved (a metric name through the caller's lookup, as
 * newhelp asks the namespace), repeated keys handled, and -V's reports,
 * in source order.  newhelp and the help fuzz target share it.
 *
 * Repeated keys follow PCP's rule by default: a key is refused only when
 * it repeats the entry stored just before it, once two entries are stored
 * (any other repeat is stored twice, as Debian's newhelp stores it); with
 * strict, every repeated key is refused (an open-addressing set of keys).
 * Messages are PCP's texts (help_report chooses the form).
 *
 * Not here: parsing (help_parse.c) and the database layout (libpcp_pmda's
 * help.c); the caller turns the kept entries into its writer's records.
 */
#include "help_parse.h"

#include <pcp/pmapi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct resolver {
    help_parser *p;
    const help_resolve_opts *o;
    size_t *kept; /* indices of the entries kept, in order */
    size_t nkept;
    uint64_t *seen; /* strict: key << 32 | entry + 1 */
    uint32_t mask;
} resolver;

/* A key's slot in the set: every bit of the key moves the low bits. */
static uint32_t key_hash(uint32_t k)
{
    k ^= k >> 16;
    k *= 0x7feb352du;
    k ^= k >> 15;
    return k;
}

/* "d.c.i" or "d.s", as PCP shows keys. */
static const char *key_str(uint32_t key, char *buf, size_t len)
{
    if (key & 0x80000000u)
        snprintf(buf, len, "%u.%u", (key >> 22) & 0x1ff, key & 0x3fffff);
    else
        snprintf(buf, len, "%u.%u.%u", (key >> 22) & 0x1ff, (key >> 10) & 0xfff, key & 0x3ff);
    return buf;
}

/* Resolve an entry's key; 0, or -1 after reporting why it cannot be. */
static int resolve(resolver *r, help_src_entry *e)
{
    char name[4096], *big = NULL, pcp[4200];
    char *np = name;
    uint32_t pmid = 0xffffffffu;
    int sts;

    if (e->kind != HELP_KEY_NAME)
        return 0;
    if (e->word_len >= sizeof(name) && (np = big = malloc(e->word_len + 1)) == NULL)
        return -1;
    memcpy(np, e->word, e->word_len);
    np[e->word_len] = '\0';
    sts = r->o->lookup(r->o->lookup_ctx, np, &pmid);
    free(big);
    if (sts < 0) {
        snprintf(pcp, sizeof(pcp), "%.*s: %s, entry abandoned", (int)e->word_len, e->word,
                 pmErrStr(sts));
        help_report(r->p, e, DIAG_ERROR, pcp, "%.*s: %s", (int)e->word_len, e->word, pmErrStr(sts));
    } else if (pmid == PM_ID_NULL) {
        snprintf(pcp, sizeof(pcp), "%.*s: unknown metric, entry abandoned", (int)e->word_len,
                 e->word);
        help_report(r->p, e, DIAG_ERROR, pcp, "%.*s: unknown metric", (int)e->word_len, e->word);
    }
    e->key = pmid;
    return sts < 0 || pmid == PM_ID_NULL ? -1 : 0;
}

/* Report e, whose key repeats that of entry `first`, and return -1. */
static int duplicate(resolver *r, help_src_entry *e, const help_src_entry *first)
{
    char kb[32], pcp[64];

    key_str(e->key, kb, sizeof(kb));
    snprintf(pcp, sizeof(pcp), "duplicate key (%s) entry abandoned", kb);
    help_report(r->p, e, DIAG_ERROR, pcp, "duplicate key (%s): %.*s has the key of %.*s at %s:%lu",
                kb, (int)e->word_len, e->word, (int)first->word_len, first->word, first->file,
                first->line);
    return -1;
}

/* 0 if e (entry i) may be stored; else report the duplicate and return -1. */
static int check_duplicate(resolver *r, help_src_entry *e, size_t i)
{
    uint32_t h = key_hash(e->key) & r->mask;

    if (!r->o->strict) {
        if (r->nkept >= 2 && r->p->ent[r->kept[r->nkept - 1]].key == e->key)
            return duplicate(r, e, &r->p->ent[r->kept[r->nkept - 1]]);
        return 0;
    }
    for (; r->seen[h] != 0; h = (h + 1) & r->mask) {
        if ((uint32_t)(r->seen[h] >> 32) == e->key)
            return duplicate(r, e, &r->p->ent[(uint32_t)r->seen[h] - 1]);
    }
    r->seen[h] = (uint64_t)e->key << 32 | (i + 1);
    return 0;
}

/* -V: an entry with no one-line or no help text, and the entry stored. */
static void verbose(resolver *r, help_src_entry *e)
{
    /* PCP names the entry by the whole @ line after its "@ " */
    int rest = (int)(e->src_line_len - (size_t)(e->word - e->src_line));
    char pcp[4200];

    if (e->oneline_len == 0) {
        snprintf(pcp, sizeof(pcp), "%.*s: warning, null oneline", rest, e->word);
        help_report(r->p, e, DIAG_WARNING, pcp, "%.*s: null oneline", (int)e->word_len, e->word);
    }
    if (e->text_len == 0) {
        snprintf(pcp, sizeof(pcp), "%.*s: warning, null help", rest, e->word);
        help_report(r->p, e, DIAG_WARNING, pcp, "%.*s: null help", (int)e->word_len, e->word);
    }
    if (e->oneline_len != 0 && e->text_len != 0)
        fprintf(stderr, "%.*s\n", (int)e->word_len, e->word);
}

/* PCP's form, -V: the null entries before entry i, where PCP reports them. */
static void nulls_before(resolver *r, size_t i, size_t *k)
{
    const help_parser *p = r->p;

    for (; *k < p->nnull && p->nulls[*k].before <= i; (*k)++) {
        if (r->o->verbose)
            fprintf(stderr, "%s: [%s:%lu] null entry?\n", p->prog != NULL ? p->prog : "newhelp",
                    p->nulls[*k].file, p->nulls[*k].line);
    }
}

int help_resolve(help_parser *p, const help_resolve_opts *o, size_t **kept, size_t *nkept)
{
    resolver r = {p, o, NULL, 0, NULL, 0};
    uint32_t size = 16;
    size_t k = 0;

    while (size < 2 * p->n + 2)
        size *= 2;
    r.mask = size - 1;
    r.seen = calloc(size, sizeof(*r.seen));
    r.kept = malloc((p->n + 1) * sizeof(*r.kept));
    if (r.seen == NULL || r.kept == NULL) {
        free(r.seen);
        free(r.kept);
        return -ENOMEM;
    }
    for (size_t i = 0; i < p->n; i++) {
        help_src_entry *e = &p->ent[i];
        nulls_before(&r, i, &k);
        if (resolve(&r, e) < 0 || check_duplicate(&r, e, i) < 0)
            continue;
        r.kept[r.nkept++] = i;
        if (o->verbose)
            verbose(&r, e);
    }
    nulls_before(&r, SIZE_MAX, &k);
    free(r.seen);
    *kept = r.kept;
    *nkept = r.nkept;
    return 0;
}
