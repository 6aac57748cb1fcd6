/*
 * probe_host.c - exercise a host context from one source built twice,
 * against pmkit and against Debian's libpcp, and print every answer:
 * connecting (and failing to), names (pmcd's and the derived metrics'),
 * descriptors, help text, instance domains, profiles, fetch, store,
 * labels, a fetch group, and the same names once a namespace is loaded
 * explicitly.
 *
 *   probe_host SPEC DEADSPEC NOSOCKET PMNS
 *
 * SPEC names the pmcd to use (host:port), DEADSPEC a port nobody listens
 * on, NOSOCKET a unix socket path that does not exist, PMNS a namespace
 * file for pmLoadNameSpace.  pmcd serves PCP's simple (253) and trivial
 * (250), and pmkit's simple as "psimple" (254); host_diff.sh runs both
 * builds against the same pmcd and compares.  Values that change with
 * time are not printed; simple.numfetch is stored first so it counts the
 * same in both runs.
 */
#include <pcp/pmapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *err(int sts)
{
    static char buf[PM_MAXERRMSGLEN];

    return sts < 0 ? pmErrStr_r(sts, buf, sizeof(buf)) : "ok";
}

static pmID id_of(const char *name)
{
    pmID id = PM_ID_NULL;

    pmLookupName(1, &name, &id);
    return id;
}

static void lookup(int n, const char **names)
{
    pmID ids[8];
    int sts = pmLookupName(n, names, ids);

    printf("lookup %d [%s%s]: %d %s:", n, names[0] ? names[0] : "(null)", n > 1 ? ",..." : "", sts,
           err(sts));
    for (int i = 0; i < n; i++)
        printf(" %s", pmIDStr(ids[i]));
    printf("\n");
}

/* 600 names of about 200 bytes, every third a real one: more than one
 * request's worth (PCP's library splits them at 63 KiB, and so does
 * pmkit's).  Whether it found any, how many PMIDs it filled in, the real
 * names' PMIDs, and how many came back PM_ID_NULL.  Not the count it
 * returns: PCP's is its last request's alone, a bug pmkit fixes
 * (docs/compat.md; unit.host checks pmkit's). */
static void lookup_many(void)
{
    enum { N = 600 };
    static char text[N][208];
    static const char *names[N];
    const char *real[] = {"simple.color", "trivial.time", "psimple.now"};
    pmID ids[N];
    int sts, nnull = 0;

    for (int i = 0; i < N; i++) {
        if (i % 3 == 0) {
            names[i] = real[(i / 3) % 3];
            continue;
        }
        snprintf(text[i], sizeof(text[i]), "simple.bogus%03d.%0190d", i, i);
        names[i] = text[i];
    }
    sts = pmLookupName(N, names, ids);
    for (int i = 0; i < N; i++)
        nnull += ids[i] == PM_ID_NULL;
    printf("lookup %d long names: %s %s, %d found:", N, sts > 0 ? "> 0" : "<= 0",
           sts > 0 ? "" : err(sts), N - nnull);
    for (int i = 0; i < 9; i += 3)
        printf(" %s", pmIDStr(ids[i]));
    for (int i = 9; i < N; i += 3)
        if (ids[i] != ids[i % 9])
            printf(" [%d] %s", i, pmIDStr(ids[i]));
    printf("\n");
}

static void children(const char *name, int with_status)
{
    char **kids = NULL;
    int *st = NULL;
    int sts = with_status ? pmGetChildrenStatus(name, &kids, &st) : pmGetChildren(name, &kids);

    printf("children%s [%s]: %d %s:", with_status ? "status" : "", name ? name : "(null)", sts,
           err(sts));
    for (int i = 0; i < sts; i++)
        printf(" %s%s", kids[i], with_status ? (st[i] ? "/1" : "/0") : "");
    printf("%s\n", sts == 0 && (kids != NULL || st != NULL) ? " (not NULL!)" : "");
    free(kids);
    free(st);
}

