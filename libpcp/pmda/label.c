/*
 * label.c - metric labels on the agent side: pmdaLabel (the default
 * method), pmdaAddLabels, pmdaAddNotes and pmdaAddLabelFlags.
 *
 * The JSON and the two forms of a set are libpcp's (libpcp/labels/labels.c):
 * the first labels added to a set keep the agent's order and nesting, and
 * every later addition merges into one flat object sorted by name, as
 * PCP's sets do.  A label named twice in one call, or a name that is not
 * PMNS-like, is refused with -EINVAL and logged.
 *
 * pmdaLabel, the method of agents that have none of their own (and that
 * theirs call last): the domain's labels default to {"agent":NAME}, NAME
 * the agent's name as __pmGetDomainLabels shortens it; the context's to those of
 * $PCP_SYSCONF_DIR/labels and its optional/ directory, read as libpcp reads them (labelget.c), and
 * only if the labels directory itself gave some: none is no set, -ENOENT
 * without the directory (the host's own labels are the client's to add);
 * the instances'
 * are one set per instance of the domain selected by the profile, each
 * filled by the agent's instance label callback (pmdaSetLabelCallBack) and
 * made one flat object sorted by name, as PCP's are.
 * Every label gets the class it was asked for as flags.
 */
#include "pmda_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int add_labels(const char *who, pmLabelSet **lpp, int flags, const char *fmt, va_list ap)
{
    char text[PM_MAXLABELJSONLEN + 1];
    int sts;

    vsnprintf(text, sizeof(text), fmt, ap);
    if ((sts = __pmAddLabels(lpp, text, flags)) < 0)
        pmNotifyErr(LOG_ERR, "%s: %s (%s)", who, text, pmErrStr(sts));
    return sts;
}

int pmdaAddLabels(pmLabelSet **lpp, const char *fmt, ...)
{
    va_list ap;
    int sts;

    va_start(ap, fmt);
    sts = add_labels("pmdaAddLabels", lpp, 0, fmt, ap);
    va_end(ap);
    return sts;
}

int pmdaAddNotes(pmLabelSet **lpp, const char *fmt, ...)
{
    va_list ap;
    int sts;

    va_start(ap, fmt);
    sts = add_labels("pmdaAddNotes", lpp, PM_LABEL_OPTIONAL, fmt, ap);
    va_end(ap);
    return sts;
}

int pmdaAddLabelFlags(pmLabelSet *set, int flags)
{
    if (set == NULL)
        return 0;
    for (int i = 0; i < set->nlabels; i++)
        set->labels[i].flags |= (unsigned)flags & 0xff;
    return 1;
}

/* Labels for each instance of indom the profile selects, from the agent's
 * callback: the number of sets. */
static int instance_labels(pmInDom indom, pmLabelSet **lpp, pmdaExt *pmda)
{
    pmdaLabelCallBack cb = pmda->e_labelCallBack;
    pmLabelSet *sets;
    int n = __pmdaCntInst(indom, pmda), k = 0, inst;

    if (n <= 0)
        return 0;
    if ((sets = calloc((size_t)n, sizeof(*sets))) == NULL)
        return -ENOMEM;
    __pmdaStartInst(indom, pmda);
    while (k < n && __pmdaNextInst(&inst, pmda)) {
        pmLabelSet *one = NULL;
        if (cb != NULL && cb(indom, (unsigned)inst, &one) < 0) {
            pmFreeLabelSets(one, 1);
            one = NULL;
        }
        if (one != NULL) {
            sets[k] = *one;
            free(one);
            __pmkit_flatten_labels(&sets[k]);
            pmdaAddLabelFlags(&sets[k], PM_LABEL_INSTANCES);
        }
        sets[k++].inst = (unsigned)inst;
    }
    if (k == 0) {
        free(sets);
        return 0;
    }
    *lpp = sets;
    return k;
}

int pmdaLabel(int ident, int type, pmLabelSet **lpp, pmdaExt *pmda)
{
    int sts;

    switch (type & ~PM_LABEL_COMPOUND) {
    case PM_LABEL_CONTEXT:
        if (lpp != NULL && *lpp == NULL) {
            /* the files' labels, flagged already; none is no set */
            if ((sts = __pmGetContextLabels(lpp)) == 0) {
                pmFreeLabelSets(*lpp, *lpp != NULL ? 1 : 0);
                *lpp = NULL;
            }
            return sts;
        }
        break;
    case PM_LABEL_DOMAIN:
        /* the agent's name as libpcp gives it ("pmdaproc", "proc DSO": proc) */
        if (lpp != NULL && *lpp == NULL && pmda != NULL && pmda->e_name != NULL &&
            (sts = __pmGetDomainLabels(pmda->e_domain, pmda->e_name, lpp)) < 0)
            return sts;
        break;
    case PM_LABEL_INDOM:
    case PM_LABEL_CLUSTER:
    case PM_LABEL_ITEM:
        break;
    case PM_LABEL_INSTANCES:
        return lpp != NULL && pmda != NULL ? instance_labels((pmInDom)ident, lpp, pmda) : 0;
    default:
        return PM_ERR_TYPE;
    }
    if (lpp == NULL || *lpp == NULL)
        return 0;
    pmdaAddLabelFlags(*lpp, type);
    return 1;
}
