/*
 * probe_system_creds.c - what local contexts hand their agents: loads
 * probe_system_creds_agent.c (AGENT_SO, built against the same side's
 * libpcp_pmda) as domain 244 and makes two local contexts, a copy of one
 * and fetches from each; the agent prints the attributes it is given.
 * Built against pmkit's libraries and Debian's; system_creds_diff.sh runs both
 * with several agent flags and $PCP_CONTAINER settings and wants the same
 * output.
 *
 *   probe_system_creds AGENT_SO
 */
#include <pcp/pmapi.h>

#include <stdio.h>

static void fetch(const char *what)
{
    pmID pmid = pmID_build(244, 0, 0);
    pmResult *r;
    int sts = pmFetch(1, &pmid, &r);

    printf("%s: fetch %d", what, sts);
    if (sts >= 0) {
        printf(" numval %d value %d", r->vset[0]->numval,
               r->vset[0]->numval > 0 ? r->vset[0]->vlist[0].value.lval : 0);
        pmFreeResult(r);
    }
    printf("\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    char spec[4096];
    const char *msg;
    int c1, c2, c3;

    if (argc != 2) {
        fprintf(stderr, "usage: probe_system_creds AGENT_SO\n");
        return 2;
    }
    pmSpecLocalPMDA("clear");
    snprintf(spec, sizeof(spec), "add,244,%s,creds_init", argv[1]);
    msg = pmSpecLocalPMDA(spec);
    printf("spec: %s\n", msg != NULL ? msg : "ok");
    fflush(stdout);
    c1 = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    printf("first context %d\n", c1);
    fetch("first");
    c2 = pmNewContext(PM_CONTEXT_LOCAL, NULL);
    printf("second context %d\n", c2);
    fetch("second");
    c3 = pmDupContext();
    printf("copy %d\n", c3);
    fetch("copy");
    pmUseContext(c1);
    fetch("first again");
    pmDestroyContext(c1);
    pmDestroyContext(c2);
    pmDestroyContext(c3);
    return 0;
}
