/*
 * pminfo - display information about performance metrics.
 *
 *   pminfo [options] [metricname | pmid | indom]...
 *
 * Options, usage text, output and exit status as PCP's pminfo, through the
 * public PMAPI only (it builds against PCP's own libpcp as well), and
 * toolsupport/outfile.c for standard output, whose write errors are
 * reported (PCP's pminfo loses them and exits 0).  The
 * standard options are pmGetOptions', so they can come from the environment
 * too ($PCP_HOST, $PCP_NAMESPACE, ...).  Names come from a namespace file
 * (-n / -N) or the metrics source; descriptors
 * (-d, -I), one-line and full help (-t, -T), values (-f, -F) and checks
 * (-v) from a local context (-L, with -K to choose its agents) or a PMCD
 * host (-h; "local:" when no source is named but one is needed).
 *
 * Operand rules (PCP's): an operand starting with a digit is a PMID
 * (sscanf "%u.%u.%u") standing for its last-defined name, or an InDom
 * ("%u.%u"), reported at once; anything else names a metric or a subtree.
 * Names are reported in batches of -b N (default 128): one pmLookupName and
 * one pmFetch per batch, then per metric its descriptor, texts and values.
 * -F re-fetches a metric whose agent wants explicit instances
 * (PM_ERR_PROFILE) with every instance of its domain named in the profile.
 * Instance names for values come from pmGetInDom, the last domain kept.
 *
 * -l merges each metric's labels, lowest precedence first: the context's
 * (or, when there are none, {"hostname":HOST}, as PCP's pminfo makes up),
 * the domain's, the instance domain's, the cluster's and the item's; then
 * per instance the same with the instance's labels on top.  An InDom
 * operand gets the context's, the domain's and its own.
 *
 * From an archive (-a, -O, -z, -Z) metrics are reported one at a time,
 * as PCP's pminfo does: each fetched forward from the origin (-O, else the
 * archive's start) to its first value, which also places the context for
 * -l; the label sets of each level are held from one metric to the next
 * (see held_level), which from an archive decides the labels shown.
 *
 * -x unpacks each value of an event type after it, record by record.
 *
 * Not here: series (-s) and containers: they are
 * refused with a message.  Live, timezones (-z, -Z) are taken and checked,
 * but no report pminfo makes prints a time.
 */
#include <pcp/pmapi.h>

#include "outfile.h"

#include <ctype.h>

static pmLongOptions longopts[] = {
    PMAPI_OPTIONS_HEADER("General options"),
    PMOPT_ARCHIVE,
    PMOPT_DEBUG,
    PMOPT_HOST,
    PMOPT_CONTAINER,
    PMOPT_LOCALPMDA,
    PMOPT_SPECLOCAL,
    PMOPT_NAMESPACE,
    PMOPT_UNIQNAMES,
    PMOPT_ORIGIN,
    PMOPT_TIMEZONE,
    PMOPT_HOSTZONE,
    PMOPT_VERSION,
    PMOPT_HELP,
    PMAPI_OPTIONS_HEADER("Protocol options"),
    {"batch", 1, 'b', "N", "fetch N metrics at a time for -f and -v [128]"},
    {"desc", 0, 'd', 0, "get and print metric description"},
    {"fetch", 0, 'f', 0, "fetch and print values for all instances"},
    {"fetchall", 0, 'F', 0, "fetch and print values for non-enumerable indoms"},
    {"fullindom", 0, 'I', 0, "print InDom in verbose format"},
    {"labels", 0, 'l', 0, "print InDom, metric and instance labels"},
    {"pmid", 0, 'm', 0, "print PMID"},
    {"fullpmid", 0, 'M', 0, "print PMID in verbose format"},
    {"series", 0, 's', 0, "print source, metric, instance series identifiers"},
    {"oneline", 0, 't', 0, "get and display (terse) oneline text"},
    {"helptext", 0, 'T', 0, "get and display (verbose) help text"},
    PMAPI_OPTIONS_HEADER("Metrics options"),
    {PMLONGOPT_DERIVED, 1, 'c', "FILE", "load derived metric definitions from FILE(s)"},
    {"events", 0, 'x', 0, "unpack and report on any fetched event records"},
    {"verify", 0, 'v', 0, "verify mode, be quiet and only report errors"},
    PMAPI_OPTIONS_END,
};

static int override(int c, pmOptions *o);

