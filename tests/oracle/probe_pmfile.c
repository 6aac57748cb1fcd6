/*
 * probe_pmfile.c - __pmFILE and the archive label calls of <pcp/libpcp.h>
 * (__pmFopen and the stdio-like calls, __pmStat, __pmLogLoadLabel,
 * __pmLogChkLabel, __pmLogWriteLabel, __pmLogLabelSize, __pmLogVersion,
 * __pmLogFreeLabel, __pmLogBaseName, __pmLogFeaturesStr,
 * __pmLogMetaTypeStr), built against Debian's libpcp and pmkit's; the two
 * outputs must be identical (compare.sh).
 *
 * Files are made here, in a fresh directory under $TMPDIR: labels of
 * versions 2 and 3 written byte by byte, good and damaged (short files,
 * wrong lengths, magic and versions, full-width strings, volumes, feature
 * bits), and copies compressed with xz, lzma, bzip2 and gzip where those
 * programs are on the path (a missing one is said in the output, the same
 * for both builds).  __pmLogFindOpen and __pmLogChangeVol over archives of
 * several volumes, missing parts, compressed parts and wrong labels.
 */
#include <pcp/pmapi.h>

#include "libpcp.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[1024];

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* A label record of version v (2 or 3) into buf: its length. */
static size_t label_bytes(unsigned char *buf, int v, int vol, uint32_t features, int wide)
{
    size_t len = v == 2 ? 132 : 808;
    memset(buf, 0, len);
    put32(buf, (uint32_t)len);
    put32(buf + 4, 0x50052600u | (uint32_t)v);
    put32(buf + 8, 4242);
    if (v == 2) {
        put32(buf + 12, 1600000000u);
        put32(buf + 16, 123456);
        put32(buf + 20, (uint32_t)vol);
        memset(buf + 24, wide ? 'h' : 0, 64);
        memcpy(buf + 24, "host.two", 8);
        memset(buf + 88, wide ? 'z' : 0, 40);
        memcpy(buf + 88, "UTC", 3);
    } else {
        put32(buf + 12, 1700000000u);
        put32(buf + 16, 0);
        put32(buf + 20, 987654321);
        put32(buf + 24, (uint32_t)vol);
        put32(buf + 28, features);
        memset(buf + 36, wide ? 'h' : 0, 256);
        memcpy(buf + 36, "host.three", 10);
        memset(buf + 292, wide ? 'z' : 0, 256);
        memcpy(buf + 292, "AEST-10", 7);
        memset(buf + 548, wide ? 'i' : 0, 256);
        memcpy(buf + 548, ":Australia/Melbourne", 20);
    }
    put32(buf + len - 4, (uint32_t)len);
    return len;
}

static void write_file(const char *name, const unsigned char *buf, size_t len)
{
    char path[2048];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    if ((f = fopen(path, "w")) == NULL || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(1);
    }
}

static void show_label(const char *what, const __pmLogLabel *l)
{
    printf("  %s: magic %x pid %d start %lld.%09d vol %d features %x host %s tz %s zone %s\n", what,
           (unsigned)l->magic, l->pid, (long long)l->start.sec, l->start.nsec, l->vol,
           (unsigned)l->features, l->hostname ? l->hostname : "(null)",
           l->timezone ? l->timezone : "(null)", l->zoneinfo ? l->zoneinfo : "(null)");
}

