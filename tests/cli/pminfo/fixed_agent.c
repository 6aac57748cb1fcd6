/*
 * fixed_agent.c - a DSO agent with fixed answers, for pminfo's golden cases.
 *
 * Built by agent.inc against the headers only and linked with nothing: it
 * uses no libpcp_pmda function (its init functions fill the pmdaInterface
 * themselves) and its few libpcp calls (pmID_*, pmIDStr, ...) resolve to
 * whichever libpcp the client loaded it into.  Metric names are in
 * fixed_agent.pmns (domain 30 for fixed_init; the other inits are given
 * their own domains by the cases).
 *
 *   fixed_init      every value type, instance domains (one the fetch
 *                   enumerates only when asked for instances explicitly, as
 *                   PCP's proc agent does), help and one-line text in every
 *                   state, per-metric fetch errors, a failing descriptor
 *   failing_init    sets status to an error: the agent is not loaded
 *   oldpmapi_init   claims an interface version the client cannot know
 *   erring_init     every method fails, with a different code each, but for
 *                   the descriptors of all metrics except fixed.i32
 *   malformed_init  hands back fetch results that break the rules (see
 *                   break_rules)
 *   nonames_init    instance lists without names (PCP's pminfo crashes)
 *   nulltext_init   a NULL text with success (PCP's pminfo crashes)
 *
 * FIXED_TRACE=1 in the environment logs every call into the agent on
 * stderr (a research aid; no case sets it).
 *
 * Deliberately not here: labels, dynamic names, stores.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <stdarg.h>

enum value {
    V_NONE,   /* numval 0 */
    V_NUMBER, /* the number below, in the metric's type */
    V_STRING, /* "hello world" */
    V_AGGR,   /* 4 bytes "abcd" */
    V_EVENT,  /* an event array without records */
    V_ERROR,  /* numval is the error below */
};

struct metric {
    const char *name;
    int cluster, item;
    int type, indom, sem; /* indom: serial, or -1 for PM_INDOM_NULL */
    pmUnits units;
    enum value value;
    double number;
    int error;
    const char *oneline, *help; /* NULL: no text of that kind */
};

#define UNITS(ds, dt, dc, ss, st, sc)                                                              \
    {                                                                                              \
        .dimSpace = ds, .dimTime = dt, .dimCount = dc, .scaleSpace = ss, .scaleTime = st,          \
        .scaleCount = sc                                                                           \
    }
#define NOUNITS UNITS(0, 0, 0, 0, 0, 0)

