/*
 * probe_store.c - drives agents loaded into a local context through a
 * script of requests, printing one line per answer.  The same source is
 * built against Debian's libpcp and against pmkit's; tests/oracle/
 * agents_diff.sh runs it over pmkit's simple/trivial agents and over PCP's,
 * loaded by the same library, and requires identical output.
 *
 * Usage:  probe_store -n PMNS [-K SPEC]... < SCRIPT
 *   -n PMNS   namespace, loaded with pmLoadASCIINameSpace(PMNS, 1)
 *   -K SPEC   given to pmSpecLocalPMDA before the context is made
 *             ("clear", "add,DOMAIN,PATH,INIT", ...)
 * SCRIPT has one command per line, echoed before its answers; empty lines
 * and lines starting with "#" are skipped.  NAME is a metric name, VAL an
 * integer:
 *   fetch:NAME[,NAME...]      one pmFetch; prints every value (pmPrintValue)
 *   store:NAME=VAL[@INST][,...]  one pmStore: one value set per NAME=...
 *                             item (repeat NAME for several instances; no
 *                             @INST means PM_IN_NULL); prints the status
 *   indom:NAME                pmGetInDom of NAME's instance domain
 *   inst:NAME=ID              pmNameInDom
 *   instname:NAME=STR         pmLookupInDom
 *   text:NAME                 whether pmLookupText finds one-line and full
 *                             help for NAME (the text itself is not shown)
 *   indomtext:NAME            the same for NAME's instance domain
 *   conf:TEXT                 writes TEXT plus a newline to
 *                             $PCP_PMDAS_DIR/simple/simple.conf ("\n" in
 *                             TEXT is a newline, "conf:" alone an empty
 *                             file), and gives it a modification time no
 *                             earlier run of this command used, so the
 *                             agent sees a change at any clock resolution
 *   noconf                    removes that file
 * Exit: 0 whatever the requests answered, 1 set-up failed, 2 usage.
 * Nothing is said about the agents' stderr (their own wording).
 *
 * Build:  cc -std=c11 -D_DEFAULT_SOURCE -o probe_store probe_store.c -lpcp
 */
#include <pcp/pmapi.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXITEMS 16

/* Splits s at each sep, in place; returns the count (at most max). */
static int split(char *s, int sep, char **parts, int max)
{
    int n = 0;

    while (n < max) {
        parts[n++] = s;
        if ((s = strchr(s, sep)) == NULL)
            break;
        *s++ = '\0';
    }
    return n;
}

static int lookup(const char *name, pmID *pmid, pmDesc *desc)
{
    char *names[1] = {(char *)name};
    int sts = pmLookupName(1, (const char **)names, pmid);

    if (sts < 0 || (sts = pmLookupDesc(*pmid, desc)) < 0) {
        printf("  %s: %s\n", name, pmErrStr(sts));
        return sts;
    }
    return 0;
}

static void do_fetch(char *arg)
{
    char *names[MAXITEMS];
    int n = split(arg, ',', names, MAXITEMS);
    pmID pmids[MAXITEMS];
    pmDesc descs[MAXITEMS];
    pmResult *res = NULL;

    for (int i = 0; i < n; i++)
        if (lookup(names[i], &pmids[i], &descs[i]) < 0)
            return;
    int sts = pmFetch(n, pmids, &res);
    if (sts < 0) {
        printf("  pmFetch: %s\n", pmErrStr(sts));
        return;
    }
    for (int i = 0; i < res->numpmid; i++) {
        const pmValueSet *vs = res->vset[i];
        printf("  %s: numval %d\n", names[i], vs->numval);
        for (int j = 0; j < vs->numval; j++) {
            printf("    inst %d value ", vs->vlist[j].inst);
            pmPrintValue(stdout, vs->valfmt, descs[i].type, &vs->vlist[j], 1);
            putchar('\n');
        }
    }
    pmFreeResult(res);
}

/* One value set per NAME=VAL[@INST] item. */
static void do_store(char *arg)
{
    char *items[MAXITEMS];
    int n = split(arg, ',', items, MAXITEMS);
    pmID pmids[MAXITEMS];
    int insts[MAXITEMS], vals[MAXITEMS];

    for (int i = 0; i < n; i++) {
        char *val = strchr(items[i], '=');
        char *inst = val ? strchr(val, '@') : NULL;
        pmDesc desc;

        if (val == NULL) {
            printf("  bad store item %s\n", items[i]);
            return;
        }
        *val++ = '\0';
        if (inst)
            *inst++ = '\0';
        if (lookup(items[i], &pmids[i], &desc) < 0)
            return;
        insts[i] = inst ? atoi(inst) : (int)PM_IN_NULL;
        vals[i] = atoi(val);
    }
    /* pmResult ends in a one-element vset array: room for n pointers */
    pmResult *res = calloc(1, sizeof(pmResult) + (size_t)n * sizeof(pmValueSet *));
    if (res == NULL)
        exit(1);
    res->numpmid = n;
    for (int i = 0; i < n; i++) {
        pmValueSet *vs = calloc(1, sizeof(pmValueSet)); /* holds one value */
        if (vs == NULL)
            exit(1);
        vs->pmid = pmids[i];
        vs->numval = 1;
        vs->valfmt = PM_VAL_INSITU;
        vs->vlist[0].inst = insts[i];
        vs->vlist[0].value.lval = vals[i];
        res->vset[i] = vs;
    }
    printf("  pmStore: %s\n", pmErrStr(pmStore(res)));
    for (int i = 0; i < n; i++)
        free(res->vset[i]);
    free(res);
}

static int indom_of(const char *name, pmInDom *indom)
{
    pmID pmid;
    pmDesc desc;

    if (lookup(name, &pmid, &desc) < 0)
        return -1;
    *indom = desc.indom;
    return 0;
}

