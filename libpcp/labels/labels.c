/*
 * labels.c - metric labels: the JSON they are written in, label sets, and
 * merging (pmMergeLabels, pmMergeLabelSets, pmPrintLabelSets).  The
 * context labels and the per-level lookups are in labelget.c; agents add
 * labels with libpcp_pmda's pmdaAddLabels, which uses the functions here.
 *
 * A label object is a JSON object whose names are PMNS-like (components of
 * a letter then letters, digits and '_', joined by dots) and whose values
 * are any JSON.  A nested object stands for labels with dotted names:
 * {"a":{"x":1}} is the label "a.x".  Sets come in two forms, both PCP's:
 *
 * - as first written (pmdaAddLabels on an empty set): the object as the
 *   agent wrote it, white space outside strings removed, in its own order;
 *   labels[] sorted by full name, and a nested label indexed by its inner
 *   name ("x") with the COMPOUND flag;
 * - merged (every later pmdaAddLabels, every merge): one flat object of
 *   the labels sorted by full name, {"a.x":1,"b":2}, indexed by full name.
 *
 * Merging keeps one label per name and lets the later set win.  Where one
 * set has "a" and the other "a.x", the later one also wins (a value
 * replaces an object and the other way round); see docs/compat.md for
 * where PCP differs.  Arrays are values like any other.
 */
#include "labels.h"

#include <pcp/libpcp.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- */
/* Label lists. */

void pmkit_lbls_free(pmkit_lbls *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->v[i].name);
    free(l->v);
    l->v = NULL;
    l->n = l->room = 0;
}

/* Append name=value (copied) with flags. */
static int lbls_add(pmkit_lbls *l, const char *name, size_t namelen, const char *value,
                    size_t valuelen, int flags)
{
    pmkit_lbl *x;

    if (l->n == l->room) {
        int room = l->room < 8 ? 8 : l->room * 2;
        pmkit_lbl *v = realloc(l->v, (size_t)room * sizeof(*v));
        if (v == NULL)
            return -ENOMEM;
        l->v = v;
        l->room = room;
    }
    x = &l->v[l->n];
    memset(x, 0, sizeof(*x));
    if ((x->name = malloc(namelen + valuelen + 2)) == NULL)
        return -ENOMEM;
    memcpy(x->name, name, namelen);
    x->name[namelen] = '\0';
    x->value = x->name + namelen + 1;
    memcpy(x->value, value, valuelen);
    x->value[valuelen] = '\0';
    x->namelen = (int)namelen;
    x->valuelen = (int)valuelen;
    x->flags = flags;
    l->n++;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const pmkit_lbl *)a)->name, ((const pmkit_lbl *)b)->name);
}

/* Is a an ancestor of b ("a" of "a.x"), b of a, or the same name? */
static int overlaps(const pmkit_lbl *a, const pmkit_lbl *b)
{
    int n = a->namelen < b->namelen ? a->namelen : b->namelen;

    return strncmp(a->name, b->name, (size_t)n) == 0 &&
           (a->namelen == b->namelen || (a->namelen > n ? a->name : b->name)[n] == '.');
}

/* ---------------------------------------------------------------- */
/* Parsing: the text of a label object into its compact form and labels. */

typedef struct {
    const char *p;                     /* next input byte */
    char *out;                         /* compact form */
    size_t len;                        /* bytes in out */
    pmkit_lbls *lbl;                   /* labels found */
    char path[PM_MAXLABELJSONLEN + 1]; /* dotted name of the enclosing objects */
    size_t pathlen;
    int flags;
    int dots;  /* names may have dots */
    int depth; /* objects and arrays open */
} parser;

/* Deeper nesting is refused (-EINVAL) rather than recursed into: text of
 * any length comes from files and clients. */
#define MAX_DEPTH 256

/* Step over c at ps->p; 0 if something else is there (p stays put). */
static int expect(parser *ps, char c)
{
    if (*ps->p != c)
        return 0;
    ps->p++;
    return 1;
}

