/*
 * probe_logread.c - __pmLogRead_ctx over the archives named in
 * $PMKIT_LOGREAD_ARCHIVES (space separated), built against Debian's
 * libpcp and pmkit's; the two outputs must be identical (compare.sh).
 *
 * For each archive: every record forward to PM_ERR_EOL (its stamp and
 * value set count), a few more reads past the end, then backward and
 * forward again from there, a read with the context in PM_MODE_INTERP
 * (forward), and forward from the start after pmSetMode.  After each read
 * it prints what the context's __pmArchCtl holds: the current volume, the
 * place in its file, and ac_offset/ac_vol (which the reads leave alone).
 * Not here: reading backward after pmSetMode, where the two libraries'
 * placing differs (docs/compat.md).
 */
#include <pcp/pmapi.h>

#include "libpcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int one(__pmContext *c, int mode, const char *tag)
{
    __pmArchCtl *ac = c->c_archctl;
    __pmResult *r = NULL;
    int sts = __pmLogRead_ctx(c, mode, NULL, &r, PMLOGREAD_NEXT);

    printf("%s %d", tag, sts);
    if (sts >= 0)
        printf(" %lld.%09d numpmid %d", (long long)r->timestamp.sec, (int)r->timestamp.nsec,
               r->numpmid);
    printf(" curvol %d tell %ld vol %d offset %ld\n", ac->ac_curvol,
           ac->ac_mfp != NULL ? (long)__pmFtell(ac->ac_mfp) : -1L, ac->ac_vol, ac->ac_offset);
    if (sts >= 0)
        __pmFreeResult(r);
    return sts;
}

static void show_mode(int h, const char *what)
{
    __pmContext *c = __pmHandleToPtr(h);

    if (c == NULL)
        return;
    printf("c_mode %s: %#x\n", what, (unsigned)c->c_mode);
    PM_UNLOCK(c->c_lock);
}

static int probe(const char *name)
{
    pmLogLabel label;
    __pmContext *c;
    int h, sts, i;

    printf("== %s\n", strrchr(name, '/') != NULL ? strrchr(name, '/') + 1 : name);
    if ((h = pmNewContext(PM_CONTEXT_ARCHIVE, name)) < 0) {
        printf("pmNewContext: %s\n", pmErrStr(h));
        return 1;
    }
    show_mode(h, "after the open");
    if ((c = __pmHandleToPtr(h)) == NULL)
        return 1;
    PM_UNLOCK(c->c_lock);
    for (i = 0; i < 100000; i++)
        if (one(c, PM_MODE_FORW, "forw") < 0)
            break;
    one(c, PM_MODE_FORW, "past");
    for (i = 0; i < 4; i++)
        one(c, PM_MODE_BACK, "back");
    for (i = 0; i < 2; i++)
        one(c, PM_MODE_FORW, "forw");
    one(c, PM_MODE_INTERP, "interp");
    if ((sts = pmGetArchiveLabel(&label)) < 0 ||
        (sts = pmSetMode(PM_MODE_FORW, &label.ll_start, 0)) < 0) {
        printf("label/pmSetMode: %s\n", pmErrStr(sts));
        return 1;
    }
    for (i = 0; i < 3; i++)
        one(c, PM_MODE_FORW, "start");
    /* the view's c_mode: the mode as pmSetMode was last given it */
    show_mode(h, "after the reads");
    pmSetMode(PM_MODE_BACK, &label.ll_start, 0);
    show_mode(h, "back");
    pmSetMode(PM_MODE_INTERP, &label.ll_start, 1000);
    show_mode(h, "interp");
    pmSetMode(PM_MODE_INTERP | PM_XTB_SET(PM_TIME_SEC), &label.ll_start, 2);
    show_mode(h, "interp, seconds");
    pmDestroyContext(h);
    return 0;
}

int main(void)
{
    const char *list = getenv("PMKIT_LOGREAD_ARCHIVES");
    char *copy, *name, *save = NULL;
    int bad = 0;

    if (list == NULL || (copy = strdup(list)) == NULL) {
        fprintf(stderr, "probe_logread: PMKIT_LOGREAD_ARCHIVES is not set\n");
        return 2;
    }
    for (name = strtok_r(copy, " ", &save); name != NULL; name = strtok_r(NULL, " ", &save))
        bad |= probe(name);
    free(copy);
    return bad;
}