static void visit(const char *name, void *closure)
{
    (*(int *)closure)++;
    printf(" %s", name);
}

static void traverse(const char *name)
{
    int calls = 0, sts;

    printf("traverse [%s]:", name ? name : "(null)");
    sts = pmTraversePMNS_r(name, visit, &calls);
    printf(" -> %d %s (%d calls)\n", sts, err(sts), calls);
}

static void names(pmID pmid)
{
    char *name = NULL, **all = NULL;
    int sts = pmNameID(pmid, &name);

    printf("nameid %s: %d %s %s\n", pmIDStr(pmid), sts, err(sts), sts == 0 ? name : "");
    if (sts == 0)
        free(name);
    sts = pmNameAll(pmid, &all);
    printf("nameall %s: %d %s:", pmIDStr(pmid), sts, err(sts));
    for (int i = 0; i < sts; i++)
        printf(" %s", all[i]);
    printf("\n");
    if (sts > 0)
        free(all);
}

static void desc(pmID pmid)
{
    pmDesc d;
    int sts = pmLookupDesc(pmid, &d);

    printf("desc %s: %d %s", pmIDStr(pmid), sts, err(sts));
    if (sts == 0)
        printf(" pmid=%s type=%d indom=%s sem=%d units=%s", pmIDStr(d.pmid), d.type,
               pmInDomStr(d.indom), d.sem, pmUnitsStr(&d.units));
    printf("\n");
}

static void descs(int n, pmID *ids)
{
    pmDesc d[4];
    int sts;

    memset(d, 0, sizeof(d));
    sts = pmLookupDescs(n, ids, d);
    printf("descs %d: %d %s:", n, sts, err(sts));
    for (int i = 0; i < n && sts >= 0; i++)
        printf(" %s/%d", pmIDStr(d[i].pmid), d[i].type);
    printf("\n");
}

static void text(int indom, unsigned int ident, int level)
{
    char *buf = NULL;
    int sts = indom ? pmLookupInDomText(ident, level, &buf) : pmLookupText(ident, level, &buf);

    /* the derived metrics' help is pmkit's own words (docs/compat.md) */
    if (sts == 0 && !indom && pmID_domain(ident) == 511)
        buf[0] = buf[0] != '\0' ? '+' : '\0', buf[buf[0] != '\0'] = '\0';
    printf("text %s %s level=%d: %d %s [%s]\n", indom ? "indom" : "pmid",
           indom ? pmInDomStr(ident) : pmIDStr(ident), level, sts, err(sts), sts == 0 ? buf : "");
    if (sts == 0)
        free(buf);
}

static void indom(pmInDom in)
{
    int *insts = NULL;
    char **inames = NULL, *name = NULL;
    int sts = pmGetInDom(in, &insts, &inames);

    printf("getindom %s: %d %s:", pmInDomStr(in), sts, err(sts));
    for (int i = 0; i < sts; i++)
        printf(" %d=%s", insts[i], inames[i]);
    printf("%s\n", sts == 0 && (insts != NULL || inames != NULL) ? " (not NULL!)" : "");
    free(insts);
    free(inames);
    sts = pmLookupInDom(in, "green");
    printf("lookupindom %s green: %d %s\n", pmInDomStr(in), sts, err(sts));
    sts = pmLookupInDom(in, "nosuch");
    printf("lookupindom %s nosuch: %d %s\n", pmInDomStr(in), sts, err(sts));
    sts = pmNameInDom(in, 2, &name);
    printf("nameindom %s 2: %d %s %s\n", pmInDomStr(in), sts, err(sts), sts == 0 ? name : "");
    if (sts == 0)
        free(name);
    sts = pmNameInDom(in, 99, &name);
    printf("nameindom %s 99: %d %s\n", pmInDomStr(in), sts, err(sts));
}

/* Values that change with time or with other clients' fetches (every
 * fetch moves simple.color on): only their shape is printed.  numfetch is
 * stored before it counts. */
