/*
 * cpp_macro.c - the macro table and macro substitution in text lines.
 *
 * The table is an open-addressing hash (cpp_hash_name, linear probing,
 * tombstones for #undef), with a parallel array of 4-byte tags that
 * probes read instead of the 32-byte slots.  Two cheap filters, the first
 * byte and the length of every live name, reject most words of a line
 * before any hashing.
 *
 * Substitution is one left-to-right pass; replacement text is copied and
 * never rescanned (PCP's rule).  Normal mode: a word is a letter or '_'
 * followed by letters, digits and '_'; anything else separates words.
 * Restricted mode (-r): only #name (name starts with a letter or digit) and
 * #{name} (any text up to '}') are candidates; an unterminated #{ is left
 * as it is (PCP reads past the end of the line; docs/compat.md).
 */
#include "cpp_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char cpp_tombstone;

void cpp_macros_init(cpp_macros *m)
{
    memset(m, 0, sizeof(*m));
}

void cpp_macros_free(cpp_macros *m)
{
    for (size_t i = 0; i < m->cap; i++) {
        if (m->slots[i].name != NULL && m->slots[i].name != CPP_TOMBSTONE) {
            free(m->slots[i].name);
            free(m->slots[i].value);
        }
    }
    free(m->slots);
    free(m->tags);
    memset(m, 0, sizeof(*m));
}

static size_t len_bucket(size_t n)
{
    return n < 63 ? n : 63;
}

/* A copy with CPP_SLACK zeroed bytes after it, so it can be read 16 bytes
 * at a time. */
static char *dup_bytes(const char *p, size_t n)
{
    char *d = malloc(n + CPP_SLACK);

    if (d != NULL) {
        memcpy(d, p, n);
        memset(d + n, 0, CPP_SLACK);
    }
    return d;
}

const cpp_macro *cpp_macro_find(const cpp_macros *m, const char *name, size_t n)
{
    if (n == 0 || !cpp_macro_maybe(m, name, n))
        return NULL;
    return cpp_macro_lookup(m, name, n, cpp_hash_name(name, n));
}

/* Double the table (or create it), dropping tombstones. */
static bool grow(cpp_macros *m)
{
    size_t cap = m->cap ? m->cap * 2 : 64;
    cpp_macro *slots = calloc(cap, sizeof(*slots));
    uint32_t *tags = calloc(cap, sizeof(*tags));

    if (slots == NULL || tags == NULL) {
        free(slots);
        free(tags);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++) {
        cpp_macro *e = &m->slots[i];
        if (e->name == NULL || e->name == CPP_TOMBSTONE)
            continue;
        size_t j = m->tags[i] & (cap - 1); /* the hash's low bits: cap <= 2^31 */
        while (slots[j].name != NULL)
            j = (j + 1) & (cap - 1);
        slots[j] = *e;
        tags[j] = m->tags[i];
    }
    free(m->slots);
    free(m->tags);
    m->slots = slots;
    m->tags = tags;
    m->cap = cap;
    m->used = m->live;
    return true;
}

bool cpp_macro_define(cpp_macros *m, const char *name, size_t n, const char *value, size_t vlen)
{
    uint32_t h = cpp_hash_name(name, n);
    size_t i;

    if (cpp_macro_lookup(m, name, n, h) != NULL)
        return false;
    if ((m->used + 1) * 2 > m->cap && !grow(m))
        return true; /* out of memory: the definition is lost, not an error */
    for (i = h & (m->cap - 1); m->slots[i].name != NULL && m->slots[i].name != CPP_TOMBSTONE;
         i = (i + 1) & (m->cap - 1))
        ;
    cpp_macro *e = &m->slots[i];
    if (e->name == NULL)
        m->used++;
    m->tags[i] = h | CPP_TAG_BIT; /* used from now on, as a macro or a tombstone */
    e->name = dup_bytes(name, n);
    e->value = dup_bytes(value, vlen);
    if (e->name == NULL || e->value == NULL) {
        free(e->name);
        free(e->value);
        e->name = CPP_TOMBSTONE;
        return true;
    }
    e->nlen = (uint32_t)n;
    e->vlen = vlen;
    m->changed = true;
    m->live++;
    m->first[(unsigned char)name[0]]++;
    m->lens[len_bucket(n)]++;
    return true;
}

void cpp_macro_undef(cpp_macros *m, const char *name, size_t n)
{
    cpp_macro *e = cpp_macro_lookup(m, name, n, cpp_hash_name(name, n));

    if (e == NULL)
        return;
    free(e->name);
    free(e->value);
    e->name = CPP_TOMBSTONE;
    e->value = NULL;
    m->changed = true;
    m->live--;
    m->first[(unsigned char)name[0]]--;
    m->lens[len_bucket(n)]--;
}

