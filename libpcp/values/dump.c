/*
 * dump.c - libpcp's debugging dumps of results and lists, in PCP's words
 * and layout (<pcp/libpcp.h>): __pmDumpResult, __pmDumpHighResResult and
 * __pmPrintResult (the three result forms), __pmDumpIDList,
 * __pmDumpInResult, __pmDumpNameList, __pmDumpStatusList and
 * __pmPrintMetricNames.  Test programs and dbpmda print these, so every
 * byte is Debian's (tests/oracle/probe_internal.c).
 *
 * A value set is shown with the metric's names (every name of its PMID)
 * and, when its descriptor can be had from the current context, values of
 * the metric's type and instance names; without one, the only value of
 * a set with no instance (PM_IN_NULL) has no instance part, and 32-bit
 * values are shown every way (pmPrintValue's unknown type)
 * and blocks as their own type says.  Not here: printing one value (printvalue.c).
 */
#include "values.h"

#include <stdio.h>
#include <stdlib.h>

#include <pcp/libpcp.h>

/* "name, name, ..." of pmid, or <noname>. */
static void print_names(FILE *f, pmID pmid)
{
    char **names = NULL;
    int n = pmNameAll(pmid, &names);

    if (n <= 0) {
        fputs("<noname>", f);
        return;
    }
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%s", i ? ", " : "", names[i]);
    free(names);
}

/* One value of a value set, after its instance. */
static void print_value(FILE *f, const pmValueSet *vs, int j, const pmDesc *desc)
{
    const pmValue *v = &vs->vlist[j];
    int type;

    if (desc != NULL ? desc->indom == PM_INDOM_NULL
                     : vs->numval == 1 && v->inst == (int)PM_IN_NULL) {
        fputs("   value ", f);
    } else {
        char *name = NULL;
        fprintf(f, "    inst [%d or ", v->inst);
        if (desc != NULL && pmNameInDom(desc->indom, v->inst, &name) >= 0) {
            fprintf(f, "\"%s\"", name);
            free(name);
        } else {
            fputs("???", f);
        }
        fputs("] value ", f);
    }
    if (desc != NULL)
        type = desc->type;
    else if (vs->valfmt == PM_VAL_INSITU || v->value.pval == NULL)
        type = PM_TYPE_UNKNOWN;
    else
        type = v->value.pval->vtype;
    pmPrintValue(f, vs->valfmt, type, v, 1);
    fputc('\n', f);
}

/* The value sets of a result, after its header line. */
static void print_vsets(FILE *f, int numpmid, pmValueSet *const *vset)
{
    for (int i = 0; i < numpmid; i++) {
        const pmValueSet *vs = vset[i];
        pmDesc desc;
        int have;

        fprintf(f, "  %s (", pmIDStr(vs->pmid));
        print_names(f, vs->pmid);
        fputs("):", f);
        if (vs->numval < 0) {
            fprintf(f, " %s\n", pmErrStr(vs->numval));
            continue;
        }
        if (vs->numval == 0) {
            fputs(" No values returned!\n", f);
            continue;
        }
        have = pmLookupDesc(vs->pmid, &desc) >= 0;
        fprintf(f, " numval: %d valfmt: %d vlist[]:\n", vs->numval, vs->valfmt);
        for (int j = 0; j < vs->numval; j++)
            print_value(f, vs, j, have ? &desc : NULL);
    }
}

void __pmDumpResult(FILE *f, const pmResult *rp)
{
    fprintf(f, "pmResult dump from %p timestamp: %lld.%06d ", (const void *)rp,
            (long long)rp->timestamp.tv_sec, (int)rp->timestamp.tv_usec);
    pmPrintStamp(f, &rp->timestamp);
    fprintf(f, " numpmid: %d\n", rp->numpmid);
    print_vsets(f, rp->numpmid, rp->vset);
}

void __pmDumpHighResResult(FILE *f, const pmHighResResult *rp)
{
    fprintf(f, "pmHighResResult dump from %p timestamp: %lld.%09ld ", (const void *)rp,
            (long long)rp->timestamp.tv_sec, (long)rp->timestamp.tv_nsec);
    pmPrintHighResStamp(f, &rp->timestamp);
    fprintf(f, " numpmid: %d\n", rp->numpmid);
    print_vsets(f, rp->numpmid, rp->vset);
}

void __pmPrintResult(FILE *f, const __pmResult *rp)
{
    struct timespec ts = {(time_t)rp->timestamp.sec, rp->timestamp.nsec};

    fprintf(f, "__pmResult dump from %p timestamp: %lld.%09d ", (const void *)rp,
            (long long)rp->timestamp.sec, (int)rp->timestamp.nsec);
    pmPrintHighResStamp(f, &ts);
    fprintf(f, " numpmid: %d\n", rp->numpmid);
    print_vsets(f, rp->numpmid, rp->vset);
}

void __pmDumpIDList(FILE *f, int numids, const pmID *list)
{
    fprintf(f, "IDlist dump: numids = %d\n", numids);
    for (int i = 0; i < numids; i++)
        fprintf(f, "  PMID[%d]: 0x%08x %s\n", i, list[i], pmIDStr(list[i]));
}

void __pmDumpInResult(FILE *f, const pmInResult *irp)
{
    fprintf(f, "pmInResult dump from %p for InDom %s (0x%x), numinst=%d\n", (const void *)irp,
            pmInDomStr(irp->indom), irp->indom, irp->numinst);
    for (int i = 0; i < irp->numinst; i++) {
        fprintf(f, "  [%d]", i);
        if (irp->instlist != NULL)
            fprintf(f, " inst=%d", irp->instlist[i]);
        if (irp->namelist != NULL)
            fprintf(f, " name=\"%s\"", irp->namelist[i] ? irp->namelist[i] : "(null)");
        fputc('\n', f);
    }
}

void __pmDumpNameList(FILE *f, int numnames, const char **namelist)
{
    fprintf(f, "namelist dump: numnames = %d\n", numnames);
    for (int i = 0; i < numnames; i++)
        fprintf(f, "  name[%d]: \"%s\"\n", i, namelist[i] ? namelist[i] : "(null)");
}

void __pmDumpStatusList(FILE *f, int numstatus, const int *statuslist)
{
    fprintf(f, "statuslist dump: numstatus = %d\n", numstatus);
    for (int i = 0; i < numstatus; i++)
        fprintf(f, "  status[%d]: %d\n", i, statuslist[i]);
}

void __pmPrintMetricNames(FILE *f, int numnames, char **names, char *sep)
{
    if (numnames <= 0) {
        fputs("<nonames>", f);
        return;
    }
    for (int i = 0; i < numnames; i++)
        fprintf(f, "%s%s", i ? sep : "", names[i]);
}