/* Load, size, version, check as each volume, write back: one file. */
static void label_case(const char *name)
{
    char path[2048];
    __pmFILE *f;
    __pmLogLabel l, c;
    __pmLogCtl lc;
    __pmArchCtl ac;
    int sts, vols[] = {PM_LOG_VOL_TI, PM_LOG_VOL_META, 0, 1, 3};

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    printf("%s:\n", name);
    if ((f = __pmFopen(path, "r")) == NULL) {
        printf("  open: %s\n", strerror(errno));
        return;
    }
    memset(&l, 0, sizeof(l));
    sts = __pmLogLoadLabel(f, &l);
    printf("  load: %d %s, at %ld, eof %d\n", sts, sts < 0 ? pmErrStr(sts) : "", __pmFtell(f),
           __pmFeof(f) != 0);
    show_label("loaded", &l);
    __pmFseek(f, 5, SEEK_SET);
    memset(&c, 0, sizeof(c));
    sts = __pmLogLoadLabel(f, &c);
    printf("  load from 5: %d, at %ld\n", sts, __pmFtell(f));
    __pmLogFreeLabel(&c);
    memset(&lc, 0, sizeof(lc));
    memset(&ac, 0, sizeof(ac));
    ac.ac_log = &lc;
    if (sts >= 0) {
        lc.label = l;
        printf("  version %d, label size %zu\n", __pmLogVersion(&lc), __pmLogLabelSize(&lc));
    }
    for (size_t i = 0; i < sizeof(vols) / sizeof(vols[0]); i++) {
        memset(&c, 0, sizeof(c));
        __pmClearerr(f);
        __pmFseek(f, 17, SEEK_SET);
        sts = __pmLogChkLabel(&ac, f, &c, vols[i]);
        printf("  check as volume %d: %d %s, at %ld, seen %d:", vols[i], sts,
               sts < 0 ? pmErrStr(sts) : "", __pmFtell(f), lc.numseen);
        /* entries PCP adds are not initialised: only a good volume's */
        if (sts >= 0 && vols[i] >= 0)
            printf(" seen[%d] %d", vols[i], lc.seen[vols[i]]);
        putchar('\n');
        show_label("checked", &c);
        __pmLogFreeLabel(&c);
    }
    free(lc.seen);
    if (l.hostname != NULL) {
        char out[2048];
        __pmFILE *w;
        snprintf(out, sizeof(out), "%s/written", dir);
        if ((w = __pmFopen(out, "w")) != NULL) {
            struct stat st;
            sts = __pmLogWriteLabel(w, &l);
            printf("  write: %d, at %ld\n", sts, __pmFtell(w));
            __pmFclose(w);
            if (stat(out, &st) == 0)
                printf("  written: %lld bytes\n", (long long)st.st_size);
            FILE *r = fopen(out, "r");
            int ch, k = 0;
            while (r != NULL && (ch = getc(r)) != EOF) {
                if (k % 32 == 0)
                    printf("   ");
                printf("%02x", ch);
                if (++k % 32 == 0)
                    putchar('\n');
            }
            if (k % 32 != 0)
                putchar('\n');
            if (r != NULL)
                fclose(r);
            if ((w = __pmFopen(out, "r")) != NULL) {
                __pmLogLabel back;
                memset(&back, 0, sizeof(back));
                sts = __pmLogLoadLabel(w, &back);
                printf("  read back: %d\n", sts);
                show_label("back", &back);
                __pmLogFreeLabel(&back);
                __pmFclose(w);
            }
        }
    }
    __pmLogFreeLabel(&l);
    show_label("freed", &l);
    __pmFclose(f);
}

static void label_cases(void)
{
    unsigned char buf[1024], bad[1024];
    size_t n2, n3;
    int sizes[] = {0, 1, 4, 7, 8, 9, 12, 50, 131};
    char name[64];

    n2 = label_bytes(buf, 2, 0, 0, 0);
    write_file("v2.0", buf, n2);
    n3 = label_bytes(buf, 3, 0, 0, 0);
    write_file("v3.0", buf, n3);
    n3 = label_bytes(buf, 3, PM_LOG_VOL_META, 0x80000001u, 0);
    write_file("v3feat.meta", buf, n3);
    n2 = label_bytes(buf, 2, PM_LOG_VOL_TI, 0, 1);
    write_file("v2wide.index", buf, n2);
    n3 = label_bytes(buf, 3, 1, 0, 1);
    write_file("v3wide.1", buf, n3);
    n2 = label_bytes(buf, 2, 3, 0, 0);
    memcpy(buf + n2, "trailing bytes after the label", 30);
    write_file("v2more.3", buf, n2 + 30);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        n2 = label_bytes(buf, 2, 0, 0, 0);
        snprintf(name, sizeof(name), "short2-%d", sizes[i]);
        write_file(name, buf, (size_t)sizes[i]);
    }
    n3 = label_bytes(buf, 3, 0, 0, 0);
    write_file("short3-807", buf, 807);
    write_file("short3-400", buf, 400);
    for (int k = 0; k < 12; k++) {
        int v = k < 6 ? 2 : 3;
        size_t n = label_bytes(bad, v, 0, 0, 0);
        switch (k % 6) {
        case 0:
            put32(bad, 100);
            break;
        case 1:
            put32(bad + n - 4, 7);
            break;
        case 2:
            put32(bad + 4, 0xdeadbe00u | (uint32_t)v);
            break;
        case 3:
            put32(bad + 4, 0x50052601u);
            break;
        case 4:
            put32(bad + 4, 0x50052604u);
            break;
        case 5:
            put32(bad, v == 2 ? 808 : 132);
            break;
        }
        snprintf(name, sizeof(name), "bad%d-%d.0", v, k % 6);
        write_file(name, bad, n);
    }
    const char *names[] = {"v2.0",     "v3.0",     "v3feat.meta", "v2wide.index",
                           "v3wide.1", "v2more.3", "short3-807",  "short3-400"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        label_case(names[i]);
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        snprintf(name, sizeof(name), "short2-%d", sizes[i]);
        label_case(name);
    }
    for (int k = 0; k < 12; k++) {
        snprintf(name, sizeof(name), "bad%d-%d.0", k < 6 ? 2 : 3, k % 6);
        label_case(name);
    }
}