static pmOptions opts = {
    .short_options = "a:D:h:K:Ln:N:O:Z:zV?b:dfFIlmMstTc:xv",
    .long_options = longopts,
    .short_usage = "[options] [metricname | pmid | indom]...",
    .override = override,
    .flags = PM_OPTFLAG_STDOUT_TZ,
};

static struct {
    int pmid, fullpmid;  /* -m, -M */
    int desc, fullindom; /* -d, -I */
    int fetch, force;    /* -f, -F */
    int oneline, help;   /* -t, -T */
    int labels;          /* -l */
    int verify;          /* -v */
    int events;          /* -x */
    int batch;           /* -b */
    int status;          /* exit status */
    char **names;        /* the batch being collected */
    pmID *pmids;         /* and their PMIDs */
    int nnames, room;    /* names in the batch, slots allocated */
} run = {.batch = 128};

/* The instances of the last instance domain values were printed for. */
static struct {
    pmInDom indom;
    int n;
    int *inst;
    char **name;
} known = {PM_INDOM_NULL, 0, NULL, NULL};

static void nomem(void)
{
    fprintf(stderr, "%s: out of memory\n", pmGetProgname());
    exit(1);
}

/* " [text]" or, when the text goes on its own line, "\n    [text]"; an error on the line. */
static void print_oneline(int sts, char *text, int own_line)
{
    if (sts < 0) {
        printf(" One-line Help: Error: %s", pmErrStr(sts));
        return;
    }
    printf(own_line ? "\n    [%s]" : " [%s]", text != NULL ? text : "");
    free(text);
}

/* "Help:" and the text without its trailing newlines. */
static void print_help(int sts, char *text)
{
    size_t len;

    if (sts < 0) {
        printf("Full Help: Error: %s\n", pmErrStr(sts));
        return;
    }
    len = text != NULL ? strlen(text) : 0;
    while (len > 0 && text[len - 1] == '\n')
        len--;
    if (len == 0)
        printf("Help: <empty entry>\n");
    else
        printf("Help:\n%.*s\n", (int)len, text);
    free(text);
}

static void print_indom(pmInDom indom)
{
    if (run.fullindom)
        printf("%s = %u = 0x%x", pmInDomStr(indom), indom, indom);
    else
        printf("%s 0x%x", pmInDomStr(indom), indom);
}

/* The two descriptor lines; pminfo's words, close to but not pmPrintDesc's. */
static void print_desc(const pmDesc *desc)
{
    static const char *const types[] = {
        "32-bit int",
        "32-bit unsigned int",
        "64-bit int",
        "64-bit unsigned int",
        "float",
        "double",
        "string",
        "aggregate",
        "static aggregate",
        "event record array",
        "highres event record array",
    };
    const char *units = pmUnitsStr(&desc->units);

    printf("    Data Type: ");
    if (desc->type >= 0 && desc->type < (int)(sizeof(types) / sizeof(types[0])))
        printf("%s", types[desc->type]);
    else if (desc->type == PM_TYPE_NOSUPPORT)
        printf("Not Supported");
    else
        printf("??? (%d)", desc->type);
    printf("  InDom: ");
    print_indom(desc->indom);
    printf("\n    Semantics: ");
    if (desc->sem == PM_SEM_COUNTER)
        printf("counter");
    else if (desc->sem == PM_SEM_INSTANT)
        printf("instant");
    else if (desc->sem == PM_SEM_DISCRETE)
        printf("discrete");
    else
        printf("??? (%d)", desc->sem);
    printf("  Units: %s\n", units[0] != '\0' ? units : "none");
}

/* An InDom operand: reported at once, with its texts. */
static void know_instances(pmInDom indom);

/* A metric's label sets, one level each (its first set only); count[i]
 * is how many to free at sets[i], 0 for those held below. */
typedef struct {
    pmLabelSet *sets[6];
    int count[6];
    int n;
} levels;

/*
 * The levels PCP's pminfo keeps from one metric to the next: the
 * context's (asked for once), and the domain's, the instance domain's and
 * the cluster's, and the instances' labels, until a metric of another
 * one comes; item labels are asked for each metric.  From an archive, whose labels change with
 * time, this decides which are shown.  When the context has no labels (PCP's local contexts have
 * none without $PCP_SYSCONF_DIR/labels) the host's name stands in.
 */
