/*
 * simple.c - the "simple" example agent (domain 253), built as the DSO
 * pmda_simple.so (entry point simple_init) and, with main.c, as the daemon
 * pmdasimple.
 *
 * Five metrics, described in tables handed to pmdaInit so that libpcp_pmda
 * answers descriptor, instance, help text and fetch requests:
 *   simple.numfetch   253.0.0  U32     fetches answered so far; storable
 *   simple.color      253.0.1  32      red/green/blue saw-tooth counters
 *                                      (0..255, each fetch adds one); storable
 *   simple.time.user  253.1.2  DOUBLE  this process's user CPU seconds
 *   simple.time.sys   253.1.3  DOUBLE  this process's system CPU seconds
 *   simple.now        253.2.4  U32     second, minute and hour of the local
 *                                      time, over the instance domain 253.1
 *                                      that $PCP_PMDAS_DIR/simple/simple.conf
 *                                      defines
 * The colours are a fixed instance table (253.0); 253.1 lives in a pmdaCache
 * and is rebuilt whenever simple.conf is seen to have changed (checked on
 * every fetch and instance request), so instance numbers stay stable for the
 * life of the process.  The agent also answers label requests: a domain
 * label, two labels per instance domain and one per simple.now instance.
 * PCP (pmcd, or its local context) asks for them; pmkit does not yet: its
 * libpcp never calls an agent's label method, and its pmdaLabel does not
 * call instance label callbacks.
 *
 * Deliberately not done: persistence of stored values, more than one
 * configuration line (the rest of simple.conf is ignored), and any metric
 * outside PCP's simple agent.
 */
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "simple.h"

/* Instance domain serials (pmdaInit turns them into pmInDoms). */
enum { COLOUR_INDOM, NOW_INDOM, N_INDOMS };

/* The colours' instance numbers, 0 to N_COLOURS - 1. */
enum { RED, GREEN, BLUE, N_COLOURS };

/* Metric item numbers, also the metric's index in the table below. */
enum { M_NUMFETCH, M_COLOUR, M_USER, M_SYS, M_NOW, N_METRICS };

static pmdaInstid colours[N_COLOURS] = {
    {RED, "red"},
    {GREEN, "green"},
    {BLUE, "blue"},
};

static pmdaIndom indoms[N_INDOMS] = {
    [COLOUR_INDOM] = {COLOUR_INDOM, N_COLOURS, colours},
    [NOW_INDOM] = {NOW_INDOM, 0, NULL}, /* instances come from the cache */
};