/* The stdio-like calls over one file opened with mode. */
static void file_case(const char *name, const char *mode)
{
    char path[2048], b[64];
    __pmFILE *f;
    struct stat st;
    size_t n;
    int sts;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    printf("%s \"%s\":\n", name, mode);
    memset(&st, 0, sizeof(st));
    errno = 0;
    sts = __pmStat(path, &st);
    printf("  stat: %d errno %d size %lld\n", sts, errno, (long long)st.st_size);
    errno = 0;
    f = __pmFopen(path, mode);
    printf("  open: %s errno %d\n", f != NULL ? "yes" : "no", errno);
    if (f == NULL)
        return;
    memset(&st, 0, sizeof(st));
    sts = __pmFstat(f, &st);
    printf("  fstat: %d size %lld, fileno %s, at %ld position %lld\n", sts, (long long)st.st_size,
           __pmFileno(f) >= 0 ? "yes" : "no", __pmFtell(f), (long long)f->position);
    n = __pmFread(b, 1, 10, f);
    printf("  read 10: %zu at %ld position %lld\n", n, __pmFtell(f), (long long)f->position);
    printf("  eof %d error %d\n", __pmFeof(f) != 0, __pmFerror(f) != 0);
    n = __pmFread(b, 4, 3, f);
    printf("  read 3x4: %zu at %ld\n", n, __pmFtell(f));
    sts = __pmFseek(f, 0, SEEK_END);
    printf("  seek end: %d at %ld\n", sts, __pmFtell(f));
    sts = __pmFgetc(f);
    printf("  getc at end: %d eof %d\n", sts, __pmFeof(f) != 0);
    sts = __pmFseek(f, 4, SEEK_SET);
    printf("  seek 4: %d eof %d\n", sts, __pmFeof(f) != 0);
    sts = __pmFgetc(f);
    printf("  getc: %d at %ld\n", sts, __pmFtell(f));
    sts = __pmFseek(f, -2, SEEK_CUR);
    printf("  seek -2 from here: %d at %ld\n", sts, __pmFtell(f));
    errno = 0;
    sts = __pmFseek(f, -2000, SEEK_CUR);
    printf("  seek -2000 from here: %d errno %d at %ld\n", sts, errno, __pmFtell(f));
    sts = __pmFseek(f, -3, SEEK_END);
    printf("  seek -3 from end: %d at %ld\n", sts, __pmFtell(f));
    n = __pmFread(b, 1, 10, f);
    printf("  read 10 there: %zu eof %d at %ld\n", n, __pmFeof(f) != 0, __pmFtell(f));
    sts = __pmFseek(f, 20000, SEEK_SET);
    printf("  seek 20000: %d at %ld\n", sts, __pmFtell(f));
    n = __pmFread(b, 1, 10, f);
    printf("  read there: %zu eof %d\n", n, __pmFeof(f) != 0);
    __pmClearerr(f);
    printf("  cleared: eof %d error %d\n", __pmFeof(f) != 0, __pmFerror(f) != 0);
    __pmRewind(f);
    n = __pmFread(b, 1, 8, f);
    printf("  rewound, read 8: %zu at %ld: %02x%02x%02x%02x %02x%02x%02x%02x\n", n, __pmFtell(f),
           (unsigned char)b[0], (unsigned char)b[1], (unsigned char)b[2], (unsigned char)b[3],
           (unsigned char)b[4], (unsigned char)b[5], (unsigned char)b[6], (unsigned char)b[7]);
    errno = 0;
    n = __pmFwrite(b, 1, 3, f);
    printf("  write 3: %zu errno %d error %d\n", n, errno, __pmFerror(f) != 0);
    printf("  flush: %d\n", __pmFflush(f));
    printf("  close: %d\n", __pmFclose(f));
}

