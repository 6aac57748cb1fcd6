/*
 * probe_local.c - exercise a local context from one source built twice,
 * against pmkit and against Debian's libpcp, and print every answer:
 * contexts, descriptors, help text, instance domains, fetch (values of
 * time-varying metrics elided), profiles, store and the error cases.
 *
 *   probe_local PMNS SIMPLE_SO TRIVIAL_SO
 *
 * The agents are PCP's simple (253) and trivial (250), loaded with
 * pmSpecLocalPMDA; PCP_PMDAS_DIR must hold simple/simple.conf and the
 * compiled help.  local_diff.sh compares the two outputs.
 */
#include <pcp/pmapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *err(int sts)
{
    static char buf[PM_MAXERRMSGLEN];

    return sts < 0 ? pmErrStr_r(sts, buf, sizeof(buf)) : "ok";
}

/* the answer to pmSpecLocalPMDA(ARG): its message, "(null)" for none */
static void print_spec(const char *what, const char *arg)
{
    const char *msg = pmSpecLocalPMDA(arg);

    printf("spec %s: %s\n", what, msg ? msg : "(null)");
}

static pmID id_of(const char *name)
{
    pmID id = PM_ID_NULL;

    pmLookupName(1, &name, &id);
    return id;
}

static void print_desc(pmID pmid)
{
    pmDesc d;
    int sts = pmLookupDesc(pmid, &d);

    printf("desc %s: %d %s", pmIDStr(pmid), sts, err(sts));
    if (sts == 0)
        printf(" type=%d indom=%s sem=%d units=%s", d.type, pmInDomStr(d.indom), d.sem,
               pmUnitsStr(&d.units));
    printf("\n");
}

static void print_text(pmID pmid, int level)
{
    char *buf = NULL;
    int sts = pmLookupText(pmid, level, &buf);

    printf("text %s level=%d: %d %s [%s]\n", pmIDStr(pmid), level, sts, err(sts),
           sts == 0 ? buf : "");
    free(buf);
}

static void print_indom(pmInDom indom)
{
    int *insts = NULL;
    char **names = NULL;
    int n = pmGetInDom(indom, &insts, &names);
    char *text = NULL;
    int sts;

    printf("indom %s: %d %s", pmInDomStr(indom), n, err(n));
    for (int i = 0; i < n; i++)
        printf(" %d=%s", insts[i], names[i]);
    printf(" null=%d\n", insts == NULL && names == NULL);
    free(insts);
    free(names);
    sts = pmLookupInDomText(indom, PM_TEXT_ONELINE, &text);
    printf("indom text %s: %d %s [%s]\n", pmInDomStr(indom), sts, err(sts), sts == 0 ? text : "");
    free(text);
}

/* Values are printed only for metrics that do not change with time. */
static void print_result(const pmResult *r, int show_values)
{
    printf("result numpmid=%d\n", r->numpmid);
    for (int i = 0; i < r->numpmid; i++) {
        const pmValueSet *vs = r->vset[i];
        printf("  %s numval=%d", pmIDStr(vs->pmid), vs->numval);
        if (vs->numval < 0)
            printf(" (%s)", err(vs->numval));
        else if (vs->numval > 0)
            printf(" valfmt=%d", vs->valfmt);
        for (int j = 0; j < vs->numval; j++) {
            printf(" [%d", vs->vlist[j].inst);
            if (show_values & (1 << i)) {
                if (vs->valfmt == PM_VAL_INSITU)
                    printf("=%d", vs->vlist[j].value.lval);
                else
                    printf(" vtype=%d vlen=%d", vs->vlist[j].value.pval->vtype,
                           vs->vlist[j].value.pval->vlen);
            } else if (vs->valfmt != PM_VAL_INSITU) {
                printf(" vtype=%d vlen=%d", vs->vlist[j].value.pval->vtype,
                       vs->vlist[j].value.pval->vlen);
            }
            printf("]");
        }
        printf("\n");
    }
}

static void fetch(int n, pmID *ids, int show)
{
    pmResult *r = NULL;
    int sts = pmFetch(n, ids, &r);

    printf("fetch: %d %s\n", sts, err(sts));
    if (sts >= 0) {
        print_result(r, show);
        pmFreeResult(r);
    }
}

