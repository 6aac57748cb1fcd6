/*
 * label.c - metric labels on the agent side: pmdaLabel (the default
 * method), pmdaAddLabels, pmdaAddNotes and pmdaAddLabelFlags.
 *
 * pmdaAddLabels parses a flat JSON object ({"name":value,...}: string,
 * number, true/false/null, or a nested object or array kept verbatim) and
 * merges it into a label set, a later value replacing an earlier one of
 * the same name; the set's JSON is rebuilt compactly with names sorted, as
 * PCP's merge leaves it (PCP's first set keeps input order, and it differs
 * in more ways: docs/compat.md lists them).  pmdaLabel, the default label
 * method, only sets the type as flags on the labels an agent's own label
 * method has already added: it produces none of the context-wide labels
 * PCP fills in (hostname, userid, ...), and for PM_LABEL_INSTANCES it
 * returns no sets and does not call the agent's instance label callback
 * (e_labelCallBack).  Nothing in libpcp calls an agent's label method yet,
 * and pmkit's pminfo has no -l (docs/compat.md).
 */
#include "pmda_int.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    int namelen;
    const char *value;
    int valuelen;
    int flags;
} pair;

static const char *skip_ws(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* End of the JSON value starting at p, or NULL. */
static const char *value_end(const char *p)
{
    int depth = 0, in_string = 0;

    if (*p == '"' || *p == '{' || *p == '[') {
        for (; *p != '\0'; p++) {
            if (in_string) {
                if (*p == '\\' && p[1] != '\0')
                    p++;
                else if (*p == '"')
                    in_string = 0;
                if (!in_string && depth == 0)
                    return p + 1;
                continue;
            }
            if (*p == '"')
                in_string = 1;
            else if (*p == '{' || *p == '[')
                depth++;
            else if ((*p == '}' || *p == ']') && --depth == 0)
                return p + 1;
        }
        return NULL;
    }
    while (*p != '\0' && *p != ',' && *p != '}' && !isspace((unsigned char)*p))
        p++;
    return p;
}

/* Parse {"n":v,...} into pairs; returns the count or PM_ERR_GENERIC. */
static int parse(const char *json, pair **out, int flags)
{
    const char *p = skip_ws(json);
    pair *v = NULL;
    int n = 0;

    if (*p++ != '{')
        return PM_ERR_GENERIC;
    for (p = skip_ws(p); *p != '}'; p = skip_ws(p)) {
        pair x = {.flags = flags};
        const char *e;
        if (*p != '"' || (e = strchr(p + 1, '"')) == NULL || e == p + 1)
            goto bad;
        x.name = p + 1;
        x.namelen = (int)(e - p - 1);
        p = skip_ws(e + 1);
        if (*p++ != ':')
            goto bad;
        p = skip_ws(p);
        if ((e = value_end(p)) == NULL || e == p)
            goto bad;
        x.value = p;
        x.valuelen = (int)(e - p);
        pair *grown = realloc(v, (size_t)(n + 1) * sizeof(*v));
        if (grown == NULL)
            goto bad;
        v = grown;
        v[n++] = x;
        p = skip_ws(e);
        if (*p == ',')
            p = skip_ws(p + 1);
        else if (*p != '}')
            goto bad;
    }
    *out = v;
    return n;
bad:
    free(v);
    return PM_ERR_GENERIC;
}

static int by_name(const void *a, const void *b)
{
    const pair *x = a, *y = b;
    int len = x->namelen < y->namelen ? x->namelen : y->namelen;
    int c = strncmp(x->name, y->name, (size_t)len);

    return c != 0 ? c : x->namelen - y->namelen;
}

/* Rebuild *lpp from pairs sorted by name, stably: of equal names the last wins. */
static int rebuild(pmLabelSet **lpp, pair *v, int n)
{
    pmLabelSet *set = *lpp;
    size_t len = 3;
    char *json, *w;
    pmLabel *labels;
    int k = 0;

    for (int i = 0; i < n; i++)
        len += (size_t)v[i].namelen + (size_t)v[i].valuelen + 4;
    if (len > PM_MAXLABELJSONLEN || n > PM_MAXLABELS)
        return -E2BIG;
    json = malloc(len);
    labels = calloc((size_t)(n > 0 ? n : 1), sizeof(*labels));
    if (json == NULL || labels == NULL) {
        free(json);
        free(labels);
        return -ENOMEM;
    }
    w = json;
    *w++ = '{';
    for (int i = 0; i < n; i++) {
        if (i + 1 < n && by_name(&v[i], &v[i + 1]) == 0)
            continue; /* a later definition follows */
        if (k > 0)
            *w++ = ',';
        *w++ = '"';
        labels[k].name = (unsigned)(w - json) & 0xffff;
        labels[k].namelen = (unsigned)v[i].namelen & 0xff;
        memcpy(w, v[i].name, (size_t)v[i].namelen);
        w += v[i].namelen;
        *w++ = '"';
        *w++ = ':';
        labels[k].value = (unsigned)(w - json) & 0xffff;
        labels[k].valuelen = (unsigned)v[i].valuelen & 0xffff;
        labels[k].flags = (unsigned)v[i].flags & 0xff;
        memcpy(w, v[i].value, (size_t)v[i].valuelen);
        w += v[i].valuelen;
        k++;
    }
    *w++ = '}';
    *w = '\0';
    free(set->json);
    free(set->labels);
    set->json = json;
    set->jsonlen = (unsigned)(w - json) & 0xffff;
    set->labels = labels;
    set->nlabels = k;
    return k;
}

static int add_labels(pmLabelSet **lpp, int flags, const char *fmt, va_list ap)
{
    char text[PM_MAXLABELJSONLEN];
    pair *fresh = NULL, *all;
    int nfresh, nold = 0, sts;
    pmLabelSet *set = *lpp;

    vsnprintf(text, sizeof(text), fmt, ap);
    if ((nfresh = parse(text, &fresh, flags)) < 0) {
        pmNotifyErr(LOG_ERR, "pmdaAddLabels: %s (%s)", pmErrStr(nfresh), text);
        return nfresh;
    }
    if (set == NULL && (set = *lpp = calloc(1, sizeof(*set))) == NULL) {
        free(fresh);
        return -ENOMEM;
    }
    if (set->nlabels > 0 && set->json != NULL)
        nold = set->nlabels;
    if ((all = calloc((size_t)(nold + nfresh + 1), sizeof(*all))) == NULL) {
        free(fresh);
        return -ENOMEM;
    }
    for (int i = 0; i < nold; i++) {
        const pmLabel *l = &set->labels[i];
        all[i] = (pair){set->json + l->name, l->namelen, set->json + l->value, l->valuelen,
                        l->flags};
    }
    if (nfresh > 0) /* "{}" leaves fresh NULL, which memcpy may not take */
        memcpy(all + nold, fresh, (size_t)nfresh * sizeof(*all));
    /* stable insertion sort by name: a new value follows the old one it replaces */
    for (int i = 1; i < nold + nfresh; i++) {
        pair x = all[i];
        int j = i;
        for (; j > 0 && by_name(&all[j - 1], &x) > 0; j--)
            all[j] = all[j - 1];
        all[j] = x;
    }
    sts = rebuild(lpp, all, nold + nfresh); /* copies the pairs before freeing the old json */
    free(all);
    free(fresh);
    return sts;
}

int pmdaAddLabels(pmLabelSet **lpp, const char *fmt, ...)
{
    va_list ap;
    int sts;

    va_start(ap, fmt);
    sts = add_labels(lpp, 0, fmt, ap);
    va_end(ap);
    return sts;
}

int pmdaAddNotes(pmLabelSet **lpp, const char *fmt, ...)
{
    va_list ap;
    int sts;

    va_start(ap, fmt);
    sts = add_labels(lpp, PM_LABEL_OPTIONAL, fmt, ap);
    va_end(ap);
    return sts;
}

int pmdaAddLabelFlags(pmLabelSet *set, int flags)
{
    if (set == NULL)
        return 0;
    for (int i = 0; i < set->nlabels; i++)
        set->labels[i].flags |= (unsigned)flags & 0xff;
    return set->nlabels;
}

int pmdaLabel(int ident, int type, pmLabelSet **lpp, pmdaExt *pmda)
{
    (void)ident;
    (void)pmda;
    switch (type & ~PM_LABEL_COMPOUND) {
    case PM_LABEL_CONTEXT:
    case PM_LABEL_DOMAIN:
    case PM_LABEL_INDOM:
    case PM_LABEL_CLUSTER:
    case PM_LABEL_ITEM:
        if (lpp == NULL || *lpp == NULL)
            return 0;
        return pmdaAddLabelFlags(*lpp, type);
    case PM_LABEL_INSTANCES:
        return 0;
    default:
        return PM_ERR_TYPE;
    }
}