static void skip_ws(parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

/* The compact form is never longer than the input read so far, each byte
 * put after the byte it stands for is read: out, as long as the input,
 * has room. */
static void put(parser *ps, const char *s, size_t n)
{
    memcpy(ps->out + ps->len, s, n);
    ps->len += n;
}

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

#define HEX "0123456789abcdefABCDEF"

/* A JSON string at ps->p, copied as it is. */
static int string(parser *ps)
{
    const char *s = ps->p;

    for (ps->p++; *ps->p != '"'; ps->p++) {
        if ((unsigned char)*ps->p < 0x20)
            return -EINVAL; /* the end of the text, or a raw control character */
        if (*ps->p == '\\') {
            ps->p++;
            if (*ps->p == 'u') {
                /* up to four hex digits, as PCP takes them */
                for (int i = 0; i < 4 && ps->p[1] != '\0' && strchr(HEX, ps->p[1]); i++)
                    ps->p++;
            } else if (*ps->p == '\0' || !strchr("\"\\/bfnrt", *ps->p)) {
                return -EINVAL;
            }
        }
    }
    ps->p++;
    put(ps, s, (size_t)(ps->p - s));
    return 0;
}

/* A JSON number: -, then 0 or a non-zero digit's run, then .digits, then exponent. */
static int number(parser *ps)
{
    const char *s = ps->p;

    if (*ps->p == '-')
        ps->p++;
    if (*ps->p == '0')
        ps->p++;
    else if (is_digit(*ps->p))
        while (is_digit(*ps->p))
            ps->p++;
    else
        return -EINVAL;
    if (*ps->p == '.') {
        if (!is_digit(*++ps->p))
            return -EINVAL;
        while (is_digit(*ps->p))
            ps->p++;
    }
    if (*ps->p == 'e' || *ps->p == 'E') {
        ps->p++;
        if (*ps->p == '+' || *ps->p == '-')
            ps->p++;
        if (!is_digit(*ps->p))
            return -EINVAL;
        while (is_digit(*ps->p))
            ps->p++;
    }
    put(ps, s, (size_t)(ps->p - s));
    return 0;
}

static int any_value(parser *ps);

/* After a member of an object or array: 1 and past the ',' when another
 * follows, 0 and past the closing character when none does. */
static int next_member(parser *ps, char close)
{
    skip_ws(ps);
    if (expect(ps, close)) {
        put(ps, &close, 1);
        return 0;
    }
    if (!expect(ps, ','))
        return -EINVAL;
    put(ps, ",", 1);
    skip_ws(ps);
    return 1;
}

/* An array or an object inside an array (no labels in it), compacted. */
static int container(parser *ps, char open, char close)
{
    int sts;

    if (ps->depth >= MAX_DEPTH)
        return -EINVAL;
    put(ps, &open, 1);
    ps->p++;
    skip_ws(ps);
    if (*ps->p == close) {
        ps->p++;
        put(ps, &close, 1);
        return 0;
    }
    for (;;) {
        if (open == '{') {
            if (*ps->p != '"' || (sts = string(ps)) < 0)
                return -EINVAL;
            skip_ws(ps);
            if (!expect(ps, ':'))
                return -EINVAL;
            put(ps, ":", 1);
            skip_ws(ps);
        }
        ps->depth++;
        sts = any_value(ps);
        ps->depth--;
        if (sts < 0 || (sts = next_member(ps, close)) <= 0)
            return sts;
    }
}

/* Any JSON value, compacted. */
static int any_value(parser *ps)
{
    static const char *const words[] = {"true", "false", "null"};

    switch (*ps->p) {
    case '"':
        return string(ps);
    case '{':
        return container(ps, '{', '}');
    case '[':
        return container(ps, '[', ']');
    }
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(words[i]);
        if (strncmp(ps->p, words[i], n) == 0) {
            put(ps, ps->p, n);
            ps->p += n;
            return 0;
        }
    }
    return number(ps);
}

/* A label name: a letter, then letters, digits and '_' -- and, in merged
 * labels, dots (PCP takes any run of them there, "a..b" and "a." too). */
static int label_name(const char *s, size_t n, int dots)
{
    if (n == 0 || !is_alpha(s[0]))
        return 0;
    for (size_t i = 1; i < n; i++)
        if (!is_alpha(s[i]) && !is_digit(s[i]) && s[i] != '_' && !(dots && s[i] == '.'))
            return 0;
    return 1;
}