static void store(pmID pmid, int inst, int value)
{
    pmResult r;
    pmValueSet vs;
    int sts;

    memset(&r, 0, sizeof(r));
    memset(&vs, 0, sizeof(vs));
    r.numpmid = 1;
    r.vset[0] = &vs;
    vs.pmid = pmid;
    vs.numval = 1;
    vs.valfmt = PM_VAL_INSITU;
    vs.vlist[0].inst = inst;
    vs.vlist[0].value.lval = value;
    sts = pmStore(&r);
    printf("store %s inst=%d value=%d: %d %s\n", pmIDStr(pmid), inst, value, sts, err(sts));
}

int main(int argc, char **argv)
{
    char spec[4096];
    const char *names[] = {"simple.numfetch", "simple.bogus", "simple.time", "trivial.time"};
    pmID ids[4], numfetch, color, now, user, trivial, bad;
    pmInDom color_indom = PM_INDOM_NULL, now_indom = PM_INDOM_NULL;
    pmDesc d;
    int ctx, ctx2, sts, insts[2];
    char *name = NULL;

    if (argc != 4) {
        fprintf(stderr, "usage: probe_local PMNS SIMPLE_SO TRIVIAL_SO\n");
        return 2;
    }
    printf("which before: %s\n", err(pmWhichContext()));
    print_spec("bad", "frob");
    print_spec("noc", "add");
    print_spec("nodom", "add,");
    print_spec("baddom", "add,x");
    print_spec("clearx", "clearx");
    print_spec("del", "del,");
    /* the first edit reads pmcd.conf (a missing one is reported once) */
    print_spec("del path", "del,,/no/such.so");
    print_spec("del dom", "del,99");
    print_spec("clear", "clear");
    print_spec("add 77", "add,77,/no/such.so,x_init");
    print_spec("del 77", "del,77");
    print_spec("del 77 again", "del,77");
    print_spec("del 77 by path", "del,,/no/such.so");
    snprintf(spec, sizeof(spec), "add,253,%s,simple_init", argv[2]);
    print_spec("simple", spec);
    snprintf(spec, sizeof(spec), "add,250,%s,trivial_init", argv[3]);
    print_spec("trivial", spec);
    printf("load: %s\n", err(pmLoadASCIINameSpace(argv[1], 1)));

    printf("bad type: %s\n", err(pmNewContext(77, NULL)));
    ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    printf("new local: %d, which %d\n", ctx >= 0, pmWhichContext() == ctx);

    sts = pmLookupName(4, names, ids);
    printf("lookup 4: %d ids %s %s %s %s\n", sts, pmIDStr(ids[0]), pmIDStr(ids[1]), pmIDStr(ids[2]),
           pmIDStr(ids[3]));
    numfetch = id_of("simple.numfetch");
    color = id_of("simple.color");
    now = id_of("simple.now");
    user = id_of("simple.time.user");
    trivial = id_of("trivial.time");
    bad = pmID_build(253, 7, 7);

    print_desc(numfetch);
    print_desc(color);
    print_desc(now);
    print_desc(user);
    print_desc(trivial);
    print_desc(bad);
    print_desc(pmID_build(99, 0, 0));
    print_desc(PM_ID_NULL);
    {
        pmID list[3] = {numfetch, bad, trivial};
        pmDesc dl[3];
        memset(dl, 0, sizeof(dl));
        char b0[32], b1[32], b2[32];
        printf("descs: %d pmids %s %s %s\n", pmLookupDescs(3, list, dl),
               pmIDStr_r(dl[0].pmid, b0, sizeof(b0)), pmIDStr_r(dl[1].pmid, b1, sizeof(b1)),
               pmIDStr_r(dl[2].pmid, b2, sizeof(b2)));
        printf("descs bad: %d\n", pmLookupDescs(1, &bad, dl));
        printf("descs 0: %s\n", err(pmLookupDescs(0, list, dl)));
    }

    if (pmLookupDesc(color, &d) == 0)
        color_indom = d.indom;
    if (pmLookupDesc(now, &d) == 0)
        now_indom = d.indom;

    for (int level = 1; level <= 2; level++) {
        print_text(numfetch, level);
        print_text(color, level);
        print_text(trivial, level);
        print_text(numfetch, level | PM_TEXT_DIRECT);
    }
    print_text(bad, PM_TEXT_ONELINE);
    print_text(pmID_build(99, 0, 0), PM_TEXT_HELP);

    print_indom(color_indom);
    print_indom(now_indom);
    print_indom(pmInDom_build(253, 9));
    print_indom(pmInDom_build(99, 0));
    print_indom(PM_INDOM_NULL);
    printf("lookup inst green: %d\n", pmLookupInDom(color_indom, "green"));
    printf("lookup inst pink: %s\n", err(pmLookupInDom(color_indom, "pink")));
    printf("lookup inst null indom: %s\n", err(pmLookupInDom(PM_INDOM_NULL, "red")));
    sts = pmNameInDom(color_indom, 2, &name);
    printf("name inst 2: %d %s\n", sts, sts == 0 ? name : err(sts));
    free(name);
    printf("name inst 7: %s\n", err(pmNameInDom(color_indom, 7, &name)));
    printf("name inst null: %s\n", err(pmNameInDom(PM_INDOM_NULL, 0, &name)));

    {
        pmID list[6] = {numfetch, color, trivial, bad, pmID_build(99, 0, 0), now};
        fetch(6, list, 1 << 1 | 1 << 0);
        fetch(6, list, 1 << 1 | 1 << 0);
        printf("fetch 0: %s\n", err(pmFetch(0, list, NULL)));
    }

    /* profiles */
    insts[0] = 1;
    printf("add profile: %s\n", err(pmAddProfile(color_indom, 1, insts)));
    fetch(1, &color, 0);
    printf("del all: %s\n", err(pmDelProfile(PM_INDOM_NULL, 0, NULL)));
    fetch(1, &color, 0);
    printf("add all: %s\n", err(pmAddProfile(PM_INDOM_NULL, 0, NULL)));
    fetch(1, &color, 0);
    printf("del 1 fresh: %s\n", err(pmDelProfile(color_indom, 1, insts)));
    fetch(1, &color, 0);
    printf("add indom: %s\n", err(pmAddProfile(color_indom, 0, NULL)));
    printf("del 1: %s\n", err(pmDelProfile(color_indom, 1, insts)));
    fetch(1, &color, 0);
    printf("profile spec: %s\n", err(pmAddProfile(PM_INDOM_NULL, 1, insts)));

    /* a duplicate context (PCP 6.0.3 does not apply the profile it copies:
     * docs/compat.md, so the probe starts the copy afresh) */
    ctx2 = pmDupContext();
    printf("dup: %d which %d\n", ctx2 > ctx, pmWhichContext() == ctx2);
    printf("dup add all: %s\n", err(pmAddProfile(PM_INDOM_NULL, 0, NULL)));
    fetch(1, &color, 0);
    printf("use old: %s\n", err(pmUseContext(ctx)));
    printf("add all again: %s\n", err(pmAddProfile(PM_INDOM_NULL, 0, NULL)));
    fetch(1, &color, 0);
    printf("use dup: %s\n", err(pmUseContext(ctx2)));
    fetch(1, &color, 0);

    /* store */
    store(numfetch, PM_IN_NULL, 42);
    fetch(1, &numfetch, 1);
    store(numfetch, PM_IN_NULL, -1);
    store(trivial, PM_IN_NULL, 1);
    store(user, PM_IN_NULL, 1);
    store(pmID_build(99, 0, 0), PM_IN_NULL, 1);
    {
        pmResult r;
        memset(&r, 0, sizeof(r));
        printf("store empty: %s\n", err(pmStore(&r)));
    }

    printf("destroy dup: %s\n", err(pmDestroyContext(ctx2)));
    printf("which after: %s\n", err(pmWhichContext()));
    printf("destroy again: %s\n", err(pmDestroyContext(ctx2)));
    print_desc(numfetch);
    printf("use bad: %s\n", err(pmUseContext(9999)));
    printf("use ctx: %s\n", err(pmUseContext(ctx)));
    print_desc(numfetch);
    printf("destroy: %s\n", err(pmDestroyContext(ctx)));
    return 0;
}
