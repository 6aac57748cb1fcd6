/*
 * probe_interp_grow.c - interpolated fetches from an archive whose data
 * volume grows while the context is open, as a logger's does: the
 * library must see the records added (interp_grow.sh runs the pmkit and
 * the Debian builds and compares what they print).
 *
 *   probe_interp_grow ARCHIVE KEEP
 *
 * ARCHIVE (a base name; its volume ARCHIVE.0 is rewritten, and its index,
 * whose entries would name offsets past the cut, must be gone) is cut
 * after its first KEEP data records; a context then fetches the first
 * four metrics (sorted names) at 1 s steps from 0.37 s after the start
 * until PM_ERR_EOL, the rest of the volume is appended, and the fetches go
 * on from there, in the same context, until PM_ERR_EOL again.  Printed:
 * the archive's end before and after, and each fetch's time, value counts
 * and first values (in place as hex, in a block as its bytes in hex).
 * Exit 0, or 1 when the files cannot be read or written.
 */
#include <pcp/pmapi.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **names;
static int nnames, room;

static void collect(const char *name)
{
    if (nnames == room) {
        room = room == 0 ? 64 : room * 2;
        if ((names = realloc(names, (size_t)room * sizeof(*names))) == NULL)
            exit(1);
    }
    names[nnames++] = strdup(name);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The volume's bytes into *buf; its length, or 0. */
static size_t slurp(const char *path, unsigned char **buf)
{
    FILE *f = fopen(path, "rb");
    long n;

    if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 ||
        fseek(f, 0, SEEK_SET) != 0 || (*buf = malloc((size_t)n)) == NULL ||
        fread(*buf, 1, (size_t)n, f) != (size_t)n) {
        if (f != NULL)
            fclose(f);
        return 0;
    }
    fclose(f);
    return (size_t)n;
}

static int put(const char *path, const char *mode, const unsigned char *p, size_t n)
{
    FILE *f = fopen(path, mode);
    int ok = f != NULL && fwrite(p, 1, n, f) == n;

    if (f != NULL && fclose(f) != 0)
        ok = 0;
    return ok;
}

static void show_end(const char *when)
{
    struct timeval end;
    int sts = pmGetArchiveEnd(&end);

    if (sts < 0)
        printf("end %s: %s\n", when, pmErrStr(sts));
    else
        printf("end %s: %ld.%06ld\n", when, (long)end.tv_sec, (long)end.tv_usec);
}

static void fetches(int n, pmID *pmids)
{
    for (int k = 0; k < 100; k++) {
        pmResult *r;
        int sts = pmFetch(n, pmids, &r);
        if (sts < 0) {
            printf("fetch: %s\n", pmErrStr(sts));
            return;
        }
        printf("%ld.%06ld", (long)r->timestamp.tv_sec, (long)r->timestamp.tv_usec);
        for (int i = 0; i < r->numpmid; i++) {
            const pmValueSet *vs = r->vset[i];
            printf(" %d", vs->numval);
            if (vs->numval <= 0)
                continue;
            if (vs->valfmt == PM_VAL_INSITU) {
                printf(":%08x", (unsigned)vs->vlist[0].value.lval);
            } else {
                const pmValueBlock *b = vs->vlist[0].value.pval;
                printf(":");
                for (unsigned j = 0; j + PM_VAL_HDR_SIZE < b->vlen; j++)
                    printf("%02x", (unsigned char)b->vbuf[j]);
            }
        }
        printf("\n");
        pmFreeResult(r);
    }
}

int main(int argc, char **argv)
{
    char path[4096];
    unsigned char *vol;
    size_t len, cut;
    int keep, sts, n;
    pmID pmids[4];
    pmLogLabel label;
    struct timeval t;

    if (argc != 3) {
        fprintf(stderr, "usage: probe_interp_grow ARCHIVE KEEP\n");
        return 1;
    }
    keep = atoi(argv[2]);
    snprintf(path, sizeof(path), "%s.0", argv[1]);
    if ((len = slurp(path, &vol)) < 4)
        return 1;
    /* the label, then KEEP records, each framed by its length */
    cut = be32(vol);
    for (int k = 0; k < keep && cut + 4 <= len && be32(vol + cut) >= 8; k++)
        cut += be32(vol + cut);
    if (cut > len || !put(path, "wb", vol, cut)) {
        fprintf(stderr, "probe_interp_grow: cannot cut %s\n", path);
        return 1;
    }
    if ((sts = pmNewContext(PM_CONTEXT_ARCHIVE, argv[1])) < 0) {
        printf("pmNewContext: %s\n", pmErrStr(sts));
        return 0;
    }
    if (pmTraversePMNS("", collect) < 0 || nnames == 0)
        return 1;
    qsort(names, (size_t)nnames, sizeof(*names), by_name);
    n = nnames < 4 ? nnames : 4;
    if ((sts = pmLookupName(n, (const char **)names, pmids)) != n)
        return 1;
    if ((sts = pmGetArchiveLabel(&label)) < 0)
        return 1;
    t = label.ll_start;
    t.tv_usec += 370000;
    if (t.tv_usec >= 1000000) {
        t.tv_sec++;
        t.tv_usec -= 1000000;
    }
    show_end("cut");
    if ((sts = pmSetMode(PM_MODE_INTERP, &t, 1000)) < 0) {
        printf("pmSetMode: %s\n", pmErrStr(sts));
        return 0;
    }
    fetches(n, pmids);
    if (!put(path, "ab", vol + cut, len - cut)) {
        fprintf(stderr, "probe_interp_grow: cannot append to %s\n", path);
        return 1;
    }
    printf("grown\n");
    fetches(n, pmids);
    show_end("grown");
    pmDestroyContext(pmWhichContext());
    for (int i = 0; i < nnames; i++)
        free(names[i]);
    free(names);
    free(vol);
    return 0;
}