static const struct metric metrics[] = {
    {"fixed.i32", 0, 0, PM_TYPE_32, -1, PM_SEM_INSTANT, NOUNITS, V_NUMBER, -42, 0,
     "a signed 32-bit value", "Always -42.\nA second line.\n\n\n"},
    {"fixed.u32", 0, 1, PM_TYPE_U32, -1, PM_SEM_COUNTER, UNITS(0, 0, 1, 0, 0, 0), V_NUMBER,
     4000000000.0, 0, "an unsigned 32-bit counter", ""},
    {"fixed.i64", 0, 2, PM_TYPE_64, -1, PM_SEM_DISCRETE, UNITS(1, 0, 0, PM_SPACE_KBYTE, 0, 0),
     V_NUMBER, -9000000000.0, 0, "a signed 64-bit value", NULL},
    {"fixed.u64", 0, 3, PM_TYPE_U64, -1, PM_SEM_INSTANT,
     UNITS(1, -1, 0, PM_SPACE_MBYTE, PM_TIME_SEC, 0), V_NUMBER, 18000000000000000000.0, 0, "",
     "Help without a one-line."},
    {"fixed.float", 0, 4, PM_TYPE_FLOAT, -1, PM_SEM_INSTANT, UNITS(0, 1, -1, 0, PM_TIME_HOUR, 6),
     V_NUMBER, 3.25, 0, NULL, NULL},
    {"fixed.double", 0, 5, PM_TYPE_DOUBLE, -1, PM_SEM_COUNTER, UNITS(0, 1, 0, 0, PM_TIME_USEC, 0),
     V_NUMBER, 0.1, 0, "a double", "Exactly 0.1, nearly."},
    {"fixed.string", 0, 6, PM_TYPE_STRING, -1, PM_SEM_DISCRETE, NOUNITS, V_STRING, 0, 0, "a string",
     "The words \"hello world\"."},
    {"fixed.aggregate", 0, 7, PM_TYPE_AGGREGATE, -1, PM_SEM_DISCRETE, NOUNITS, V_AGGR, 0, 0,
     "four bytes", NULL},
    {"fixed.event", 0, 8, PM_TYPE_EVENT, -1, PM_SEM_DISCRETE, NOUNITS, V_EVENT, 0, 0, "no events",
     NULL},
    {"fixed.nosupport", 0, 9, PM_TYPE_NOSUPPORT, -1, PM_SEM_INSTANT, NOUNITS, V_ERROR, 0,
     PM_ERR_APPVERSION, "not supported here", NULL},
    {"fixed.scaled", 0, 10, PM_TYPE_U32, -1, PM_SEM_INSTANT, UNITS(0, 0, 0, 0, 0, 3), V_NUMBER, 7,
     0, "count-less scale", NULL},
    {"fixed.oddsem", 0, 11, PM_TYPE_32, -1, 2, NOUNITS, V_NUMBER, 1, 0, "semantics 2", NULL},
    {"fixed.oddtype", 0, 12, 11, -1, PM_SEM_INSTANT, NOUNITS, V_NONE, 0, 0, "type 11", NULL},
    {"fixed.blank", 0, 13, PM_TYPE_AGGREGATE_STATIC, -1, PM_SEM_DISCRETE, NOUNITS, V_NONE, 0, 0, "",
     ""},
    {"fixed.newlines", 0, 14, PM_TYPE_HIGHRES_EVENT, -1, PM_SEM_DISCRETE, NOUNITS, V_NONE, 0, 0,
     "two lines\nin one", "\n\n"},
    {"fixed.unknown", 0, 15, PM_TYPE_UNKNOWN, -1, PM_SEM_DISCRETE, NOUNITS, V_NONE, 0, 0, "\n",
     "  \n"},
    {"fixed.inst.colour", 1, 0, PM_TYPE_32, 0, PM_SEM_INSTANT, NOUNITS, V_NUMBER, 10, 0,
     "per colour", "One value per colour.\n"},
    {"fixed.inst.empty", 1, 1, PM_TYPE_U32, 1, PM_SEM_INSTANT, NOUNITS, V_NUMBER, 5, 0,
     "an empty instance domain", NULL},
    {"fixed.inst.strings", 1, 2, PM_TYPE_STRING, 0, PM_SEM_INSTANT, NOUNITS, V_STRING, 0, 0,
     "strings per colour", NULL},
    {"fixed.inst.hidden", 1, 3, PM_TYPE_U64, 2, PM_SEM_INSTANT, NOUNITS, V_NUMBER, 100, 0,
     "values only for instances asked for", NULL},
    {"fixed.inst.double", 1, 4, PM_TYPE_DOUBLE, 0, PM_SEM_INSTANT, NOUNITS, V_NUMBER, 1.5, 0,
     "doubles per colour", NULL},
    {"fixed.err.again", 2, 0, PM_TYPE_32, -1, PM_SEM_INSTANT, NOUNITS, V_ERROR, 0, PM_ERR_AGAIN,
     "always try again", NULL},
    {"fixed.err.errno", 2, 1, PM_TYPE_32, 0, PM_SEM_INSTANT, NOUNITS, V_ERROR, 0, -EIO,
     "an I/O error", NULL},
    {"fixed.err.inst", 2, 2, PM_TYPE_32, 3, PM_SEM_INSTANT, NOUNITS, V_NUMBER, 1, 0,
     "instance domain the agent does not know", NULL},
    {"fixed.err.value", 2, 3, PM_TYPE_U32, -1, PM_SEM_INSTANT, NOUNITS, V_ERROR, 0, PM_ERR_VALUE,
     NULL, NULL},
    {"fixed.err.profile", 2, 4, PM_TYPE_U32, -1, PM_SEM_INSTANT, NOUNITS, V_ERROR, 0,
     PM_ERR_PROFILE, "singular, but wants instances", NULL},
    {"fixed.err.profileinst", 2, 5, PM_TYPE_U32, 3, PM_SEM_INSTANT, NOUNITS, V_ERROR, 0,
     PM_ERR_PROFILE, "wants instances of an unknown instance domain", NULL},
    {"fixed.err.profileempty", 2, 6, PM_TYPE_U32, 1, PM_SEM_INSTANT, NOUNITS, V_ERROR, 0,
     PM_ERR_PROFILE, "wants instances of an empty instance domain", NULL},
    {"fixed.err.stubborn", 2, 7, PM_TYPE_U32, 0, PM_SEM_INSTANT, NOUNITS, V_ERROR, 0,
     PM_ERR_PROFILE, "wants instances, never satisfied", NULL},
};
#define NMETRICS ((int)(sizeof(metrics) / sizeof(metrics[0])))
/* fixed.err.desc (2.9) is in the namespace but has no descriptor. */