enum { HELD_CONTEXT, HELD_DOMAIN, HELD_INDOM, HELD_CLUSTER, HELD_INSTANCES, HELD_N };

typedef struct {
    int asked;
    unsigned int key;
    pmLabelSet *sets;
    int n;
} held_sets;

static struct {
    held_sets level[HELD_N];
    pmLabelSet host;
    pmLabel host_label;
    char host_json[MAXHOSTNAMELEN + 16];
} held;

static int ask_labels(int which, unsigned int key, pmLabelSet **sets)
{
    switch (which) {
    case HELD_CONTEXT:
        return pmGetContextLabels(sets);
    case HELD_DOMAIN:
        return pmGetDomainLabels((int)key, sets);
    case HELD_INDOM:
        return pmGetInDomLabels((pmInDom)key, sets);
    case HELD_INSTANCES:
        return pmGetInstancesLabels((pmInDom)key, sets);
    default:
        return pmGetClusterLabels((pmID)key, sets);
    }
}

/* {"hostname":HOST} for a context without labels. */
static void host_stand_in(void)
{
    char host[MAXHOSTNAMELEN];
    int len;

    pmGetContextHostName_r(pmWhichContext(), host, (int)sizeof(host));
    len = pmsprintf(held.host_json, sizeof(held.host_json), "{\"hostname\":\"%s\"}", host);
    held.host_label = (pmLabel){.name = 2,
                                .namelen = 8,
                                .flags = PM_LABEL_CONTEXT,
                                .value = 12,
                                .valuelen = (unsigned)len - 13};
    held.host = (pmLabelSet){.inst = PM_IN_NULL,
                             .nlabels = 1,
                             .json = held.host_json,
                             .jsonlen = (unsigned)len,
                             .labels = &held.host_label};
}

/* The sets of level which (key: its domain, InDom or cluster), asked for
 * (of ident: the domain, InDom or PMID) unless held. */
static held_sets *held_get(int which, unsigned int key, unsigned int ident)
{
    held_sets *h = &held.level[which];

    if (!h->asked || h->key != key) {
        if (h->n > 0)
            pmFreeLabelSets(h->sets, h->n);
        h->sets = NULL;
        h->n = ask_labels(which, ident, &h->sets);
        h->asked = 1;
        h->key = key;
        if (which == HELD_CONTEXT && h->n <= 0)
            host_stand_in();
    }
    return h;
}

/* Level which added to l (held_get's arguments). */
static void held_level(levels *l, int which, unsigned int key, unsigned int ident)
{
    held_sets *h = held_get(which, key, ident);

    if (h->n > 0)
        l->sets[l->n] = h->sets;
    else if (which == HELD_CONTEXT)
        l->sets[l->n] = &held.host;
    else
        return;
    l->count[l->n++] = 0;
}

static void free_held(void)
{
    for (int i = 0; i < HELD_N; i++)
        if (held.level[i].n > 0)
            pmFreeLabelSets(held.level[i].sets, held.level[i].n);
}

/* The levels of a metric pmid, or of an instance domain alone (pmid
 * PM_ID_NULL: no cluster and item). */
static void gather_labels(unsigned int domain, pmInDom indom, pmID pmid, levels *l)
{
    int sts;

    held_level(l, HELD_CONTEXT, 0, 0);
    held_level(l, HELD_DOMAIN, domain, domain);
    if (indom != PM_INDOM_NULL)
        held_level(l, HELD_INDOM, indom, indom);
    if (pmid == PM_ID_NULL)
        return;
    held_level(l, HELD_CLUSTER, pmID_build(pmID_domain(pmid), pmID_cluster(pmid), 0), pmid);
    if ((sts = pmGetItemLabels(pmid, &l->sets[l->n])) > 0)
        l->count[l->n++] = sts;
}

static void free_labels(levels *l)
{
    for (int i = 0; i < l->n; i++)
        if (l->count[i] > 0)
            pmFreeLabelSets(l->sets[i], l->count[i]);
    l->n = 0;
}

/* The levels' labels merged, and those of one more set on top, after prefix. */
static void print_labels(const levels *l, pmLabelSet *top, const char *prefix)
{
    pmLabelSet *all[7];
    char buf[PM_MAXLABELJSONLEN];
    int n = 0;

    for (int i = 0; i < l->n; i++)
        all[n++] = l->sets[i];
    if (top != NULL)
        all[n++] = top;
    if (n > 0 && pmMergeLabelSets(all, n, buf, sizeof(buf), NULL, NULL) > 0)
        printf("%s%s\n", prefix, buf);
}