static int varies(pmID pmid)
{
    return pmID_cluster(pmid) != 0 || pmID_item(pmid) != 0;
}

static void print_vsets(int n, pmValueSet **vset)
{
    for (int i = 0; i < n; i++) {
        pmValueSet *vs = vset[i];
        printf("  %s numval=%d", pmIDStr(vs->pmid), vs->numval);
        if (vs->numval < 0)
            printf(" %s", err(vs->numval));
        else if (vs->numval > 0)
            printf(" valfmt=%d", vs->valfmt);
        for (int j = 0; j < vs->numval; j++) {
            printf(" [%d", vs->vlist[j].inst);
            if (vs->valfmt == PM_VAL_INSITU && !varies(vs->pmid))
                printf(" %d", vs->vlist[j].value.lval);
            else if (vs->valfmt != PM_VAL_INSITU)
                printf(" type=%d vlen=%d", vs->vlist[j].value.pval->vtype,
                       vs->vlist[j].value.pval->vlen);
            printf("]");
        }
        printf("\n");
    }
}

/* pmcd's clock is this machine's: within a few seconds of ours */
static const char *plausible(time_t sec, long part, long per)
{
    time_t now = time(NULL);

    return sec >= now - 5 && sec <= now + 5 && part >= 0 && part < per ? "plausible" : "WRONG";
}

static void fetch(const char *what, int n, pmID *ids)
{
    pmResult *r = NULL;
    pmHighResResult *h = NULL;
    int sts = pmFetch(n, ids, &r);

    printf("fetch %s: %d %s\n", what, sts, err(sts));
    if (sts >= 0) {
        printf("  stamp %s\n", plausible(r->timestamp.tv_sec, r->timestamp.tv_usec, 1000000));
        print_vsets(r->numpmid, r->vset);
        pmFreeResult(r);
    }
    sts = pmFetchHighRes(n, ids, &h);
    printf("fetchhighres %s: %d %s\n", what, sts, err(sts));
    if (sts >= 0) {
        printf("  stamp %s\n", plausible(h->timestamp.tv_sec, h->timestamp.tv_nsec, 1000000000));
        print_vsets(h->numpmid, h->vset);
        pmFreeHighResResult(h);
    }
}

static void print_sets(const char *what, int sts, pmLabelSet *sets)
{
    printf("labels %s: %d %s\n", what, sts, err(sts));
    for (int i = 0; i < sts; i++) {
        printf("  inst %d nlabels %d [%s]", (int)sets[i].inst, sets[i].nlabels,
               sets[i].json ? sets[i].json : "");
        for (int j = 0; j < sets[i].nlabels; j++)
            printf(" %d/%d/%d/%d/%d", sets[i].labels[j].name, sets[i].labels[j].namelen,
                   sets[i].labels[j].flags, sets[i].labels[j].value, sets[i].labels[j].valuelen);
        printf("\n");
    }
    if (sts > 0)
        pmFreeLabelSets(sets, sts);
}

/* the call first: its sets are the printer's argument */
#define SHOW(what, call)                                                                           \
    do {                                                                                           \
        int s_ = (call);                                                                           \
        print_sets(what, s_, sets);                                                                \
    } while (0)