/* Record the label whose inner name is out[name, name + namelen) and whose
 * value is out[value, len). */
static int leaf(parser *ps, size_t name, size_t namelen, size_t value, int compound)
{
    pmkit_lbl *x;
    size_t full = ps->pathlen + namelen;
    char *fullname;
    int sts;

    if (full > PM_MAXLABELJSONLEN || (fullname = malloc(full + 1)) == NULL)
        return full > PM_MAXLABELJSONLEN ? -E2BIG : -ENOMEM;
    memcpy(fullname, ps->path, ps->pathlen);
    memcpy(fullname + ps->pathlen, ps->out + name, namelen);
    sts = lbls_add(ps->lbl, fullname, full, ps->out + value, ps->len - value,
                   ps->flags | (compound ? PM_LABEL_COMPOUND : 0));
    free(fullname);
    if (sts < 0)
        return sts;
    x = &ps->lbl->v[ps->lbl->n - 1];
    x->name_off = (int)name;
    x->inner_len = (int)namelen;
    x->value_off = (int)value;
    x->nested = ps->pathlen > 0;
    return 0;
}

/* An object of labels at ps->p; depth 0 is the whole text. */
static int object(parser *ps)
{
    int sts;

    ps->p++;
    put(ps, "{", 1);
    skip_ws(ps);
    if (*ps->p == '}') {
        ps->p++;
        put(ps, "}", 1);
        return 0;
    }
    for (;;) {
        size_t name, namelen, value, saved;
        const char *s = ps->p + 1, *e;
        if (*ps->p != '"' || (e = strchr(s, '"')) == NULL ||
            !label_name(s, (size_t)(e - s), ps->dots))
            return -EINVAL;
        put(ps, "\"", 1);
        name = ps->len;
        namelen = (size_t)(e - s);
        put(ps, s, namelen);
        put(ps, "\"", 1);
        ps->p = e + 1;
        skip_ws(ps);
        if (!expect(ps, ':'))
            return -EINVAL;
        put(ps, ":", 1);
        skip_ws(ps);
        value = ps->len;
        if (*ps->p == '{') {
            /* labels below this name, unless the object is empty */
            int before = ps->lbl->n;
            saved = ps->pathlen;
            if (saved + namelen + 1 > PM_MAXLABELJSONLEN)
                return -E2BIG;
            memcpy(ps->path + saved, ps->out + name, namelen);
            ps->path[saved + namelen] = '.';
            ps->pathlen = saved + namelen + 1;
            if (ps->depth >= MAX_DEPTH)
                return -EINVAL;
            ps->depth++;
            sts = object(ps);
            ps->depth--;
            ps->pathlen = saved;
            if (sts < 0)
                return sts;
            if (ps->lbl->n == before && (sts = leaf(ps, name, namelen, value, 1)) < 0)
                return sts;
        } else {
            if ((sts = any_value(ps)) < 0 ||
                (sts = leaf(ps, name, namelen, value, ps->pathlen > 0)) < 0)
                return sts;
        }
        if ((sts = next_member(ps, '}')) <= 0)
            return sts;
    }
}

int pmkit_labels_parse(const char *text, int flags, int dots, char **json, pmkit_lbls *out)
{
    parser *ps;
    int sts = 0;

    *json = NULL;
    memset(out, 0, sizeof(*out));
    if (text == NULL)
        return 0;
    if ((ps = malloc(sizeof(*ps))) == NULL || (ps->out = malloc(strlen(text) + 1)) == NULL) {
        free(ps);
        return -ENOMEM;
    }
    ps->p = text;
    ps->len = ps->pathlen = 0;
    ps->depth = 0;
    ps->lbl = out;
    ps->flags = flags;
    ps->dots = dots;
    skip_ws(ps);
    if (*ps->p != '\0') {
        /* JSON other than an object holds no labels; PCP refuses a string */
        int is_object = *ps->p == '{';
        sts = is_object ? object(ps) : *ps->p == '"' ? -EINVAL : any_value(ps);
        skip_ws(ps);
        if (sts == 0 && *ps->p != '\0')
            sts = -EINVAL;
        if (!is_object)
            ps->len = 0;
    }
    ps->out[ps->len] = '\0';
    if (sts == 0 && ps->len > PM_MAXLABELJSONLEN)
        sts = -E2BIG;
    if (sts == 0 && out->n > 1) {
        qsort(out->v, (size_t)out->n, sizeof(*out->v), by_name);
        for (int i = 1; i < out->n && sts == 0; i++)
            if (overlaps(&out->v[i - 1], &out->v[i]))
                sts = -EINVAL; /* a name given twice, or as a value and an object */
    }
    if (sts == 0 && out->n > PM_MAXLABELS)
        sts = -E2BIG;
    if (sts < 0 || out->n == 0) {
        free(ps->out);
        pmkit_lbls_free(out);
    } else {
        *json = ps->out;
    }
    free(ps);
    return sts < 0 ? sts : out->n;
}