/* -d: a substitution of a value vlen bytes long for a candidate of nlen,
 * as PCP traces it: the value, and its output buffer growing to hold the
 * line (first 256 bytes, then doubled). */
static void trace_value(cpp_state *st, const cpp_macro *m, size_t nlen)
{
    size_t need;

    fprintf(stderr, "<<value=\"%.*s\"\n", (int)m->vlen, m->value);
    st->trace_len += m->vlen - nlen;
    need = st->trace_len + 1;
    if (need <= st->obuf && st->obuf != 0)
        return;
    if (st->obuf == 0)
        st->obuf = 256;
    while (need > st->obuf)
        st->obuf *= 2;
    fprintf(stderr, "<<increased obuf[] to %zu chars\n", st->obuf);
}

/* -d: a candidate name, and its value if it is a macro; substitutes it. */
static void trace_candidate(cpp_state *st, const char **copy, const char *w, const char *p,
                            const char *key, size_t klen)
{
    const cpp_macro *m = cpp_macro_find(&st->macros, key, klen);

    fprintf(stderr, "<<name=\"%.*s\"\n", (int)(p - w), w);
    if (m == NULL)
        return;
    trace_value(st, m, (size_t)(p - w));
    cpp_emit(st, *copy, (size_t)(w - *copy));
    cpp_emit(st, m->value, m->vlen);
    *copy = p;
    st->nsubst++;
    st->line_modified = true;
}

/* Normal mode: every word is a candidate. */
static void substitute_words(cpp_state *st, const char *p, const char *end)
{
    const char *copy = p;

    for (;;) {
        while (p < end && !cpp_is(*p, CT_START))
            p++;
        if (p == end)
            break;
        const char *w = p++;
        while (p < end && cpp_is(*p, CT_WORD))
            p++;
        if (st->opt->trace)
            trace_candidate(st, &copy, w, p, w, (size_t)(p - w));
        else if (cpp_macro_maybe(&st->macros, w, (size_t)(p - w)))
            cpp_substitute_hashed(st, &copy, w, p, cpp_hash_name(w, (size_t)(p - w)));
    }
    cpp_emit(st, copy, (size_t)(end - copy));
}

/* Restricted mode: a candidate #name or #{name} at hash (end: the line's
 * end).  If it names a macro, output the text pending since *copy and the
 * value.  Returns where scanning continues. */
static const char *substitute_one_marked(cpp_state *st, const char **copy, const char *hash,
                                         const char *end)
{
    const char *p = hash + 1, *key, *keyend, *next, *close;
    const cpp_macro *m;

    if (p < end && *p == '{') {
        if (p + 1 >= end || !cpp_is(p[1], CT_ALNUM) ||
            (close = memchr(p + 1, '}', (size_t)(end - p - 1))) == NULL) {
            if (st->opt->trace) /* PCP traces what it took for a name */
                fprintf(stderr, "<<name=\"%c{\"\n", st->ctrl);
            return p; /* not a candidate; an unterminated #{ is plain text */
        }
        key = p + 1, keyend = close, next = close + 1;
    } else if (p < end && cpp_is(*p, CT_ALNUM)) {
        key = p++;
        while (p < end && cpp_is(*p, CT_WORD))
            p++;
        keyend = next = p;
    } else {
        if (st->opt->trace)
            fprintf(stderr, "<<name=\"%c\"\n", st->ctrl);
        return p;
    }
    if (st->opt->trace) {
        trace_candidate(st, copy, hash, next, key, (size_t)(keyend - key));
        return next;
    }
    if ((m = cpp_macro_find(&st->macros, key, (size_t)(keyend - key))) != NULL) {
        cpp_emit(st, *copy, (size_t)(hash - *copy));
        cpp_emit(st, m->value, m->vlen);
        *copy = next;
    }
    return next;
}

/* Restricted mode: only #name and #{name} are candidates. */
static void substitute_marked(cpp_state *st, const char *p, const char *end)
{
    const char *copy = p, *hash;

    while ((hash = memchr(p, st->ctrl, (size_t)(end - p))) != NULL)
        p = substitute_one_marked(st, &copy, hash, end);
    cpp_emit(st, copy, (size_t)(end - copy));
}

void cpp_substitute(cpp_state *st, const char *line, size_t len)
{
    st->trace_len = len + 1; /* the line as PCP holds it, with its newline */
    st->line_modified = false;
    if (st->opt->restricted)
        substitute_marked(st, line, line + len);
    else
        substitute_words(st, line, line + len);
    cpp_emit(st, "\n", 1);
    st->modified += st->line_modified;
}