static int have(const char *prog)
{
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", prog);
    return system(cmd) == 0;
}

static void compress_as(const char *prog, const char *from, const char *to)
{
    char cmd[4096];
    if (!have(prog)) {
        printf("(no %s here)\n", prog);
        return;
    }
    snprintf(cmd, sizeof(cmd), "%s -c '%s/%s' >'%s/%s'", prog, dir, from, dir, to);
    if (system(cmd) != 0)
        printf("(%s failed)\n", cmd);
}

static void file_cases(void)
{
    unsigned char buf[2048];
    size_t n = label_bytes(buf, 3, 0, 0, 0);

    for (size_t i = 0; i < 1000; i++)
        buf[n + i] = (unsigned char)(i * 7);
    write_file("data.0", buf, n + 1000);
    write_file("both.0", buf, n + 1000);
    compress_as("xz", "data.0", "both.0.xz");
    compress_as("xz", "data.0", "x.0.xz");
    compress_as("lzma", "data.0", "l.0.lzma");
    compress_as("bzip2", "data.0", "b.0.bz2");
    compress_as("bzip2", "data.0", "bb.0.bz");
    compress_as("gzip", "data.0", "g.0.gz");
    compress_as("gzip", "data.0", "gz.0.Z");
    compress_as("gzip", "data.0", "gz.0.z");
    /* damaged .xz: cut short, and not xz at all (PCP's refuses both) */
    if (have("xz")) {
        char cmd[4096];
        snprintf(cmd, sizeof(cmd), "head -c 300 '%s/x.0.xz' >'%s/cut.0.xz'", dir, dir);
        if (system(cmd) != 0)
            printf("(%s failed)\n", cmd);
    }
    write_file("junk.0.xz", (const unsigned char *)"not xz at all, only words\n", 26);
    const char *names[] = {"data.0",     "both.0",   "both.0.xz", "x.0.xz", "x.0",
                           "l.0.lzma",   "l.0",      "b.0.bz2",   "b.0",    "bb.0.bz",
                           "bb.0",       "g.0.gz",   "g.0",       "gz.0.Z", "gz.0.z",
                           "nonesuch.0", "cut.0.xz", "junk.0.xz", "cut.0"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        file_case(names[i], "r");
    file_case("x.0.xz", "w");
    file_case("g.0.gz", "w");
    file_case("g.0", "r+");
    file_case("new.0", "w");
    file_case("data.0", "a+");
    label_case("x.0.xz");
    label_case("g.0");
    label_case("b.0.bz2");
}

static void name_cases(void)
{
    const char *names[] = {"/a/b/foo.0",
                           "foo.meta.xz",
                           "foo.index",
                           "foo.12.gz",
                           "foo",
                           "foo.x",
                           "a.b.0.bz2",
                           "foo.meta",
                           "foo.0.",
                           ".0",
                           "foo.00",
                           "foo.-1",
                           "foo.index.Z",
                           "dir.d/arch.3.lzma",
                           "foo.1x",
                           "foo.meta.bz",
                           "foo.xz",
                           "foo.12345678901",
                           "",
                           "foo.0.xz.gz",
                           "x.meta.z",
                           "foo. 1",
                           "foo.+1",
                           "foo.0x1",
                           "foo.1 ",
                           "a.meta/b",
                           "foo..0",
                           "foo.index.",
                           "foo.Meta",
                           "foo.metaa",
                           "foo.bz2"};
    char buf[256];

    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        char *r;
        snprintf(buf, sizeof(buf), "%s", names[i]);
        r = __pmLogBaseName(buf);
        printf("base \"%s\": %s, buffer \"%s\"\n", names[i], r == NULL ? "NULL" : r, buf);
    }
    for (int b = -1; b < 32; b++) {
        uint32_t bits = b < 0 ? 0 : 1u << b;
        char *s = __pmLogFeaturesStr(bits);
        printf("features %08x: \"%s\"\n", (unsigned)bits, s == NULL ? "(null)" : s);
        free(s);
    }
    char *s = __pmLogFeaturesStr(0xffffffffu);
    printf("features all: \"%s\"\n", s == NULL ? "(null)" : s);
    free(s);
    for (int t = -2; t < 10; t++)
        printf("meta type %d: %s\n", t, __pmLogMetaTypeStr(t));
}