static void labels(const char *spec)
{
    pmID color = id_of("simple.color");
    pmLabelSet *sets = NULL;
    pmDesc d;
    int ctx = pmWhichContext(), fresh;

    /* instances' labels on a new connection, before any fetch (pmkit's
     * simple: PCP's simple as a DSO can bring pmcd down then) */
    pmLookupDesc(id_of("psimple.color"), &d);
    fresh = pmNewContext(PM_CONTEXT_HOST, spec);
    SHOW("fresh instances", pmGetInstancesLabels(d.indom, &sets));
    SHOW("fresh item", pmGetItemLabels(id_of("psimple.color"), &sets));
    pmDestroyContext(fresh);
    pmUseContext(ctx);
    pmLookupDesc(color, &d);
    SHOW("context", pmGetContextLabels(&sets));
    SHOW("domain 253", pmGetDomainLabels(253, &sets));
    SHOW("domain 250", pmGetDomainLabels(250, &sets));
    SHOW("domain 123", pmGetDomainLabels(123, &sets));
    SHOW("indom", pmGetInDomLabels(d.indom, &sets));
    SHOW("cluster", pmGetClusterLabels(color, &sets));
    SHOW("item", pmGetItemLabels(color, &sets));
    SHOW("instances", pmGetInstancesLabels(d.indom, &sets));
    SHOW("lookup color", pmLookupLabels(color, &sets));
    SHOW("lookup trivial.time", pmLookupLabels(id_of("trivial.time"), &sets));
    SHOW("lookup psimple.color", pmLookupLabels(id_of("psimple.color"), &sets));
    SHOW("lookup bad", pmLookupLabels(pmID_build(253, 9, 9), &sets));
}

/* A fetch group over its own host context. */
static void fetchgroup(const char *spec)
{
    pmFG fg;
    pmAtomValue numfetch, version;
    int inst[4], sts, fsts, vsts, ists[4];
    unsigned int n = 0;
    char *names[4];
    pmAtomValue now[4];

    sts = pmCreateFetchGroup(&fg, PM_CONTEXT_HOST, spec);
    printf("fetchgroup create: %d %s\n", sts, err(sts));
    if (sts < 0)
        return;
    printf("  item numfetch: %d\n", pmExtendFetchGroup_item(fg, "simple.numfetch", NULL, NULL,
                                                            &numfetch, PM_TYPE_U32, &fsts));
    printf("  item version: %d\n", pmExtendFetchGroup_item(fg, "pmcd.version", NULL, NULL, &version,
                                                           PM_TYPE_STRING, &vsts));
    printf("  item bogus: %d\n",
           pmExtendFetchGroup_item(fg, "simple.bogus", NULL, NULL, &numfetch, PM_TYPE_U32, &fsts));
    printf("  indom now: %d\n", pmExtendFetchGroup_indom(fg, "simple.now", NULL, inst, names, now,
                                                         PM_TYPE_U32, ists, 4, &n, &sts));
    printf("  fetch: %d\n", pmFetchGroup(fg));
    printf("  numfetch %d %u version %d %s now %u:", fsts, numfetch.ul, vsts,
           vsts == 0 ? version.cp : "", n);
    for (unsigned int i = 0; i < n; i++)
        printf(" %d=%s", inst[i], names[i]);
    printf("\n  destroy: %d\n", pmDestroyFetchGroup(fg));
}

static void store(const char *what, pmID pmid, int numval, int value)
{
    pmResult r;
    int sts;

    memset(&r, 0, sizeof(r));
    r.numpmid = 1;
    r.vset[0] = calloc(1, sizeof(pmValueSet));
    r.vset[0]->pmid = pmid;
    r.vset[0]->numval = numval;
    r.vset[0]->valfmt = PM_VAL_INSITU;
    r.vset[0]->vlist[0].inst = PM_IN_NULL;
    r.vset[0]->vlist[0].value.lval = value;
    sts = pmStore(&r);
    printf("store %s: %d %s\n", what, sts, err(sts));
    free(r.vset[0]);
}

