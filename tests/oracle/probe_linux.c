/*
 * probe_linux.c - asks a linux agent, loaded as a DSO into a local
 * context, everything about a list of metrics that does not change with
 * time: PMID, the whole descriptor (units field by field), whether help
 * text exists, and every instance of their instance domains with the
 * name <-> number lookups in both directions.
 *
 *   probe_linux DSO PMNS NAME...
 *
 * DSO is loaded as domain 60 with init function linux_init; PMNS is the
 * ASCII namespace used to turn NAMEs into PMIDs.  Output goes to stdout,
 * one fact per line, so two agents can be compared with diff.  Built
 * against pmkit's or Debian's libpcp from the same source.
 */
#include <pcp/pmapi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXINDOMS 64

static pmInDom indoms[MAXINDOMS];
static int nindoms;

static void remember(pmInDom indom)
{
    if (indom == PM_INDOM_NULL)
        return;
    for (int i = 0; i < nindoms; i++)
        if (indoms[i] == indom)
            return;
    if (nindoms < MAXINDOMS)
        indoms[nindoms++] = indom;
}

static const char *has_text(pmID pmid, int level)
{
    char *text = NULL;
    int sts = pmLookupText(pmid, level, &text);
    const char *answer = sts < 0 ? pmErrStr(sts) : text[0] ? "present" : "empty";

    free(text);
    return answer;
}

static void metric(const char *name)
{
    pmID pmid;
    pmDesc d;
    int sts;

    if ((sts = pmLookupName(1, &name, &pmid)) < 0) {
        printf("%s: %s\n", name, pmErrStr(sts));
        return;
    }
    if ((sts = pmLookupDesc(pmid, &d)) < 0) {
        printf("%s %s: desc %s\n", name, pmIDStr(pmid), pmErrStr(sts));
        return;
    }
    printf("%s %s type=%d indom=%s sem=%d units=%d,%d,%d,%d,%d,%d oneline=%s help=%s\n", name,
           pmIDStr(pmid), d.type, pmInDomStr(d.indom), d.sem, d.units.dimSpace, d.units.dimTime,
           d.units.dimCount, d.units.scaleSpace, d.units.scaleTime, d.units.scaleCount,
           has_text(pmid, PM_TEXT_ONELINE), has_text(pmid, PM_TEXT_HELP));
    remember(d.indom);
}

/* Name -> number by the name's first word, as PCP's lookups allow. */
static void first_word(pmInDom indom, const char *name, int inst)
{
    size_t n = strcspn(name, " ");
    char *w;
    int got;

    if (name[n] == '\0' || (w = strndup(name, n)) == NULL)
        return;
    got = pmLookupInDom(indom, w);
    if (got != inst)
        printf("  lookup of first word \"%s\" gives %d\n", w, got);
    free(w);
}

static void instances(pmInDom indom)
{
    int *ids = NULL, n;
    char **names = NULL;

    n = pmGetInDom(indom, &ids, &names);
    printf("indom %s: %d%s%s\n", pmInDomStr(indom), n, n < 0 ? " " : "", n < 0 ? pmErrStr(n) : "");
    for (int i = 0; i < n; i++) {
        char *back = NULL;
        int sts = pmNameInDom(indom, ids[i], &back), got = pmLookupInDom(indom, names[i]);

        printf("  [%d] \"%s\"", ids[i], names[i]);
        if (sts < 0 || strcmp(back, names[i]) != 0)
            printf(" name-of-number=%s", sts < 0 ? pmErrStr(sts) : back);
        if (got != ids[i])
            printf(" number-of-name=%d", got);
        printf("\n");
        free(back);
        first_word(indom, names[i], ids[i]);
    }
    if (n > 0) {
        free(ids);
        free(names);
    }
}

int main(int argc, char **argv)
{
    char spec[8192];
    char *err;
    int sts;

    if (argc < 3) {
        fprintf(stderr, "Usage: probe_linux DSO PMNS NAME...\n");
        return 2;
    }
    if ((err = pmSpecLocalPMDA("clear")) != NULL) {
        fprintf(stderr, "probe_linux: clear: %s\n", err);
        return 2;
    }
    snprintf(spec, sizeof spec, "add,60,%s,linux_init", argv[1]);
    if ((err = pmSpecLocalPMDA(spec)) != NULL) {
        fprintf(stderr, "probe_linux: %s: %s\n", spec, err);
        return 2;
    }
    if ((sts = pmLoadASCIINameSpace(argv[2], 1)) < 0) {
        fprintf(stderr, "probe_linux: %s: %s\n", argv[2], pmErrStr(sts));
        return 2;
    }
    if ((sts = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
        fprintf(stderr, "probe_linux: local context: %s\n", pmErrStr(sts));
        return 2;
    }
    for (int i = 3; i < argc; i++)
        metric(argv[i]);
    for (int i = 0; i < nindoms; i++)
        instances(indoms[i]);
    return 0;
}