struct instance {
    int id;
    const char *name;
};
static const struct instance colours[] = {{0, "red"}, {1, "green light"}, {7, "blue"}};
static const struct instance hidden[] = {{1, "one"}, {2, "two"}, {3, "three"}};

static const struct {
    const struct instance *list;
    int count;
    const char *oneline, *help;
} indoms[] = {
    {colours, 3, "colours of the rainbow", "Three of them:\nred, green light and blue.\n"},
    {NULL, 0, NULL, NULL},
    {hidden, 3, "listed but not fetched", NULL},
};
#define NINDOMS ((int)(sizeof(indoms) / sizeof(indoms[0])))

static int malformed;      /* malformed_init's agent */
static int nonames;        /* nonames_init's agent */
static int nulltext;       /* nulltext_init's agent */
static pmProfile *profile; /* the last profile seen (owned by libpcp) */

static void trace(const char *fmt, ...)
{
    va_list ap;

    if (getenv("FIXED_TRACE") == NULL)
        return;
    va_start(ap, fmt);
    fputs("[fixed] ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static const struct metric *find(pmID pmid)
{
    for (int i = 0; i < NMETRICS; i++) {
        if ((int)pmID_cluster(pmid) == metrics[i].cluster &&
            (int)pmID_item(pmid) == metrics[i].item)
            return &metrics[i];
    }
    return NULL;
}

static void trace_profile(void)
{
    if (profile == NULL || getenv("FIXED_TRACE") == NULL)
        return;
    trace("  profile state %d, %d indoms", profile->state, profile->profile_len);
    for (int i = 0; i < profile->profile_len; i++) {
        pmInDomProfile *p = &profile->profile[i];
        fprintf(stderr, "[fixed]   indom %u.%u state %d:", pmInDom_domain(p->indom),
                pmInDom_serial(p->indom), p->state);
        for (int j = 0; j < p->instances_len; j++)
            fprintf(stderr, " %d", p->instances[j]);
        fputc('\n', stderr);
    }
}

/* Is instance inst of indom selected by the profile?  (*explicit: the profile
 * lists the instances wanted.) */
static int selected(pmInDom indom, int inst, int *explicit)
{
    *explicit = 0;
    if (profile == NULL)
        return 1;
    for (int i = 0; i < profile->profile_len; i++) {
        pmInDomProfile *p = &profile->profile[i];
        if (p->indom != indom)
            continue;
        *explicit = p->state == PM_PROFILE_EXCLUDE; /* only the instances listed */
        for (int j = 0; j < p->instances_len; j++) {
            if (p->instances[j] == inst)
                return p->state != PM_PROFILE_INCLUDE;
        }
        return p->state == PM_PROFILE_INCLUDE;
    }
    return profile->state == PM_PROFILE_INCLUDE;
}

static int fixed_profile(pmProfile *prof, pmdaExt *ext)
{
    (void)ext;
    profile = prof;
    trace("profile");
    trace_profile();
    return 0;
}

static pmValueBlock *block(int type, const void *data, size_t len)
{
    pmValueBlock *vb = calloc(1, PM_VAL_HDR_SIZE + len + 8);

    if (vb == NULL)
        return NULL;
    vb->vtype = (unsigned int)type;
    vb->vlen = (unsigned int)(PM_VAL_HDR_SIZE + len);
    memcpy(vb->vbuf, data, len);
    return vb;
}

/* One value of metric m for instance inst (index k) into v; its valfmt. */
static int value(const struct metric *m, int inst, int k, pmValue *v)
{
    double x = m->number + k;
    char text[64];

    v->inst = inst;
    switch (m->value) {
    case V_STRING:
        snprintf(text, sizeof(text), k == 0 ? "hello world" : "colour %d", inst);
        v->value.pval = block(PM_TYPE_STRING, text, strlen(text) + 1);
        return PM_VAL_DPTR;
    case V_AGGR:
        v->value.pval = block(PM_TYPE_AGGREGATE, "abcd", 4);
        return PM_VAL_DPTR;
    case V_EVENT: { /* the block is a pmEventArray: its header, then ea_nrecords */
        int nrecords = 0;
        v->value.pval = block(PM_TYPE_EVENT, &nrecords, sizeof(nrecords));
        return PM_VAL_DPTR;
    }
    default:
        break;
    }
    switch (m->type) {
    case PM_TYPE_32:
        v->value.lval = (int)x;
        return PM_VAL_INSITU;
    case PM_TYPE_U32:
        v->value.lval = (int)(unsigned int)x;
        return PM_VAL_INSITU;
    case PM_TYPE_64: {
        int64_t ll = (int64_t)x;
        v->value.pval = block(PM_TYPE_64, &ll, 8);
        return PM_VAL_DPTR;
    }
    case PM_TYPE_U64: {
        uint64_t ull = (uint64_t)x;
        v->value.pval = block(PM_TYPE_U64, &ull, 8);
        return PM_VAL_DPTR;
    }
    case PM_TYPE_FLOAT: {
        float f = (float)x;
        v->value.pval = block(PM_TYPE_FLOAT, &f, 4);
        return PM_VAL_DPTR;
    }
    default: {
        v->value.pval = block(PM_TYPE_DOUBLE, &x, 8);
        return PM_VAL_DPTR;
    }
    }
}

/* malformed_init's agent: each metric breaks a different rule. */
static void break_rules(pmValueSet *vs)
{
    int cluster = (int)pmID_cluster(vs->pmid), item = (int)pmID_item(vs->pmid);

    if (cluster == 0 && item == 0) { /* fixed.i32: the wrong metric */
        vs->pmid = pmID_build(pmID_domain(vs->pmid), 7, 7);
    } else if (cluster == 0 && item == 1) { /* fixed.u32: singular, with an instance */
        vs->vlist[0].inst = 3;
    } else if (cluster == 0 && item == 2) { /* fixed.i64: two values for one */
        vs->vlist[1] = vs->vlist[0];
        vs->vlist[1].value.pval = block(PM_TYPE_64, vs->vlist[0].value.pval->vbuf, 8);
        vs->numval = 2;
    } else if (cluster == 0 && item == 5) { /* fixed.double: a block too short */
        vs->vlist[0].value.pval->vlen = PM_VAL_HDR_SIZE + 4;
    } else if (cluster == 0 && item == 6) { /* fixed.string: in the wrong format */
        free(vs->vlist[0].value.pval);
        vs->valfmt = PM_VAL_INSITU;
        vs->vlist[0].value.lval = 1234;
    } else if (cluster == 0 && item == 3) { /* fixed.u64: the wrong type in the block */
        vs->vlist[0].value.pval->vtype = PM_TYPE_STRING;
    } else if (cluster == 1 && item == 0) { /* fixed.inst.colour: an unknown instance */
        vs->vlist[0].inst = 12345;
    } else if (cluster == 1 && item == 2) { /* fixed.inst.strings: no instance */
        vs->vlist[1].inst = PM_IN_NULL;
    }
}

static pmValueSet *valueset(pmID pmid)
{
    const struct metric *m = find(pmid);
    pmValueSet *vs = calloc(1, sizeof(pmValueSet) + 4 * sizeof(pmValue));
    int explicit;

    if (vs == NULL)
        return NULL;
    vs->pmid = pmid;
    if (m == NULL) {
        vs->numval = PM_ERR_PMID;
        return vs;
    }
    if (m->value == V_ERROR) {
        vs->numval = m->error;
        return vs;
    }
    if (m->value == V_NONE)
        return vs;
    if (m->indom < 0) {
        vs->valfmt = value(m, PM_IN_NULL, 0, &vs->vlist[0]);
        vs->numval = 1;
    } else if (m->indom < NINDOMS) {
        pmInDom indom = pmInDom_build(pmID_domain(pmid), (unsigned int)m->indom);
        for (int k = 0; k < indoms[m->indom].count; k++) {
            int inst = indoms[m->indom].list[k].id;
            if (selected(indom, inst, &explicit) && (m->indom != 2 || explicit))
                vs->valfmt = value(m, inst, k, &vs->vlist[vs->numval++]);
        }
        if (m->indom == 2 && !explicit) /* as PCP's proc agent: name the instances */
            vs->numval = PM_ERR_PROFILE;
    } else { /* an indom nobody knows: instance ids anyway */
        vs->valfmt = value(m, 4, 0, &vs->vlist[0]);
        vs->numval = 1;
    }
    if (malformed)
        break_rules(vs);
    return vs;
}

static int fixed_fetch(int n, pmID *pmids, pmResult **resp, pmdaExt *ext)
{
    static pmResult *result;
    (void)ext;

    trace("fetch %d", n);
    for (int i = 0; i < n; i++)
        trace("  %s", pmIDStr(pmids[i]));
    trace_profile();
    free(result);
    if ((result = calloc(1, sizeof(pmResult) + (size_t)n * sizeof(pmValueSet *))) == NULL)
        return -ENOMEM;
    result->numpmid = n;
    for (int i = 0; i < n; i++) {
        if ((result->vset[i] = valueset(pmids[i])) == NULL)
            return -ENOMEM;
    }
    *resp = result;
    return 0;
}

static int fixed_desc(pmID pmid, pmDesc *desc, pmdaExt *ext)
{
    const struct metric *m = find(pmid);
    (void)ext;

    trace("desc %s", pmIDStr(pmid));
    if (m == NULL)
        return PM_ERR_PMID;
    desc->pmid = pmid;
    desc->type = m->type;
    desc->indom =
        m->indom < 0 ? PM_INDOM_NULL : pmInDom_build(pmID_domain(pmid), (unsigned int)m->indom);
    desc->sem = m->sem;
    desc->units = m->units;
    return 0;
}

static int fixed_instance(pmInDom indom, int inst, char *name, pmInResult **resp, pmdaExt *ext)
{
    int serial = (int)pmInDom_serial(indom), n = 0;
    pmInResult *res;
    (void)ext;

    trace("instance %s inst %d name %s", pmInDomStr(indom), inst, name ? name : "(null)");
    if (serial >= NINDOMS)
        return PM_ERR_INDOM;
    if ((res = calloc(1, sizeof(*res))) == NULL)
        return -ENOMEM;
    res->indom = indom;
    res->instlist = calloc(4, sizeof(int));
    res->namelist = nonames ? NULL : calloc(4, sizeof(char *));
    for (int k = 0; k < indoms[serial].count; k++) {
        const struct instance *in = &indoms[serial].list[k];
        if (inst != (int)PM_IN_NULL && in->id != inst)
            continue;
        if (name != NULL && strcmp(name, in->name) != 0)
            continue;
        res->instlist[n] = in->id;
        if (res->namelist != NULL)
            res->namelist[n] = strdup(in->name);
        n++;
    }
    if (n == 0 && (inst != (int)PM_IN_NULL || name != NULL)) {
        free(res->instlist);
        free(res->namelist);
        free(res);
        return PM_ERR_INST;
    }
    res->numinst = n;
    if (name != NULL && res->namelist != NULL) { /* a name lookup: the id only */
        free(res->namelist[0]);
        free(res->namelist);
        res->namelist = NULL;
    }
    *resp = res;
    return 0;
}

static int fixed_text(int ident, int type, char **buffer, pmdaExt *ext)
{
    const char *text = NULL;
    int help = (type & PM_TEXT_HELP) != 0;
    (void)ext;

    trace("text %s type %d",
          type & PM_TEXT_INDOM ? pmInDomStr((pmInDom)ident) : pmIDStr((pmID)ident), type);
    if (nulltext) {
        *buffer = NULL;
        return 0;
    }
    if (type & PM_TEXT_INDOM) {
        int serial = (int)pmInDom_serial((pmInDom)ident);
        if (serial < NINDOMS)
            text = help ? indoms[serial].help : indoms[serial].oneline;
    } else {
        const struct metric *m = find((pmID)ident);
        if (m != NULL)
            text = help ? m->help : m->oneline;
    }
    if (text == NULL)
        return PM_ERR_TEXT;
    *buffer = (char *)text;
    return 0;
}

static int fixed_store(pmResult *result, pmdaExt *ext)
{
    (void)result;
    (void)ext;
    return PM_ERR_PERMISSION;
}

static void setup(pmdaInterface *dp, int version)
{
    static pmdaExt ext;

    dp->comm.pmda_interface = (unsigned int)version;
    dp->comm.pmapi_version = PMAPI_VERSION_2;
    dp->version.any.ext = &ext;
    dp->version.any.profile = fixed_profile;
    dp->version.any.fetch = fixed_fetch;
    dp->version.any.desc = fixed_desc;
    dp->version.any.instance = fixed_instance;
    dp->version.any.text = fixed_text;
    dp->version.any.store = fixed_store;
}

void fixed_init(pmdaInterface *dp);
void failing_init(pmdaInterface *dp);
void oldpmapi_init(pmdaInterface *dp);
void erring_init(pmdaInterface *dp);
void malformed_init(pmdaInterface *dp);
void nonames_init(pmdaInterface *dp);
void nulltext_init(pmdaInterface *dp);

void fixed_init(pmdaInterface *dp)
{
    trace("init domain %d", dp->domain);
    setup(dp, PMDA_INTERFACE_2);
}

void failing_init(pmdaInterface *dp)
{
    dp->status = PM_ERR_PMDANOTREADY;
}

void oldpmapi_init(pmdaInterface *dp)
{
    setup(dp, 9);
}

static int err_profile(pmProfile *p, pmdaExt *e)
{
    (void)p;
    (void)e;
    return -EPERM;
}
static int err_fetch(int n, pmID *l, pmResult **r, pmdaExt *e)
{
    (void)n;
    (void)l;
    (void)r;
    (void)e;
    return PM_ERR_IPC;
}
static int err_desc(pmID id, pmDesc *d, pmdaExt *e)
{
    return pmID_cluster(id) == 0 && pmID_item(id) == 0 ? -ENOENT : fixed_desc(id, d, e);
}
static int err_instance(pmInDom i, int n, char *s, pmInResult **r, pmdaExt *e)
{
    (void)i;
    (void)n;
    (void)s;
    (void)r;
    (void)e;
    return PM_ERR_INDOM_LOG;
}
static int err_text(int i, int t, char **b, pmdaExt *e)
{
    (void)i;
    (void)t;
    (void)b;
    (void)e;
    return -EACCES;
}

void erring_init(pmdaInterface *dp)
{
    setup(dp, PMDA_INTERFACE_2);
    dp->version.any.profile = err_profile;
    dp->version.any.fetch = err_fetch;
    dp->version.any.desc = err_desc;
    dp->version.any.instance = err_instance;
    dp->version.any.text = err_text;
}

void malformed_init(pmdaInterface *dp)
{
    malformed = 1;
    setup(dp, PMDA_INTERFACE_2);
}

void nonames_init(pmdaInterface *dp)
{
    nonames = 1;
    setup(dp, PMDA_INTERFACE_2);
}

void nulltext_init(pmdaInterface *dp)
{
    nulltext = 1;
    setup(dp, PMDA_INTERFACE_2);
}