static void do_indom(const char *name)
{
    pmInDom indom;
    int *ids = NULL;
    char **names = NULL;

    if (indom_of(name, &indom) < 0)
        return;
    int n = pmGetInDom(indom, &ids, &names);
    if (n < 0) {
        printf("  pmGetInDom %s: %s\n", pmInDomStr(indom), pmErrStr(n));
        return;
    }
    printf("  pmGetInDom %s: %d\n", pmInDomStr(indom), n);
    for (int i = 0; i < n; i++)
        printf("    %d \"%s\"\n", ids[i], names[i]);
    free(ids);
    free(names);
}

static void do_inst(char *arg, int byname)
{
    char *eq = strchr(arg, '=');
    pmInDom indom;

    if (eq == NULL) {
        printf("  bad argument %s\n", arg);
        return;
    }
    *eq++ = '\0';
    if (indom_of(arg, &indom) < 0)
        return;
    if (byname) {
        int sts = pmLookupInDom(indom, eq);
        if (sts < 0)
            printf("  pmLookupInDom \"%s\": %s\n", eq, pmErrStr(sts));
        else
            printf("  pmLookupInDom \"%s\": %d\n", eq, sts);
    } else {
        char *found = NULL;
        int sts = pmNameInDom(indom, atoi(eq), &found);
        printf("  pmNameInDom %s: %s\n", eq, sts < 0 ? pmErrStr(sts) : found);
        free(found);
    }
}

/* Only whether text exists: the wording is each agent's own. */
static void do_text(const char *name, int indom_text)
{
    static const int kinds[2] = {PM_TEXT_ONELINE, PM_TEXT_HELP};
    pmInDom indom;
    pmID pmid;
    pmDesc desc;

    if (lookup(name, &pmid, &desc) < 0)
        return;
    indom = desc.indom;
    for (int k = 0; k < 2; k++) {
        char *text = NULL;
        int sts = indom_text ? pmLookupInDomText(indom, kinds[k], &text)
                             : pmLookupText(pmid, kinds[k], &text);
        printf("  %s %s: %s\n", k == 0 ? "oneline" : "help", name,
               sts < 0 ? pmErrStr(sts) : (text[0] ? "present" : "empty"));
        free(text);
    }
}

static int conf_path(char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s/simple/simple.conf", pmGetConfig("PCP_PMDAS_DIR"));
    return n > 0 && (size_t)n < len;
}

static void do_conf(const char *text)
{
    static time_t stamp = 1000000000; /* each write moves on a day */
    char path[4096];
    FILE *f;

    if (!conf_path(path, sizeof path) || (f = fopen(path, "w")) == NULL) {
        printf("  cannot write simple.conf\n");
        return;
    }
    for (const char *p = text; *p; p++) {
        if (p[0] == '\\' && p[1] == 'n') {
            fputc('\n', f);
            p++;
        } else {
            fputc(*p, f);
        }
    }
    if (*text)
        fputc('\n', f);
    fclose(f);
    stamp += 86400;
    struct timespec times[2] = {{stamp, 0}, {stamp, 0}};
    if (utimensat(AT_FDCWD, path, times, 0) < 0)
        printf("  cannot set the time of simple.conf\n");
}

static void run(char *cmd)
{
    char *arg;

    cmd[strcspn(cmd, "\n")] = '\0';
    if (cmd[0] == '\0' || cmd[0] == '#')
        return;
    arg = strchr(cmd, ':');
    printf("%s\n", cmd);
    if (strcmp(cmd, "noconf") == 0) {
        char path[4096];
        if (conf_path(path, sizeof path))
            unlink(path);
        return;
    }
    if (arg == NULL) {
        printf("  unknown command\n");
        return;
    }
    *arg++ = '\0';
    if (strcmp(cmd, "fetch") == 0)
        do_fetch(arg);
    else if (strcmp(cmd, "store") == 0)
        do_store(arg);
    else if (strcmp(cmd, "indom") == 0)
        do_indom(arg);
    else if (strcmp(cmd, "inst") == 0 || strcmp(cmd, "instname") == 0)
        do_inst(arg, cmd[4] == 'n');
    else if (strcmp(cmd, "text") == 0 || strcmp(cmd, "indomtext") == 0)
        do_text(arg, cmd[0] == 'i');
    else if (strcmp(cmd, "conf") == 0)
        do_conf(arg);
    else
        printf("  unknown command\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *pmns = NULL;
    char line[1024];
    int i, sts, ctx;

    for (i = 1; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "-n") == 0) {
            pmns = argv[i + 1];
        } else if (strcmp(argv[i], "-K") == 0) {
            char *err = pmSpecLocalPMDA(argv[i + 1]);
            if (err != NULL) {
                fprintf(stderr, "probe_store: -K %s: %s\n", argv[i + 1], err);
                return 1;
            }
        } else {
            break;
        }
    }
    if (pmns == NULL || i != argc) {
        fprintf(stderr, "Usage: probe_store -n PMNS [-K SPEC]... < SCRIPT\n");
        return 2;
    }
    if ((sts = pmLoadASCIINameSpace(pmns, 1)) < 0) {
        fprintf(stderr, "probe_store: %s: %s\n", pmns, pmErrStr(sts));
        return 1;
    }
    if ((ctx = pmNewContext(PM_CONTEXT_LOCAL, NULL)) < 0) {
        fprintf(stderr, "probe_store: local context: %s\n", pmErrStr(ctx));
        pmUnloadNameSpace();
        return 1;
    }
    while (fgets(line, sizeof line, stdin) != NULL)
        run(line);
    pmDestroyContext(ctx);
    pmUnloadNameSpace();
    return 0;
}
