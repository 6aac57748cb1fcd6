/*
 * client.c - example_client NAMESPACE AGENT: reads the example agent's
 * metrics through a local context, the way a monitoring tool would.
 *
 * The metric names come from example_map.h, which pmgenmap makes from
 * example.map (and checks against the namespace at build time).  The
 * agent is the DSO AGENT, the only one in the local context's agent table,
 * as domain EXAMPLE with entry point example_init.  Prints every value, sets
 * example.scale to 10 with pmStore and prints every value again; exits 1
 * on the first error.
 */
#include <pcp/pmapi.h>

#include <stdio.h>
#include <stdlib.h>

#include "domain.h"
#include "example_map.h"

#define NMETRICS ((int)(sizeof example_metrics / sizeof example_metrics[0]))

static void check(int sts, const char *what)
{
    if (sts < 0) {
        fprintf(stderr, "%s: %s: %s\n", pmGetProgname(), what, pmErrStr(sts));
        exit(1);
    }
}

/* One fetch of every metric, one line per value: name[instance] value. */
static void report(pmID *pmids, const pmDesc *descs)
{
    pmResult *rp;

    check(pmFetch(NMETRICS, pmids, &rp), "pmFetch");
    for (int i = 0; i < rp->numpmid; i++) {
        const pmValueSet *vs = rp->vset[i];

        check(vs->numval, example_metrics[i]);
        for (int j = 0; j < vs->numval; j++) {
            char *inst = NULL;

            if (descs[i].indom != PM_INDOM_NULL)
                check(pmNameInDom(descs[i].indom, vs->vlist[j].inst, &inst), "pmNameInDom");
            printf("%s%s%s%s ", example_metrics[i], inst ? "[" : "", inst ? inst : "",
                   inst ? "]" : "");
            pmPrintValue(stdout, vs->valfmt, descs[i].type, &vs->vlist[j], 1);
            putchar('\n');
            free(inst);
        }
    }
    pmFreeResult(rp);
}

/* example.scale := value. */
static void store_scale(pmID pmid, int value)
{
    pmValueSet vs = {.pmid = pmid, .numval = 1, .valfmt = PM_VAL_INSITU};
    pmValueSet *vsp = &vs;
    pmResult r = {.numpmid = 1};

    vs.vlist[0].inst = PM_IN_NULL;
    vs.vlist[0].value.lval = value;
    r.vset[0] = vsp;
    check(pmStore(&r), "pmStore");
}

int main(int argc, char **argv)
{
    pmID pmids[NMETRICS];
    pmDesc descs[NMETRICS];
    char spec[4096];
    char *err;

    pmSetProgname(argv[0]);
    if (argc != 3) {
        fprintf(stderr, "Usage: %s NAMESPACE AGENT\n", pmGetProgname());
        return 1;
    }
    check(pmLoadASCIINameSpace(argv[1], 1), argv[1]);
    if (pmsprintf(spec, sizeof spec, "add,%d,%s,example_init", EXAMPLE, argv[2]) >=
        (int)sizeof spec - 1) {
        fprintf(stderr, "%s: %s: path too long\n", pmGetProgname(), argv[2]);
        return 1;
    }
    /* Only this agent: "clear" drops the agents of pmcd.conf. */
    if ((err = pmSpecLocalPMDA("clear")) != NULL || (err = pmSpecLocalPMDA(spec)) != NULL) {
        fprintf(stderr, "%s: %s: %s\n", pmGetProgname(), spec, err);
        return 1;
    }
    check(pmNewContext(PM_CONTEXT_LOCAL, NULL), "pmNewContext");
    check(pmLookupName(NMETRICS, example_metrics, pmids), "pmLookupName");
    for (int i = 0; i < NMETRICS; i++)
        check(pmLookupDesc(pmids[i], &descs[i]), example_metrics[i]);
    report(pmids, descs);
    store_scale(pmids[SCALE], 10);
    report(pmids, descs);
    return 0;
}