/* Does the report fetch values?  -l does too, as PCP's pminfo does: an
 * agent that refreshes its instances as it fetches (sample's scrambled
 * bins, zfs) then labels those; from an archive the fetch places the
 * context, so the instance domains -l shows are those of the time of the
 * metric's first value. */
static int fetches(void)
{
    return run.fetch || run.verify || run.labels;
}

static const char *instance_name(pmInDom indom, int inst);

static void print_instance_labels(const levels *l, pmLabelSet *top, int inst, const char *name)
{
    char prefix[64 + MAXPATHLEN];

    pmsprintf(prefix, sizeof(prefix), "    inst [%d or \"%s\"] labels ", inst, name);
    print_labels(l, top, prefix);
}

/* Instances with their labels on top of the levels', as PCP's pminfo
 * shows them: those indom has label sets for, named from the instance
 * domain ("DISAPPEARED" when it does not hold them), or, when it has none,
 * every instance of the domain. */
static void report_instance_labels(pmInDom indom, const levels *l)
{
    held_sets *h;
    pmLabelSet *sets;
    int nsets;

    /* the instances first, as PCP's pminfo asks: an agent that refreshes
     * its instances when asked for them (proc) then labels every one */
    know_instances(indom);
    h = held_get(HELD_INSTANCES, indom, indom);
    sets = h->sets;
    nsets = h->n;

    for (int i = 0; i < nsets; i++) {
        const char *name = instance_name(indom, (int)sets[i].inst);
        print_instance_labels(l, &sets[i], (int)sets[i].inst, name != NULL ? name : "DISAPPEARED");
    }
    if (nsets <= 0) {
        for (int i = 0; i < known.n; i++)
            print_instance_labels(l, NULL, known.inst[i],
                                  known.name[i] != NULL ? known.name[i] : "");
    }
}

static void report_indom(pmInDom indom)
{
    char *text = NULL;

    if (run.verify)
        return;
    printf("\nInDom: ");
    print_indom(indom);
    if (run.oneline) {
        int sts = pmLookupInDomText(indom, PM_TEXT_ONELINE, &text);
        print_oneline(sts, text, run.fullindom);
    }
    putchar('\n');
    if (run.labels) {
        levels labels = {0};
        gather_labels(pmInDom_domain(indom), indom, PM_ID_NULL, &labels);
        print_labels(&labels, NULL, "    labels ");
        free_labels(&labels);
    }
    if (run.help) {
        int sts = pmLookupInDomText(indom, PM_TEXT_HELP, &text);
        print_help(sts, text);
    }
}

static void forget_instances(void)
{
    free(known.inst);
    free(known.name);
    known.inst = NULL;
    known.name = NULL;
    known.n = 0;
}

/* The instances of indom into known (none if they cannot be had). */
static void know_instances(pmInDom indom)
{
    if (indom == known.indom)
        return;
    forget_instances();
    known.indom = indom;
    known.n = pmGetInDom(indom, &known.inst, &known.name);
    if (known.n < 0 || known.inst == NULL || known.name == NULL)
        known.n = 0;
}

/* The name of instance inst of indom, NULL if it has none. */
static const char *instance_name(pmInDom indom, int inst)
{
    know_instances(indom);
    for (int i = 0; i < known.n; i++) {
        if (known.inst[i] == inst)
            return known.name[i] != NULL ? known.name[i] : "";
    }
    return NULL;
}

/*
 * -x: one parameter of an event record, the index-th: event.flags (first)
 * ends the record's heading, event.missed after the missed flag gives the
 * count missed, others their name and value, as PCP's pminfo prints them.
 */