static void contexts(const char *spec, const char *dead, const char *nosock)
{
    char unixspec[512];
    int sts, h, d;

    sts = pmNewContext(PM_CONTEXT_HOST, NULL);
    printf("new NULL: %d %s\n", sts, err(sts));
    sts = pmNewContext(PM_CONTEXT_HOST, "");
    printf("new empty: %d %s\n", sts, err(sts));
    sts = pmNewContext(PM_CONTEXT_HOST, dead);
    printf("new dead port: %d %s\n", sts, err(sts));
    snprintf(unixspec, sizeof(unixspec), "unix:%s", nosock);
    sts = pmNewContext(PM_CONTEXT_HOST, unixspec);
    printf("new missing socket: %d %s\n", sts, err(sts));
    printf("which: %d\n", pmWhichContext());
    printf("location none: %d\n", pmGetPMNSLocation());
    h = pmNewContext(PM_CONTEXT_HOST, spec);
    printf("new: %d %s\n", h, err(h));
    printf("which: %d location: %d\n", pmWhichContext(), pmGetPMNSLocation());
    printf("hostname: %s\n", pmGetContextHostName(h));
    d = pmDupContext();
    printf("dup: %d %s which: %d\n", d, err(d), pmWhichContext());
    printf("dup lookup: %s\n", pmIDStr(id_of("simple.color")));
    sts = pmReconnectContext(d);
    printf("reconnect: %d %s\n", sts, err(sts));
    printf("reconnect lookup: %s\n", pmIDStr(id_of("trivial.time")));
    sts = pmDestroyContext(d);
    printf("destroy: %d %s which: %d\n", sts, err(sts), pmWhichContext());
    sts = pmDestroyContext(d);
    printf("destroy again: %d %s\n", sts, err(sts));
    sts = pmUseContext(d);
    printf("use destroyed: %d %s\n", sts, err(sts));
    sts = pmUseContext(h);
    printf("use: %d %s which: %d\n", sts, err(sts), pmWhichContext());
}

static void name_questions(void)
{
    const char *one[] = {"simple.color"}, *unknown[] = {"simple.bogus"}, *nonleaf[] = {"simple"},
               *mixed[] = {"simple.numfetch", "simple.bogus", "simple.time", "trivial.time"},
               *none[] = {"simple", "nosuch"}, *ev[] = {"event.flags"},
               *evmix[] = {"event.missed", "simple.color", "psimple.color"},
               *evall[] = {"event.flags", "event.missed"};

    lookup(1, one);
    lookup(1, unknown);
    lookup(1, nonleaf);
    lookup(4, mixed);
    lookup(2, none);
    lookup(1, ev);
    lookup(3, evmix);
    lookup(2, evall);
    lookup_many();
    children("", 0);
    children("", 1);
    children("simple", 1);
    children("simple.time", 0);
    children("simple.color", 1);
    children("nosuch", 0);
    children("event", 1);
    children("event.flags", 0);
    children(NULL, 0);
    traverse("");
    traverse("simple");
    traverse("simple.color");
    traverse("nosuch");
    traverse("event");
    traverse("event.flags");
    traverse("psimple");
    traverse(NULL);
    names(id_of("simple.color"));
    names(id_of("psimple.now"));
    names(pmID_build(253, 9, 9));
    names(pmID_build(123, 0, 0));
    names(pmID_build(511, 0, 1));
    names(pmID_build(511, 0, 2));
}

static void metadata(void)
{
    pmID color = id_of("simple.color"), tt = id_of("trivial.time"), now = id_of("simple.now");
    pmID bad = pmID_build(253, 9, 9), nodom = pmID_build(123, 0, 0);
    pmID flags = pmID_build(511, 0, 1);
    pmID two[] = {color, bad}, onebad[] = {bad}, three[] = {tt, flags, nodom}, good[] = {color, tt};
    pmDesc d;

    desc(color);
    desc(tt);
    desc(id_of("psimple.now"));
    desc(bad);
    desc(nodom);
    desc(PM_ID_NULL);
    desc(flags);
    descs(2, two);
    descs(1, onebad);
    descs(3, three);
    descs(2, good);
    descs(1, &flags);
    for (int level = 1; level <= 2; level++) {
        text(0, color, level);
        text(0, color, level | PM_TEXT_DIRECT);
        text(0, tt, level);
        text(0, id_of("psimple.color"), level);
        text(0, bad, level);
        text(0, nodom, level);
        text(0, flags, level);
    }
    if (pmLookupDesc(now, &d) == 0) {
        text(1, d.indom, PM_TEXT_ONELINE);
        text(1, d.indom, PM_TEXT_HELP);
        indom(d.indom);
    }
    if (pmLookupDesc(color, &d) == 0)
        indom(d.indom);
    if (pmLookupDesc(id_of("psimple.color"), &d) == 0)
        indom(d.indom);
    indom(PM_INDOM_NULL);
    indom(pmInDom_build(253, 77));
    indom(pmInDom_build(123, 0));
    text(1, pmInDom_build(123, 0), PM_TEXT_ONELINE);
}

