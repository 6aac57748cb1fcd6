/*
 * logindom.c - instance domain records as PCP's internal archive interface
 * hands them out (<pcp/libpcp.h>): __pmLogLoadInDom decodes one metadata
 * record (TYPE_INDOM_V2, TYPE_INDOM, TYPE_INDOM_DELTA) into a
 * __pmLogInDom, __pmFreeLogInDom releases what such a structure owns, and
 * __pmLogUndeltaInDom makes a delta whole from the entries before it.
 *
 * As Debian's PCP 6.0.3 (oracle.logindom, oracle.debian_pmdumplog,
 * oracle.testsuite_logmeta): the record's instance identifiers are
 * converted in place in the caller's buffer, its header words and name
 * offsets are not; instlist points into the
 * buffer, namelist is malloc'd (PMLID_NAMELIST) and its names point into
 * the buffer, a delta's removed instance has a NULL name; isdelta is left
 * 0 (the caller knows the type); a record of another type, one the
 * metadata file cannot supply whole, or a whole one with a name offset
 * below 0, is PM_ERR_LOGREC.  Where the length
 * is known (read here, from acp's metadata file) every count and offset
 * is checked against it: a record whose instances or names fall outside
 * it is PM_ERR_LOGREC, where PCP reads past the record.  Undelta merges
 * the instance lists in identifier order, as PCP writes them, as PCP's
 * does; PCP's assumes that order and corrupts its heap on others,
 * pmkit's does not.
 *
 * Not here: the chains of a context's __pmLogCtl (context/logview.c).
 */
#include "arch_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/libpcp.h>

/* The names of lidp's instances from its record's string table at str
 * (len bytes there, or 0 when the caller's buffer is of unknown length):
 * 0, or PM_ERR_LOGREC for a name outside the record. */
static int load_names(__pmLogInDom *lidp, int delta, const int32_t *idx, char *str, size_t len)
{
    for (int i = 0; i < lidp->numinst; i++) {
        int32_t off = (int32_t)ntohl((uint32_t)idx[i]);
        if (off < 0 && !delta)
            return PM_ERR_LOGREC;
        if (off < 0) {
            lidp->namelist[i] = NULL;
            continue;
        }
        if (len != 0 && ((size_t)off >= len || memchr(str + off, '\0', len - (size_t)off) == NULL))
            return PM_ERR_LOGREC;
        lidp->namelist[i] = str + off;
    }
    return 0;
}

/* The record at buf (have bytes, 0 when unknown) into lidp. */
static int decode(int type, int32_t *buf, size_t have, __pmLogInDom *lidp)
{
    size_t k = type == TYPE_INDOM_V2 ? 2 : 3, n;
    int32_t *idx;

    if (have != 0 && have < (k + 2) * 4)
        return PM_ERR_LOGREC;
    memset(lidp, 0, sizeof(*lidp));
    if (type == TYPE_INDOM_V2)
        __pmLoadTimeval(buf, &lidp->stamp);
    else
        __pmLoadTimestamp(buf, &lidp->stamp);
    lidp->indom = ntohl((uint32_t)buf[k]);
    lidp->numinst = (int)ntohl((uint32_t)buf[k + 1]);
    lidp->instlist = (int *)&buf[k + 2];
    if (lidp->numinst <= 0)
        return 0;
    n = (size_t)lidp->numinst;
    if (have != 0 && (have / 4 - (k + 2)) / 2 < n)
        return PM_ERR_LOGREC;
    idx = &buf[k + 2 + n];
    for (size_t i = 0; i < n; i++)
        lidp->instlist[i] = (int)ntohl((uint32_t)lidp->instlist[i]);
    if ((lidp->namelist = malloc(n * sizeof(char *))) == NULL)
        return -ENOMEM;
    lidp->alloc = PMLID_NAMELIST;
    return load_names(lidp, type == TYPE_INDOM_DELTA, idx, (char *)&idx[n],
                      have != 0 ? have - (k + 2 + 2 * n) * 4 : 0);
}