/* ---------------------------------------------------------------- */
/* Sets. */

/* A set in its first form from a parse: takes json. */
int pmkit_labelset_first(pmLabelSet *set, char *json, const pmkit_lbls *l)
{
    pmLabel *labels = NULL;
    int compound = 0;

    if (l->n > 0 && (labels = calloc((size_t)l->n, sizeof(*labels))) == NULL)
        return -ENOMEM;
    for (int i = 0; i < l->n; i++) {
        const pmkit_lbl *x = &l->v[i];
        if (x->inner_len > 0xff || x->valuelen > 0xffff) {
            free(labels);
            return -E2BIG;
        }
        labels[i].name = (unsigned)x->name_off;
        labels[i].namelen = (unsigned)x->inner_len;
        labels[i].value = (unsigned)x->value_off;
        labels[i].valuelen = (unsigned)x->valuelen;
        labels[i].flags = (unsigned)x->flags & 0xff;
        /* PCP marks a set compound for nested labels, not for an empty
         * object standing in for one */
        if (x->nested && strcmp(x->value, "{}") != 0)
            compound = 1;
    }
    free(set->json);
    free(set->labels);
    set->json = json;
    set->jsonlen = (unsigned)strlen(json);
    set->labels = labels;
    set->nlabels = l->n;
    set->compound = (unsigned)compound;
    return l->n;
}

/* The flat JSON of l and (unless labels is NULL) its labels by full name;
 * the JSON's length, 0 and NULL for no labels. */
int pmkit_lbls_json(const pmkit_lbls *l, char **json, pmLabel **labels)
{
    size_t len = 2;
    char *w;

    *json = NULL;
    if (labels != NULL)
        *labels = NULL;
    if (l->n == 0)
        return 0;
    for (int i = 0; i < l->n; i++) {
        if (l->v[i].namelen > 0xff)
            return -E2BIG; /* a pmLabel's namelen has 8 bits */
        len += (size_t)l->v[i].namelen + (size_t)l->v[i].valuelen + 4;
    }
    if (len > PM_MAXLABELJSONLEN + 1 || l->n > PM_MAXLABELS)
        return -E2BIG;
    if ((*json = malloc(len + 1)) == NULL ||
        (labels != NULL && (*labels = calloc((size_t)l->n, sizeof(pmLabel))) == NULL)) {
        free(*json);
        *json = NULL;
        return -ENOMEM;
    }
    w = *json;
    *w++ = '{';
    for (int i = 0; i < l->n; i++) {
        const pmkit_lbl *x = &l->v[i];
        pmLabel lb = {0};
        if (i > 0)
            *w++ = ',';
        *w++ = '"';
        lb.name = (unsigned)(w - *json);
        lb.namelen = (unsigned)x->namelen;
        memcpy(w, x->name, (size_t)x->namelen);
        w += x->namelen;
        *w++ = '"';
        *w++ = ':';
        lb.value = (unsigned)(w - *json);
        lb.valuelen = (unsigned)x->valuelen;
        lb.flags = (unsigned)x->flags & 0xff;
        memcpy(w, x->value, (size_t)x->valuelen);
        w += x->valuelen;
        if (labels != NULL)
            (*labels)[i] = lb;
    }
    *w++ = '}';
    *w = '\0';
    return (int)(w - *json);
}