static void values(void)
{
    pmID color = id_of("simple.color"), numfetch = id_of("simple.numfetch");
    pmID list[] = {color,
                   id_of("trivial.time"),
                   id_of("simple.now"),
                   numfetch,
                   pmID_build(253, 9, 9),
                   pmID_build(123, 0, 0),
                   pmID_build(511, 0, 1),
                   id_of("psimple.color"),
                   color};
    pmDesc d;
    int inst2 = 2, inst1 = 1;

    store("numfetch 0", numfetch, 1, 0);
    fetch("all", 9, list);
    fetch("numfetch", 1, &numfetch);
    store("numfetch 42", numfetch, 1, 42);
    fetch("numfetch", 1, &numfetch);
    store("numfetch -1", numfetch, 1, -1);
    store("trivial.time", id_of("trivial.time"), 1, 1);
    store("numval 0", numfetch, 0, 1);
    store("psimple.numfetch 7", id_of("psimple.numfetch"), 1, 7);
    store("unknown domain", pmID_build(123, 0, 0), 1, 7);
    pmLookupDesc(color, &d);
    printf("del all: %d\n", pmDelProfile(PM_INDOM_NULL, 0, NULL));
    printf("add 2: %d\n", pmAddProfile(d.indom, 1, &inst2));
    fetch("color after add", 1, &color);
    printf("add all: %d\n", pmAddProfile(PM_INDOM_NULL, 0, NULL));
    printf("del 1 fresh: %d\n", pmDelProfile(d.indom, 1, &inst1));
    fetch("color after del fresh", 1, &color);
    printf("add indom: %d\n", pmAddProfile(d.indom, 0, NULL));
    printf("del 1: %d\n", pmDelProfile(d.indom, 1, &inst1));
    fetch("color after del", 1, &color);
    printf("profile spec: %d %s\n", pmAddProfile(PM_INDOM_NULL, 1, &inst1),
           err(pmAddProfile(PM_INDOM_NULL, 1, &inst1)));
    printf("too small: %s\n", err(pmFetch(0, &color, NULL)));
}

int main(int argc, char **argv)
{
    const char *empty[] = {""};
    int sts;

    if (argc != 5) {
        fprintf(stderr, "Usage: probe_host SPEC DEADSPEC NOSOCKET PMNS\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    contexts(argv[1], argv[2], argv[3]);
    name_questions();
    metadata();
    values();
    labels(argv[1]);
    fetchgroup(argv[1]);
    printf("which after fetchgroup: %d\n", pmWhichContext());
    /* pmcd refuses an empty name in a lookup request */
    lookup(1, empty);
    printf("after empty: %s\n", pmIDStr(id_of("simple.color")));
    sts = pmReconnectContext(pmWhichContext());
    printf("reconnect: %d %s after: %s\n", sts >= 0 ? 0 : sts, err(sts),
           pmIDStr(id_of("simple.color")));
    /* an explicitly loaded namespace answers for the host context */
    sts = pmLoadNameSpace(argv[4]);
    printf("load: %d %s location: %d\n", sts, err(sts), pmGetPMNSLocation());
    lookup(1, empty);
    name_questions();
    sts = pmDestroyContext(pmWhichContext());
    printf("destroy: %d %s location: %d\n", sts, err(sts), pmGetPMNSLocation());
    return 0;
}