int __pmLogLoadInDom(__pmArchCtl *acp, int rlen, int type, __pmLogInDom *lidp, int32_t **bufp)
{
    int32_t *buf = *bufp;
    size_t have = 0;
    int sts;

    if (acp != NULL) {
        if (rlen < 0 || acp->ac_log == NULL || acp->ac_log->mdfp == NULL)
            return PM_ERR_LOGREC;
        if ((buf = malloc(rlen > 0 ? (size_t)rlen : 1)) == NULL)
            return -ENOMEM;
        if (__pmFread(buf, 1, (size_t)rlen, acp->ac_log->mdfp) != (size_t)rlen) {
            free(buf);
            *bufp = NULL;
            return PM_ERR_LOGREC;
        }
        *bufp = buf;
        have = (size_t)rlen;
        if (have == 0)
            return PM_ERR_LOGREC;
    }
    if (type != TYPE_INDOM_V2 && type != TYPE_INDOM && type != TYPE_INDOM_DELTA)
        return PM_ERR_LOGREC;
    if ((sts = decode(type, buf, have, lidp)) < 0) {
        free(lidp->namelist);
        lidp->namelist = NULL;
        lidp->alloc = 0;
    }
    return sts;
}

void __pmFreeLogInDom(__pmLogInDom *lidp)
{
    if (lidp == NULL)
        return;
    if ((lidp->alloc & PMLID_NAMES) && lidp->namelist != NULL)
        for (int i = 0; i < lidp->numinst; i++)
            free(lidp->namelist[i]);
    if (lidp->alloc & PMLID_NAMELIST)
        free(lidp->namelist);
    if (lidp->alloc & PMLID_INSTLIST)
        free(lidp->instlist);
    if (lidp->alloc & PMLID_SELF)
        free(lidp);
}

/* delta made whole over full (whole already): the merge of the two lists
 * in identifier order; where both have an instance, the delta's removal
 * takes full's out, its addition comes after full's (both kept, as in
 * Debian's library). */
static int undelta_one(const __pmLogInDom *full, __pmLogInDom *delta)
{
    int n = full->numinst + delta->numinst, i = 0, j = 0, k = 0;
    int *inst = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    char **name = malloc((size_t)(n > 0 ? n : 1) * sizeof(char *));

    if (inst == NULL || name == NULL) {
        free(inst);
        free(name);
        return -ENOMEM;
    }
    while (i < full->numinst || j < delta->numinst) {
        int fi = i < full->numinst ? full->instlist[i] : 0;
        int dj = j < delta->numinst ? delta->instlist[j] : 0;
        if (j >= delta->numinst || (i < full->numinst && fi < dj)) {
            inst[k] = fi;
            name[k++] = full->namelist[i++];
            continue;
        }
        if (i < full->numinst && fi == dj) {
            if (delta->namelist[j] == NULL) {
                i++;
            } else {
                inst[k] = fi;
                name[k++] = full->namelist[i++];
            }
        }
        if (delta->namelist[j] != NULL) {
            inst[k] = dj;
            name[k++] = delta->namelist[j];
        }
        j++;
    }
    if (delta->alloc & PMLID_INSTLIST)
        free(delta->instlist);
    if (delta->alloc & PMLID_NAMELIST)
        free(delta->namelist);
    delta->instlist = inst;
    delta->namelist = name;
    delta->numinst = k;
    delta->isdelta = 0;
    delta->alloc |= PMLID_INSTLIST | PMLID_NAMELIST;
    return 0;
}

/* lidp over the entries before it, as Debian's library does it: from the
 * nearest whole entry before lidp (through next), each entry after it
 * (through prior) up to lidp merged in turn with the one before, whether
 * or not it is a delta (callers ask for deltas: a whole entry merged
 * again keeps both copies of each instance, as in PCP).  Without a whole
 * entry before it, or without prior links up to it, lidp is left as it
 * is (PCP's prints a dump of the chain where there is no whole entry). */
void __pmLogUndeltaInDom(pmInDom indom, __pmLogInDom *lidp)
{
    __pmLogInDom *full;

    (void)indom;
    if (lidp == NULL)
        return;
    for (full = lidp->next; full != NULL && full->isdelta; full = full->next)
        ;
    if (full == NULL)
        return;
    for (__pmLogInDom *d = full->prior; d != NULL; full = d, d = d->prior) {
        if (undelta_one(full, d) < 0 || d == lidp)
            return;
    }
}