static void print_param(const pmValueSet *vs, int index, int *flags)
{
    pmDesc desc;
    char *name;
    int sts;

    if (pmNameID(vs->pmid, &name) < 0) {
        printf("\tPMID: %s\n", pmIDStr(vs->pmid));
    } else {
        if (index == 0 && vs->pmid == pmID_build(511, 0, 1)) {
            *flags = vs->vlist[0].value.lval;
            printf(" flags 0x%x (%s) ---\n", (unsigned)*flags, pmEventFlagsStr(*flags));
            free(name);
            return;
        }
        if (index == 0)
            printf(" ---\n");
        if ((*flags & PM_EVENT_FLAG_MISSED) && index == 1 && vs->pmid == pmID_build(511, 0, 2)) {
            printf("        ==> %d missed event records\n", vs->vlist[0].value.lval);
            free(name);
            return;
        }
        printf("    %s (%s)\n", name, pmIDStr(vs->pmid));
        free(name);
    }
    if ((sts = pmLookupDesc(vs->pmid, &desc)) < 0) {
        printf("\tpmLookupDesc: %s\n", pmErrStr(sts));
        return;
    }
    printf("        value ");
    pmPrintValue(stdout, vs->valfmt, desc.type, &vs->vlist[0], 1);
    putchar('\n');
}

/* -x: the records of value j of vs unpacked, stamp, flags and parameters. */
static void print_events(const pmValueSet *vs, int j, int highres)
{
    void **res = NULL;
    int n = highres ? pmUnpackHighResEventRecords((pmValueSet *)vs, j, (pmHighResResult ***)&res)
                    : pmUnpackEventRecords((pmValueSet *)vs, j, (pmResult ***)&res);

    if (n < 0) {
        fprintf(stderr, "%s: %s: %s\n", pmGetProgname(),
                highres ? "pmUnpackHighResEventRecords" : "pmUnpackEventRecords", pmErrStr(n));
        return;
    }
    for (int r = 0; r < n; r++) {
        int numpmid, flags = 0;
        pmValueSet **vset;
        printf("    --- event record [%d] timestamp ", r);
        if (highres) {
            pmHighResResult *hr = res[r];
            pmPrintHighResStamp(stdout, &hr->timestamp);
            numpmid = hr->numpmid;
            vset = hr->vset;
        } else {
            pmResult *lr = res[r];
            pmPrintStamp(stdout, &lr->timestamp);
            numpmid = lr->numpmid;
            vset = lr->vset;
        }
        if (numpmid == 0) {
            printf(" ---\n\tNo parameters\n");
            continue;
        }
        for (int p = 0; p < numpmid; p++)
            print_param(vset[p], p, &flags);
    }
    if (highres)
        pmFreeHighResEventResult((pmHighResResult **)res);
    else
        pmFreeEventResult((pmResult **)res);
}

static void print_values(const pmDesc *desc, const pmValueSet *vs)
{
    for (int j = 0; j < vs->numval; j++) {
        const pmValue *v = &vs->vlist[j];
        if (desc->indom == PM_INDOM_NULL) {
            printf("    value ");
        } else {
            const char *name = instance_name(desc->indom, v->inst);
            if (name != NULL) {
                printf("    inst [%d or \"%s\"] value ", v->inst, name);
            } else if (run.force) { /* -F: no value for an instance gone */
                printf("    inst [%d \"DISAPPEARED\"]\n", v->inst);
                continue;
            } else {
                printf("pmNameIndom: indom=%s inst=%d: %s\n", pmInDomStr(desc->indom), v->inst,
                       pmErrStr(PM_ERR_INST));
                printf("    inst [%d] value ", v->inst);
            }
        }
        pmPrintValue(stdout, vs->valfmt, desc->type, v, 1);
        putchar('\n');
        if (run.events && (desc->type == PM_TYPE_EVENT || desc->type == PM_TYPE_HIGHRES_EVENT))
            print_events(vs, j, desc->type == PM_TYPE_HIGHRES_EVENT);
    }
}

/*
 * -F: fetch pmid again with every instance of its domain named in the
 * profile, then widen the profile back to all instances (the profile states
 * PCP's pminfo leaves, as its agents see them).  0 and *retry set, or an
 * error already reported (PCP's texts; the pmFetch one is pmkit's guess,
 * a local context never fails there).
 */
static int fetch_each_instance(const char *name, pmID pmid, pmInDom indom, pmResult **retry)
{
    int *inst = NULL;
    char **names = NULL;
    int n = pmGetInDom(indom, &inst, &names), sts = -1;

    if (n > 0 && inst != NULL) {
        pmDelProfile(indom, 0, NULL);
        pmAddProfile(indom, n, inst);
        if ((sts = pmFetch(1, &pmid, retry)) < 0)
            printf("%s: pmFetch: %s\n", name, pmErrStr(sts));
        pmAddProfile(indom, 0, NULL);
    } else if (n < 0) {
        printf("%s: pmGetIndom: %s\n", name, pmErrStr(n));
    } else {
        printf("%s: pmGetIndom: No instances?\n", name);
    }
    free(inst);
    free(names);
    return sts < 0 ? -1 : 0;
}