/* Replace set's labels with l, flat; compound and inst stay as they were. */
int pmkit_labelset_flat(pmLabelSet *set, const pmkit_lbls *l)
{
    char *json;
    pmLabel *labels;
    int sts = pmkit_lbls_json(l, &json, &labels);

    if (sts < 0)
        return sts;
    free(set->json);
    free(set->labels);
    set->json = json;
    set->jsonlen = (unsigned)sts;
    set->labels = labels;
    set->nlabels = l->n;
    return l->n;
}

/*
 * The labels of a set, by full name, with the flags of its labels[].  A set
 * in its first form names nested labels by their inner names: the full
 * names come from parsing its JSON, matched by where each name starts.
 * Labels that the JSON does not explain (a set built by hand) keep the
 * name they point at.
 */
int pmkit_lbls_of_set(const pmLabelSet *set, pmkit_lbls *out)
{
    pmkit_lbls parsed;
    char *json = NULL;
    int sts = 0;

    memset(out, 0, sizeof(*out));
    if (set == NULL || set->json == NULL || set->nlabels <= 0 || set->labels == NULL)
        return 0;
    if (pmkit_labels_parse(set->json, 0, 1, &json, &parsed) < 0)
        memset(&parsed, 0, sizeof(parsed));
    for (int i = 0; i < set->nlabels && sts == 0; i++) {
        const pmLabel *lb = &set->labels[i];
        const char *name = set->json + lb->name;
        size_t namelen = lb->namelen;
        if ((size_t)lb->name + lb->namelen > set->jsonlen ||
            (size_t)lb->value + lb->valuelen > set->jsonlen)
            continue; /* points outside the JSON */
        for (int j = 0; j < parsed.n; j++) {
            if (parsed.v[j].name_off == (int)lb->name) {
                name = parsed.v[j].name;
                namelen = (size_t)parsed.v[j].namelen;
                break;
            }
        }
        sts = lbls_add(out, name, namelen, set->json + lb->value, lb->valuelen, lb->flags);
        if (sts == 0) {
            out->v[out->n - 1].set_label = lb;
            out->v[out->n - 1].set_json = set->json;
        }
    }
    free(json);
    pmkit_lbls_free(&parsed);
    if (sts < 0) {
        pmkit_lbls_free(out);
        return sts;
    }
    if (out->n > 1)
        qsort(out->v, (size_t)out->n, sizeof(*out->v), by_name);
    return out->n;
}

/*
 * acc := acc merged with upd (both sorted by name); upd wins where names
 * overlap.  With a filter, every label of the result is offered to it
 * first, as the label and JSON it came from (acc_json and acc_labels for
 * acc's, its set's for upd's, which then came from pmkit_lbls_of_set), and
 * kept only if it says so.
 */
int pmkit_lbls_merge(pmkit_lbls *acc, pmkit_lbls *upd,
                     int (*filter)(const pmLabel *, const char *, void *), void *arg,
                     const char *acc_json, const pmLabel *acc_labels)
{
    pmkit_lbls out = {0};
    int i = 0, j = 0, sts = 0;

    while (sts == 0 && (i < acc->n || j < upd->n)) {
        pmkit_lbl *x;
        const pmLabel *lb;
        const char *json;
        int from_acc = j == upd->n || (i < acc->n && strcmp(acc->v[i].name, upd->v[j].name) < 0);
        if (from_acc) {
            /* dropped if the update has this name, or a name above or below it */
            int k = 0;
            while (k < upd->n && !overlaps(&acc->v[i], &upd->v[k]))
                k++;
            x = &acc->v[i];
            lb = acc_labels != NULL ? &acc_labels[i] : NULL;
            json = acc_json;
            i++;
            if (k < upd->n)
                continue;
        } else {
            x = &upd->v[j++];
            lb = x->set_label;
            json = x->set_json;
        }
        if (filter != NULL && !filter(lb, json, arg))
            continue;
        sts = lbls_add(&out, x->name, (size_t)x->namelen, x->value, (size_t)x->valuelen, x->flags);
    }
    if (sts < 0) {
        pmkit_lbls_free(&out);
        return sts;
    }
    pmkit_lbls_free(acc);
    *acc = out;
    return acc->n;
}