/* s, with the directory made here shown as DIR */
static const char *shown(const char *s)
{
    static char buf[2048];
    size_t n = strlen(dir);

    if (s == NULL)
        return "(null)";
    if (strncmp(s, dir, n) != 0)
        return s;
    snprintf(buf, sizeof(buf), "DIR%s", s + n);
    return buf;
}

/* __pmLogFindOpen and __pmLogChangeVol over one name (from dir). */
static void findopen_case(const char *name)
{
    __pmLogCtl lc;
    __pmArchCtl ac;
    int sts;

    memset(&lc, 0, sizeof(lc));
    memset(&ac, 0, sizeof(ac));
    ac.ac_log = &lc;
    ac.ac_curvol = -1;
    sts = __pmLogFindOpen(&ac, name);
    printf("find \"%s\": %d %s\n", shown(name), sts, sts < 0 ? pmErrStr(sts) : "");
    printf("  name %s volumes %d..%d index %s meta %s\n", shown(lc.name), lc.minvol, lc.maxvol,
           lc.tifp != NULL ? "open" : "none", lc.mdfp != NULL ? "open" : "none");
    if (sts < 0)
        return;
    for (int vol = lc.minvol - 1; vol <= lc.maxvol + 1; vol++) {
        sts = __pmLogChangeVol(&ac, vol);
        printf("  volume %d: %d %s, current %d, file %s at %ld, seen %d, label vol %d\n", vol, sts,
               sts < 0 ? pmErrStr(sts) : "", ac.ac_curvol, ac.ac_mfp != NULL ? "open" : "none",
               ac.ac_mfp != NULL ? __pmFtell(ac.ac_mfp) : -1L, lc.numseen, lc.label.vol);
    }
    if (ac.ac_mfp != NULL)
        __pmFclose(ac.ac_mfp);
    if (lc.tifp != NULL)
        __pmFclose(lc.tifp);
    if (lc.mdfp != NULL)
        __pmFclose(lc.mdfp);
    __pmLogFreeLabel(&lc.label);
    free(lc.seen);
    free(lc.name);
}

static void findopen_cases(void)
{
    unsigned char buf[1024];
    char path[2048];
    size_t n;
    const struct {
        const char *file;
        int vol;
    } files[] = {{"a.0", 0},
                 {"a.2", 2},
                 {"a.5", 5},
                 {"a.meta", PM_LOG_VOL_META},
                 {"b.1", 0},
                 {"b.meta", PM_LOG_VOL_META},
                 {"c.0", 0},
                 {"d.0", 0},
                 {"d.index", PM_LOG_VOL_TI},
                 {"e.meta", PM_LOG_VOL_META},
                 {"f.meta", -1},
                 {"g.0", 0},
                 {"g.meta", PM_LOG_VOL_META},
                 {"g.index", PM_LOG_VOL_TI},
                 {"h.meta", PM_LOG_VOL_META},
                 {"h.1", 1},
                 {"h.3", 3}};

    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        n = label_bytes(buf, files[i].file[0] == 'h' ? 3 : 2, files[i].vol, 0, 0);
        memcpy(buf + n, "more", 4);
        write_file(files[i].file, buf, n + 4);
    }
    write_file("f.0", buf, 0);
    compress_as("xz", "h.3", "h.3.xz");
    compress_as("gzip", "g.meta", "g.meta.gz");
    snprintf(path, sizeof(path), "%s/h.3", dir);
    unlink(path);
    snprintf(path, sizeof(path), "%s/g.meta", dir);
    unlink(path);
    if (chdir(dir) < 0) {
        perror(dir);
        exit(1);
    }
    const char *names[] = {"a",   "b",      "c",      "d",         "e",      "f",
                           "g",   "h",      "h.3.xz", "nonesuch",  "",       "a.",
                           "a.9", "a.meta", "./a.2",  "g.meta.gz", "d.index"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        findopen_case(names[i]);
    snprintf(path, sizeof(path), "%s/a", dir);
    findopen_case(path);
    findopen_case("/");
    if (chdir("/") < 0)
        exit(1);
}

int main(void)
{
    const char *tmpdir = getenv("TMPDIR");
    char cmd[2048];

    snprintf(dir, sizeof(dir), "%s/probe_pmfile.XXXXXX",
             tmpdir != NULL && tmpdir[0] != '\0' ? tmpdir : "/tmp");
    if (mkdtemp(dir) == NULL) {
        perror(dir);
        return 1;
    }
    label_cases();
    file_cases();
    name_cases();
    findopen_cases();
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : 1;
}