/* The value set of metric i of the batch, or NULL with *numval an error. */
static const pmValueSet *value_set(const pmResult *result, int fetched, int i, int *numval)
{
    if (fetched < 0) {
        *numval = fetched;
        return NULL;
    }
    if (result == NULL || i >= result->numpmid || result->vset[i] == NULL) {
        *numval = PM_ERR_VALUE;
        return NULL;
    }
    *numval = result->vset[i]->numval;
    return result->vset[i];
}

static void report_values(const char *name, const pmDesc *desc, const pmValueSet *vs, int numval)
{
    if (numval == 0) {
        if (run.verify)
            printf("%s: No value(s) available\n", name);
        else
            printf("No value(s) available!\n");
    } else if (numval < 0) {
        if (run.verify)
            printf("%s: %s\n", name, pmErrStr(numval));
        else
            printf("Error: %s\n", pmErrStr(numval));
    } else if (!run.verify) {
        print_values(desc, vs);
    }
}

/* Everything asked for about metric i of the batch. */
static void report_metric(int i, const pmResult *result, int fetched)
{
    const char *name = run.names[i];
    pmID pmid = run.pmids[i];
    pmResult *retry = NULL;
    const pmValueSet *vs = NULL;
    pmDesc desc = {0};
    levels labels = {0};
    char *text = NULL;
    int sts, numval = 0;

    if (fetches() && fetched < 0) { /* the batch's fetch failed: that is all */
        printf("%s: pmFetch: %s\n", name, pmErrStr(fetched));
        return;
    }
    if (run.desc || run.fetch || run.labels || run.verify) {
        if ((sts = pmLookupDesc(pmid, &desc)) < 0) {
            printf("%s: pmLookupDesc: %s\n", name, pmErrStr(sts));
            return;
        }
    }
    if (fetches())
        vs = value_set(result, fetched, i, &numval);
    if (run.verify) {
        if (desc.type == PM_TYPE_NOSUPPORT)
            printf("%s: Not Supported\n", name);
        else
            report_values(name, &desc, vs, numval);
        return;
    }
    if (run.desc || run.fetch || run.help || run.labels)
        putchar('\n');
    if (run.force && numval == PM_ERR_PROFILE) {
        if (fetch_each_instance(name, pmid, desc.indom, &retry) < 0)
            return;
        vs = value_set(retry, 0, 0, &numval);
    }
    printf("%s", name);
    if (run.fullpmid)
        printf(" PMID: %s = %u = 0x%x", pmIDStr(pmid), pmid, pmid);
    else if (run.pmid)
        printf(" PMID: %s", pmIDStr(pmid));
    if (run.oneline) {
        sts = pmLookupText(pmid, PM_TEXT_ONELINE, &text);
        print_oneline(sts, text, run.fullpmid);
    }
    putchar('\n');
    if (run.desc)
        print_desc(&desc);
    if (run.labels) {
        gather_labels(pmID_domain(pmid), desc.indom, pmid, &labels);
        print_labels(&labels, NULL, "    labels ");
    }
    if (run.help) {
        sts = pmLookupText(pmid, PM_TEXT_HELP, &text);
        print_help(sts, text);
    }
    if (run.fetch)
        report_values(name, &desc, vs, numval);
    if (run.labels && desc.indom != PM_INDOM_NULL)
        report_instance_labels(desc.indom, &labels);
    if (run.labels)
        free_labels(&labels);
    if (retry != NULL)
        pmFreeResult(retry);
}

/* Does the report need a metrics source (beyond names and PMIDs)? */
static int need_source(void)
{
    return run.desc || run.fetch || run.oneline || run.help || run.labels || run.verify;
}

static int need_pmids(void)
{
    return run.pmid || run.fullpmid || need_source();
}

/* Drops the names pmLookupName could not map.  They came from a traversal,
 * so this takes a namespace changing under us; the message is in the form
 * of the pmLookupDesc one (no PCP output to match was ever observed). */