/*
 * Add the label object text to *lpp (a new set if NULL), each label with
 * flags: in the first form if the set is new, else merged flat, as PCP
 * merges even into a set that has no labels yet.
 * Names may not have dots here.
 * The set's label count, or -EINVAL, -E2BIG, -ENOMEM with the set as it
 * was.  PCP's internal name, which its libpcp_pmda and pminfo call.
 */
int __pmAddLabels(pmLabelSet **lpp, const char *text, int flags)
{
    pmkit_lbls fresh, old;
    pmLabelSet *set = *lpp;
    char *json;
    int sts;

    if ((sts = pmkit_labels_parse(text, flags, 0, &json, &fresh)) < 0)
        return sts;
    if (set == NULL) {
        if ((set = calloc(1, sizeof(*set))) == NULL) {
            free(json);
            pmkit_lbls_free(&fresh);
            return -ENOMEM;
        }
        set->inst = PM_IN_NULL;
    }
    if (*lpp == NULL) {
        /* the first labels of a new set, as written; none leaves an empty
         * string */
        if (json == NULL && (json = strdup("")) == NULL)
            sts = -ENOMEM;
        else if ((sts = pmkit_labelset_first(set, json, &fresh)) < 0)
            free(json);
    } else {
        /* merged, and so made flat even when there is nothing to add */
        free(json);
        if ((sts = pmkit_lbls_of_set(set, &old)) >= 0 &&
            (sts = pmkit_lbls_merge(&old, &fresh, NULL, NULL, NULL, NULL)) >= 0)
            sts = pmkit_labelset_flat(set, &old);
        pmkit_lbls_free(&old);
    }
    pmkit_lbls_free(&fresh);
    if (sts >= 0)
        *lpp = set;
    else if (*lpp == NULL)
        free(set); /* a failure leaves no new set behind */
    return sts;
}

/* Set's labels as one flat object sorted by name (PCP leaves an agent's
 * instance labels so); 0 or -errno with the set as it was. */
int __pmkit_flatten_labels(pmLabelSet *set)
{
    pmkit_lbls l;
    int sts = pmkit_lbls_of_set(set, &l);

    if (sts > 0)
        sts = pmkit_labelset_flat(set, &l);
    pmkit_lbls_free(&l);
    return sts < 0 ? sts : 0;
}

/* ---------------------------------------------------------------- */
/* The public functions. */

/*
 * The result's JSON into buffer: its length.  No labels give 0 with the
 * buffer untouched, or "{}" when braces is set (PCP's two merges differ
 * so).  PCP asks for 4 bytes more than the text (4 for "{}" too).
 */
static int answer(const pmkit_lbls *l, char *buffer, int buflen, int braces)
{
    char *json;
    int len = pmkit_lbls_json(l, &json, NULL);

    if (len == 0 && braces) {
        if (buflen < 4)
            return -E2BIG;
        memcpy(buffer, "{}", 3);
        return 2;
    }
    if (len > 0) {
        if (len + 4 > buflen)
            len = -E2BIG;
        else
            memcpy(buffer, json, (size_t)len + 1);
    }
    free(json);
    return len;
}

int pmMergeLabels(char **labels, int nlabels, char *buffer, int buflen)
{
    pmkit_lbls acc = {0};
    int sts = 0;

    if (labels == NULL || nlabels < 1 || buffer == NULL)
        return -EINVAL;
    for (int i = 0; i < nlabels && sts >= 0; i++) {
        pmkit_lbls upd;
        char *json;
        if ((sts = pmkit_labels_parse(labels[i], 0, 1, &json, &upd)) < 0)
            break;
        free(json);
        sts = pmkit_lbls_merge(&acc, &upd, NULL, NULL, NULL, NULL);
        pmkit_lbls_free(&upd);
    }
    if (sts >= 0)
        sts = answer(&acc, buffer, buflen, 0);
    pmkit_lbls_free(&acc);
    return sts == -E2BIG || sts == -ENOMEM ? sts : sts < 0 ? -EINVAL : sts;
}