static pmdaMetric metrics[N_METRICS] = {
    [M_NUMFETCH] = {NULL,
                    {PMDA_PMID(0, M_NUMFETCH), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT,
                     PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    [M_COLOUR] = {NULL,
                  {PMDA_PMID(0, M_COLOUR), PM_TYPE_32, COLOUR_INDOM, PM_SEM_INSTANT,
                   PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    [M_USER] = {NULL,
                {PMDA_PMID(1, M_USER), PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER,
                 PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0)}},
    [M_SYS] = {NULL,
               {PMDA_PMID(1, M_SYS), PM_TYPE_DOUBLE, PM_INDOM_NULL, PM_SEM_COUNTER,
                PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0)}},
    [M_NOW] = {NULL,
               {PMDA_PMID(2, M_NOW), PM_TYPE_U32, NOW_INDOM, PM_SEM_INSTANT,
                PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};

/* One candidate instance of simple.now: a component of the local time. */
typedef struct slice {
    char *name; /* its instance name, as written in simple.conf */
    int value;  /* the component at the current fetch */
} slice;

static slice slices[] = {{"sec", 0}, {"min", 0}, {"hour", 0}};
#define N_SLICES (sizeof slices / sizeof slices[0])

/* Everything the agent remembers between requests. */
static struct {
    unsigned int numfetch; /* fetches answered, or what was last stored */
    int colour[N_COLOURS]; /* last value handed out for red, green, blue */
    int cpu_stale;         /* CPU times not yet sampled in this fetch */
    double cpu_user;       /* user CPU seconds at the last sample */
    double cpu_sys;        /* system CPU seconds at the last sample */
    int conf_known;        /* conf_id describes the file last read */
    struct stat conf_id;   /* simple.conf as it was when last read */
    int conf_errno;        /* errno of the last failed stat, reported once */
} agent = {.colour = {[RED] = 0, [GREEN] = 100, [BLUE] = 200}};

static char agent_name[] = "simple DSO";
static char help_path[MAXPATHLEN];

/* Writes $PCP_PMDAS_DIR/simple/FILE into buf; false if it does not fit. */
int simple_path(char *buf, size_t len, const char *file)
{
    int sep = pmPathSeparator();
    int n = snprintf(buf, len, "%s%csimple%c%s", pmGetConfig("PCP_PMDAS_DIR"), sep, sep, file);
    return n >= 0 && (size_t)n < len;
}

/* The metric a PMID names (any domain), or -1. */
static int metric_index(pmID pmid)
{
    unsigned int item = pmID_item(pmid);

    if (item >= N_METRICS || pmID_cluster(pmid) != pmID_cluster(metrics[item].m_desc.pmid))
        return -1;
    return (int)item;
}

static pmInDom now_indom(void)
{
    return indoms[NOW_INDOM].it_indom;
}

/* ---------------------------------------------------------------------
 * simple.now's instance domain and simple.conf.
 */

/* Adds the instance named by one simple.conf word; unknown words are
 * reported and skipped.  Returns a cache error, else 0. */
static int now_add(const char *word, const char *path)
{
    for (size_t i = 0; i < N_SLICES; i++) {
        if (strcmp(word, slices[i].name) != 0)
            continue;
        int sts = pmdaCacheStore(now_indom(), PMDA_CACHE_ADD, word, &slices[i]);
        if (sts < 0)
            pmNotifyErr(LOG_ERR, "%s: cannot add instance \"%s\": %s", path, word, pmErrStr(sts));
        return sts < 0 ? sts : 0;
    }
    pmNotifyErr(LOG_WARNING, "%s: \"%s\" is not sec, min or hour; skipped", path, word);
    return 0;
}

/* simple.conf: the first line is a comma-separated list of sec, min and
 * hour; empty words are skipped, nothing is trimmed. */
static void now_parse(char *line, const char *path)
{
    line[strcspn(line, "\n")] = '\0';
    for (char *word = line; *word != '\0';) {
        size_t len = strcspn(word, ",");
        char *next = word[len] == ',' ? word + len + 1 : word + len;
        word[len] = '\0';
        if (len > 0 && now_add(word, path) < 0)
            return;
        word = next;
    }
}

/* Marks every instance inactive (ids are kept for when they come back). */
static void now_clear(void)
{
    int sts = pmdaCacheOp(now_indom(), PMDA_CACHE_INACTIVE);

    if (sts < 0)
        pmNotifyErr(LOG_ERR, "simple: cannot reset instance domain %s: %s", pmInDomStr(now_indom()),
                    pmErrStr(sts));
}

static void now_load(const char *path)
{
    FILE *f = fopen(path, "r");
    char *line = NULL;
    size_t cap = 0;

    if (f == NULL) {
        pmNotifyErr(LOG_ERR, "%s: cannot open: %s", path, pmErrStr(-oserror()));
        return;
    }
    if (getline(&line, &cap, f) < 0)
        pmNotifyErr(LOG_ERR, "%s: no configuration line", path);
    else
        now_parse(line, path);
    free(line);
    fclose(f);
    if (pmdaCacheOp(now_indom(), PMDA_CACHE_SIZE_ACTIVE) < 1)
        pmNotifyErr(LOG_WARNING, "%s: simple.now has no instances", path);
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
           a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec;
}

/* Rebuilds simple.now's instances if simple.conf changed since it was last
 * read; a missing file empties the instance domain. */
void simple_now_check(void)
{
    char path[MAXPATHLEN];
    struct stat st;
    int err = 0;

    if (!simple_path(path, sizeof path, "simple.conf"))
        err = ENAMETOOLONG;
    else if (stat(path, &st) < 0)
        err = oserror();
    if (err != 0) {
        if (err != agent.conf_errno)
            pmNotifyErr(LOG_ERR, "%s: %s", path, pmErrStr(-err));
        agent.conf_errno = err;
        agent.conf_known = 0;
        now_clear();
        return;
    }
    agent.conf_errno = 0;
    if (agent.conf_known && same_file(&st, &agent.conf_id))
        return;
    now_clear();
    now_load(path);
    agent.conf_id = st;
    agent.conf_known = 1;
}

static void now_refresh(void)
{
    time_t now = time(NULL);
    struct tm tm;

    if (localtime_r(&now, &tm) == NULL)
        return;
    slices[0].value = tm.tm_sec;
    slices[1].value = tm.tm_min;
    slices[2].value = tm.tm_hour;
}

/* ---------------------------------------------------------------------
 * Values.
 */

static void cpu_sample(void)
{
    struct tms t;
    double hz = (double)sysconf(_SC_CLK_TCK);

    if (!agent.cpu_stale)
        return;
    agent.cpu_stale = 0;
    if (times(&t) == (clock_t)-1 || hz <= 0) {
        agent.cpu_user = agent.cpu_sys = 0.0;
        return;
    }
    agent.cpu_user = (double)t.tms_utime / hz;
    agent.cpu_sys = (double)t.tms_stime / hz;
}

/* The next value of a colour's saw-tooth. */
static int colour_next(unsigned int inst, pmAtomValue *atom)
{
    if (inst >= N_COLOURS)
        return PM_ERR_INST;
    agent.colour[inst] = (agent.colour[inst] + 1) % 256;
    atom->l = agent.colour[inst];
    return PMDA_FETCH_STATIC;
}

static int now_value(unsigned int inst, pmAtomValue *atom)
{
    void *priv = NULL;
    int sts = pmdaCacheLookup(now_indom(), (int)inst, NULL, &priv);

    if (sts < 0)
        pmNotifyErr(LOG_ERR, "simple.now: no instance %u: %s", inst, pmErrStr(sts));
    if (sts != PMDA_CACHE_ACTIVE || priv == NULL)
        return PM_ERR_INST;
    atom->ul = (unsigned int)((slice *)priv)->value;
    return PMDA_FETCH_STATIC;
}

/* pmdaFetch's callback: one value of one metric. */
static int fetch_value(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
    int m = metric_index(mdesc->m_desc.pmid);

    if (m < 0)
        return PM_ERR_PMID;
    if ((mdesc->m_desc.indom == PM_INDOM_NULL) != (inst == PM_IN_NULL))
        return PM_ERR_INST;
    switch (m) {
    case M_NUMFETCH:
        atom->ul = agent.numfetch;
        break;
    case M_COLOUR:
        return colour_next(inst, atom);
    case M_USER:
    case M_SYS:
        cpu_sample();
        atom->d = m == M_USER ? agent.cpu_user : agent.cpu_sys;
        break;
    default:
        return now_value(inst, atom);
    }
    return PMDA_FETCH_STATIC;
}

/* Every fetch counts, sees the current simple.conf and the current time. */
static int simple_fetch(int numpmid, pmID *pmids, pmResult **resp, pmdaExt *pmda)
{
    agent.numfetch++;
    agent.cpu_stale = 1;
    simple_now_check();
    now_refresh();
    return pmdaFetch(numpmid, pmids, resp, pmda);
}

static int simple_instance(pmInDom indom, int inst, char *name, pmInResult **resp, pmdaExt *pmda)
{
    simple_now_check();
    return pmdaInstance(indom, inst, name, resp, pmda);
}

/* ---------------------------------------------------------------------
 * Stores.
 */

/* The value of a 32-bit store, or PM_ERR_BADSTORE when there is none. */
static int store_value(const pmValueSet *vs, int i, int *val)
{
    if (vs->numval <= i || vs->valfmt != PM_VAL_INSITU)
        return PM_ERR_BADSTORE;
    *val = vs->vlist[i].value.lval;
    return 0;
}

/* simple.numfetch takes any non-negative value; a negative one resets the
 * count to 0 and fails. */
static int store_numfetch(const pmValueSet *vs)
{
    int val;
    int sts = store_value(vs, 0, &val);

    if (sts < 0)
        return sts;
    if (val < 0) {
        agent.numfetch = 0;
        return PM_ERR_BADSTORE;
    }
    agent.numfetch = (unsigned int)val;
    return 0;
}

/* simple.color: each value goes to its instance, clamped to 0..255 (a
 * clamped value is still stored, and fails); the first failure ends it. */
static int store_colour(const pmValueSet *vs)
{
    int sts = 0;

    for (int i = 0; i < vs->numval && sts == 0; i++) {
        int val;
        unsigned int inst = (unsigned int)vs->vlist[i].inst;

        if ((sts = store_value(vs, i, &val)) < 0)
            break;
        if (val < 0 || val > 255) {
            val = val < 0 ? 0 : 255;
            sts = PM_ERR_BADSTORE;
        }
        if (inst < N_COLOURS)
            agent.colour[inst] = val;
        else
            sts = PM_ERR_INST;
    }
    return sts;
}

/* pmStore: numfetch and color are writable, the other metrics refuse.
 * The value sets are taken in order; a refused or unknown metric ends the
 * request, while after a bad value the walk goes on, applying later
 * numfetch values but no more colours (PCP's agent does the same). */
static int simple_store(pmResult *result, pmdaExt *pmda)
{
    int sts = 0;

    (void)pmda;
    for (int i = 0; i < result->numpmid; i++) {
        const pmValueSet *vs = result->vset[i];
        int err;

        switch (metric_index(vs->pmid)) {
        case M_NUMFETCH:
            if ((err = store_numfetch(vs)) < 0)
                sts = err;
            break;
        case M_COLOUR:
            if (sts == 0)
                sts = store_colour(vs);
            break;
        case M_USER:
        case M_SYS:
        case M_NOW:
            return PM_ERR_PERMISSION;
        default:
            if (pmID_cluster(vs->pmid) != 0)
                return PM_ERR_PMID;
            sts = PM_ERR_PMID;
            break;
        }
    }
    return sts;
}

/* ---------------------------------------------------------------------
 * Labels.
 */

static int simple_label(int ident, int type, pmLabelSet **lpp, pmdaExt *pmda)
{
    int sts = 0;

    if (type == PM_LABEL_DOMAIN) {
        sts = pmdaAddLabels(lpp, "{\"role\":\"testing\"}");
    } else if (type == PM_LABEL_INDOM && pmInDom_serial((pmInDom)ident) == COLOUR_INDOM) {
        if ((sts = pmdaAddLabels(lpp, "{\"indom_name\":\"color\"}")) >= 0)
            sts = pmdaAddLabels(lpp, "{\"model\":\"RGB\"}");
    } else if (type == PM_LABEL_INDOM && pmInDom_serial((pmInDom)ident) == NOW_INDOM) {
        if ((sts = pmdaAddLabels(lpp, "{\"indom_name\":\"time\"}")) >= 0)
            sts = pmdaAddLabels(lpp, "{\"unitsystem\":\"SI\"}");
    }
    if (sts < 0)
        return sts;
    return pmdaLabel(ident, type, lpp, pmda);
}

/* Instance labels: each simple.now instance says which unit it counts. */
static int instance_label(pmInDom indom, unsigned int inst, pmLabelSet **lpp)
{
    void *priv = NULL;

    if (pmInDom_serial(indom) != NOW_INDOM ||
        pmdaCacheLookup(indom, (int)inst, NULL, &priv) != PMDA_CACHE_ACTIVE || priv == NULL)
        return 0;
    return pmdaAddLabels(lpp, "{\"units\":\"%s\"}", ((slice *)priv)->name);
}

/* ---------------------------------------------------------------------
 * Set-up.
 */

void simple_setup(pmdaInterface *dp)
{
    if (dp->status != 0)
        return;
    dp->version.any.fetch = simple_fetch;
    dp->version.any.instance = simple_instance;
    dp->version.any.store = simple_store;
    dp->version.seven.label = simple_label;
    pmdaSetFetchCallBack(dp, fetch_value);
    pmdaSetLabelCallBack(dp, instance_label);
    pmdaInit(dp, indoms, N_INDOMS, metrics, N_METRICS);
}

/* The DSO entry point named in pmcd.conf or given to pmSpecLocalPMDA. */
void __PMDA_INIT_CALL simple_init(pmdaInterface *dp)
{
    if (!simple_path(help_path, sizeof help_path, "help")) {
        pmNotifyErr(LOG_ERR, "simple: $PCP_PMDAS_DIR is too long");
        help_path[0] = '\0';
    }
    pmdaDSO(dp, PMDA_INTERFACE_7, agent_name, help_path[0] ? help_path : NULL);
    simple_setup(dp);
}