static void lookup_names(void)
{
    int sts = pmLookupName(run.nnames, (const char **)run.names, run.pmids), kept = 0;

    for (int i = 0; i < run.nnames; i++) {
        if (run.pmids[i] == PM_ID_NULL) {
            printf("%s: pmLookupName: %s\n", run.names[i], pmErrStr(sts < 0 ? sts : PM_ERR_NAME));
            free(run.names[i]);
            continue;
        }
        run.names[kept] = run.names[i];
        run.pmids[kept++] = run.pmids[i];
    }
    run.nnames = kept;
}

static void report_batch(void)
{
    pmResult *result = NULL;
    int fetched = 0;

    if (run.nnames == 0)
        return;
    if (!need_pmids()) {
        for (int i = 0; i < run.nnames; i++)
            printf("%s\n", run.names[i]);
    } else {
        lookup_names();
        if (opts.context == PM_CONTEXT_ARCHIVE && fetches()) {
            /* an archive's metric (one a batch): from the origin forward,
             * to the first record that holds it, which is also where -l
             * finds its instances; a failure to place the context is the
             * fetch's (PCP's pmFetch gives the same error) */
            if ((fetched = pmSetMode(PM_MODE_FORW, &opts.origin, 0)) >= 0)
                fetched = pmFetch(run.nnames, run.pmids, &result);
        } else if (fetches() && run.nnames > 0) {
            fetched = pmFetch(run.nnames, run.pmids, &result);
        }
        for (int i = 0; i < run.nnames; i++)
            report_metric(i, result, fetched);
    }
    if (result != NULL)
        pmFreeResult(result);
    for (int i = 0; i < run.nnames; i++)
        free(run.names[i]);
    run.nnames = 0;
}

static void add_name(const char *name)
{
    if (run.nnames == run.room) {
        int room = run.room < 16 ? 16 : run.room * 2;
        if (room > run.batch && run.batch > 0)
            room = run.batch;
        if ((run.names = realloc(run.names, (size_t)room * sizeof(*run.names))) == NULL ||
            (run.pmids = realloc(run.pmids, (size_t)room * sizeof(*run.pmids))) == NULL)
            nomem();
        run.room = room;
    }
    if ((run.names[run.nnames] = strdup(name)) == NULL)
        nomem();
    if (++run.nnames >= run.batch)
        report_batch();
}

static void metric(const char *arg, int operands)
{
    int sts = pmTraversePMNS(arg, add_name);

    if (sts < 0) {
        if (operands)
            fprintf(stderr, "Error: %s: %s\n", arg, pmErrStr(sts));
        else
            fprintf(stderr, "Error: %s\n", pmErrStr(sts));
        run.status = 1;
    }
}

/* One operand: a PMID, an InDom, or a name. */
static void operand(const char *arg)
{
    unsigned int a, b, c;
    char *name;
    int n, sts;

    if (!isdigit((unsigned char)arg[0]) || (n = sscanf(arg, "%u.%u.%u", &a, &b, &c)) < 2) {
        metric(arg, 1);
        return;
    }
    if (n == 2) {
        report_indom(pmInDom_build(a, b));
        return;
    }
    if ((sts = pmNameID(pmID_build(a, b, c), &name)) < 0) {
        fprintf(stderr, "Error: %s: %s\n", arg, pmErrStr(sts));
        run.status = 1;
        return;
    }
    metric(name, 1);
    free(name);
}

/* -b: a number and nothing after it; stored as an int, as PCP does. */
static void batch_option(const char *arg)
{
    char *end;
    long n = strtol(arg, &end, 10);

    if (*end != '\0') {
        pmprintf("%s: -b requires numeric argument\n", pmGetProgname());
        opts.errors++;
        return;
    }
    run.batch = (int)n;
}

/* A report option; 0 if c is not one. */
static int report_option(int c)
{
    switch (c) {
    case 'd':
        run.desc = 1;
        break;
    case 'f':
        run.fetch = 1;
        break;
    case 'F':
        run.fetch = run.force = 1;
        break;
    case 'I':
        run.desc = run.fullindom = 1;
        break;
    case 'm':
        run.pmid = 1;
        break;
    case 'M':
        run.fullpmid = 1;
        break;
    case 't':
        run.oneline = 1;
        break;
    case 'T':
        run.help = 1;
        break;
    case 'l':
        run.labels = 1;
        break;
    case 'v':
        run.verify = 1;
        break;
    default:
        return 0;
    }
    return 1;
}

/* pminfo's own letters that are standard ones too (-s series, -t and -T
 * texts), and --container, come back to pminfo; pmGetOptions takes the
 * other standard options. */