int pmMergeLabelSets(pmLabelSet **sets, int nsets, char *buffer, int buflen,
                     int (*filter)(const pmLabel *, const char *, void *), void *arg)
{
    pmkit_lbls acc = {0};
    char *acc_json = NULL;
    pmLabel *acc_labels = NULL;
    int sts = 0, seen = 0;

    if (sets == NULL || nsets < 1 || buffer == NULL)
        return -EINVAL;
    for (int i = 0; i < nsets && sts >= 0; i++) {
        pmkit_lbls upd;
        if (sets[i] == NULL)
            continue;
        seen = 1;
        if ((sts = pmkit_lbls_of_set(sets[i], &upd)) < 0)
            break;
        sts = pmkit_lbls_merge(&acc, &upd, filter, arg, acc_json, acc_labels);
        pmkit_lbls_free(&upd);
        free(acc_json);
        free(acc_labels);
        acc_json = NULL;
        acc_labels = NULL;
        /* the filter sees the labels merged so far as one flat object */
        if (sts >= 0 && filter != NULL && i + 1 < nsets)
            sts = pmkit_lbls_json(&acc, &acc_json, &acc_labels);
    }
    if (sts >= 0) /* sets without labels merge to "{}", no sets to nothing */
        sts = answer(&acc, buffer, buflen, seen);
    free(acc_json);
    free(acc_labels);
    pmkit_lbls_free(&acc);
    return sts;
}

const char *__pmLabelTypeString(int flags)
{
    switch (flags & ~(PM_LABEL_COMPOUND | PM_LABEL_OPTIONAL)) {
    case PM_LABEL_CONTEXT:
        return "context";
    case PM_LABEL_DOMAIN:
        return "domain";
    case PM_LABEL_INDOM:
        return "indom";
    case PM_LABEL_CLUSTER:
        return "cluster";
    case PM_LABEL_ITEM:
        return "pmid";
    case PM_LABEL_INSTANCES:
        return "instances";
    }
    return "?";
}

/* What a set of labels of this type labels, in words: "Context",
 * "Domain 29", "InDom 29.2", "Cluster 29.0", "PMID 29.0.5"; "" for a type
 * that is none of these. */
char *__pmLabelIdentString(int ident, int type, char *id, size_t idlen)
{
    if (id == NULL || idlen == 0)
        return id;
    switch (type & ~(PM_LABEL_COMPOUND | PM_LABEL_OPTIONAL)) {
    case PM_LABEL_CONTEXT:
        pmsprintf(id, idlen, "Context");
        break;
    case PM_LABEL_DOMAIN:
        pmsprintf(id, idlen, "Domain %d", ident);
        break;
    case PM_LABEL_INDOM:
    case PM_LABEL_INSTANCES:
        pmsprintf(id, idlen, "InDom %s", pmInDomStr((pmInDom)ident));
        break;
    case PM_LABEL_CLUSTER:
        pmsprintf(id, idlen, "Cluster %u.%u", pmID_domain((pmID)ident), pmID_cluster((pmID)ident));
        break;
    case PM_LABEL_ITEM:
        pmsprintf(id, idlen, "PMID %s", pmIDStr((pmID)ident));
        break;
    default:
        id[0] = '\0';
    }
    return id;
}

void pmPrintLabelSets(FILE *f, int ident, int type, pmLabelSet *sets, int nsets)
{
    char id[64];

    __pmLabelIdentString(ident, type, id, sizeof(id));
    for (int i = 0; sets != NULL && i < nsets; i++) {
        const pmLabelSet *s = &sets[i];
        fprintf(f, "    %s", id);
        if (type & PM_LABEL_INSTANCES)
            fprintf(f, "[%u]", s->inst);
        fprintf(f, " labels (%u bytes): %s\n", s->jsonlen, s->json != NULL ? s->json : "(null)");
        for (int j = 0; s->labels != NULL && j < s->nlabels; j++) {
            const pmLabel *lb = &s->labels[j];
            fprintf(f, "        [%d] name(%u,%u) : value(%u,%u) [%s%s%s]\n", j, lb->name,
                    lb->namelen, lb->value, lb->valuelen, __pmLabelTypeString(lb->flags),
                    lb->flags & PM_LABEL_COMPOUND ? ",compound" : "",
                    lb->flags & PM_LABEL_OPTIONAL ? ",optional" : "");
        }
    }
}