static int override(int c, pmOptions *o)
{
    if (c == 's' || c == 't' || c == 'T')
        return 1;
    return c == 0 && o->index >= 0 && o->long_options[o->index].long_opt != NULL &&
           strcmp(o->long_options[o->index].long_opt, PMLONGOPT_CONTAINER) == 0;
}

/* -c FILE or --derived FILE (pminfo's own letter): derived metrics loaded
 * at once, a failure reported and not fatal, as Debian's pminfo does. */
static void derived_option(const char *path)
{
    int sts = pmLoadDerivedConfig(path);

    if (sts < 0)
        fprintf(stderr, "%s: derived configuration(s) error: %s\n", pmGetProgname(), pmErrStr(sts));
}

/* Options, from the environment too (pmGetOptions); exits for -V, usage
 * errors, namespace load failures and what this version does not have. */
static void options(int argc, char **argv)
{
    int c, unsupported = 0;

    while ((c = pmGetOptions(argc, argv, &opts)) != -1) {
        if (report_option(c))
            continue;
        if (c == 'b')
            batch_option(opts.optarg);
        else if (c == 'c')
            derived_option(opts.optarg);
        else if (c == 'x')
            run.fetch = run.events = 1;
        else if (c == 's' || c == 0)
            unsupported = c != 0 ? c : 1;
        else
            opts.errors++;
    }
    if (opts.errors > 0 || (opts.flags & PM_OPTFLAG_EXIT)) {
        /* the messages; the usage too, unless -V or a runtime error */
        pmUsageMessage(&opts);
        exit(opts.flags & PM_OPTFLAG_EXIT ? 0 : 1);
    }
    if (unsupported) {
        if (unsupported == 1)
            fprintf(stderr, "%s: --container is not supported by this pmkit version\n",
                    pmGetProgname());
        else
            fprintf(stderr,
                    "%s: -%c is not supported by this pmkit version (series "
                    "identifiers are to come)\n",
                    pmGetProgname(), unsupported);
        exit(1);
    }
}

/* A context when the source was named or the report needs one. */
static void open_context(void)
{
    const char *host;
    int sts;

    if (opts.context == PM_CONTEXT_ARCHIVE) {
        if ((sts = pmNewContext(PM_CONTEXT_ARCHIVE, opts.archives[0])) < 0) {
            fprintf(stderr, "%s: Cannot open archive \"%s\": %s\n", pmGetProgname(),
                    opts.archives[0], pmErrStr(sts));
            exit(1);
        }
        /* the timezone (-z, -Z) and the window (-S, -T, -A, -O), whose
         * origin the fetches start from */
        if (pmGetContextOptions(sts, &opts) != 0) {
            pmflush();
            exit(1);
        }
    } else if (opts.context == PM_CONTEXT_LOCAL) {
        if ((sts = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
            fprintf(stderr, "%s: Cannot make standalone connection on localhost: %s\n",
                    pmGetProgname(), pmErrStr(sts));
            exit(1);
        }
    } else {
        if (opts.nhosts == 0 && opts.nsflag && !need_source())
            return;
        host = opts.nhosts > 0 ? opts.hosts[0] : "local:";
        if ((sts = pmNewContext(PM_CONTEXT_HOST, host)) < 0) {
            fprintf(stderr, "%s: Cannot connect to PMCD on host \"%s\": %s\n", pmGetProgname(),
                    host, pmErrStr(sts));
            exit(1);
        }
    }
}

int main(int argc, char **argv)
{
    outfile_watch_stdout(); /* a failed write is reported at exit, status 1 */
    options(argc, argv);    /* pmGetOptions sets the program name */
    if (opts.context == PM_CONTEXT_ARCHIVE)
        run.batch = 1; /* PCP's pminfo reports an archive's metrics one by one */
    if (run.batch < 0) {
        fprintf(stderr, "%s: namelist malloc: %s\n", pmGetProgname(), pmErrStr(-ENOMEM));
        return 1;
    }
    open_context();
    if (opts.optind >= argc)
        metric("", 0);
    for (int i = opts.optind; i < argc; i++)
        operand(argv[i]);
    report_batch();
    forget_instances();
    free_held();
    free(run.names);
    free(run.pmids);
    if (outfile_stdout_close() < 0)
        run.status = 1;
    return run.status;
}
