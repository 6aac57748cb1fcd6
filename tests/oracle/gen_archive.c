/*
 * gen_archive.c - writes a synthetic PCP archive (LOGARCHIVE(5), version 2
 * or 3) for the archive differential test (archive_diff.sh), the archive
 * benchmark (bench/archive_bench.sh) and the seeds of the archive fuzz
 * targets, without any PCP library: every record is laid out byte by byte
 * here, as a logger would write it.  Debian's pmdumplog and pmlogcheck
 * read what it writes.
 *
 *   gen_archive [-V 2|3] [-m METRICS] [-i INSTANCES] [-n SAMPLES]
 *               [-t MSEC] [-v VOLUME_MB] [-x EVERY] [-s START] [-e] [-w] [-k] [-o]
 *               NAME
 *
 * METRICS metrics (default 2000), one in ten over an instance domain of
 * INSTANCES instances (default 20; one domain per 100 metrics), the others
 * singular; types cycle U64 counters (the commonest in real archives),
 * U32, DOUBLE, 64 and, one in fifty, STRING.  SAMPLES records (default
 * 3600) MSEC apart (default 1000) from START (seconds since the epoch,
 * default 1700000000), each holding every metric, a <mark> at the end; a
 * new data volume each VOLUME_MB megabytes (default 1024); a temporal
 * index entry every EVERY records (default 10) and at each volume.  -e
 * adds what seeds need beyond that: help text, label sets of every class,
 * a later observation of each instance domain (a v3 delta in version 3,
 * removing and adding an instance), an event record metric.  -w gives
 * metrics 1 to 3 names a PMNS file cannot hold but agents may export
 * (root.*, a '-', event.* beside the derived metrics).  -k is for the
 * interpolation test: metric m has type m % 8 (every type but events) and
 * semantics counter, instant or discrete by m % 3; 32-bit unsigned
 * counters wrap, signed ones go down; an instance is missing from the
 * samples s where (s + instance) % 5 == 0; every 13th sample is followed by
 * a <mark> and a gap of 2.5 intervals; sample times jitter by up to 0.3 of
 * an interval.  -o (for the interpolation cache's test) logs one metric in
 * four once, in one of the first five samples, and one in four only in
 * the last two samples.
 *
 * Values are a function of (metric, instance, sample), so two runs with
 * the same arguments write the same bytes.  Not a logger: no pmcd, no
 * configuration, no archive folio.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOG_MAGIC 0x50052600u

typedef struct buf {
    unsigned char *p;
    size_t len, cap;
} buf;

static void grow(buf *b, size_t n)
{
    if (b->len + n <= b->cap)
        return;
    while (b->cap < b->len + n)
        b->cap = b->cap == 0 ? 4096 : b->cap * 2;
    if ((b->p = realloc(b->p, b->cap)) == NULL) {
        perror("gen_archive");
        exit(1);
    }
}

static void put32(buf *b, uint32_t v)
{
    grow(b, 4);
    b->p[b->len++] = (unsigned char)(v >> 24);
    b->p[b->len++] = (unsigned char)(v >> 16);
    b->p[b->len++] = (unsigned char)(v >> 8);
    b->p[b->len++] = (unsigned char)v;
}

static void put64(buf *b, uint64_t v)
{
    put32(b, (uint32_t)(v >> 32));
    put32(b, (uint32_t)v);
}

static void putbytes(buf *b, const void *s, size_t n)
{
    grow(b, n);
    memcpy(b->p + b->len, s, n);
    b->len += n;
}

static void set32(buf *b, size_t at, uint32_t v)
{
    b->p[at] = (unsigned char)(v >> 24);
    b->p[at + 1] = (unsigned char)(v >> 16);
    b->p[at + 2] = (unsigned char)(v >> 8);
    b->p[at + 3] = (unsigned char)v;
}

/* A time: v2 seconds and microseconds; v3 the seconds in two words, low
 * word first (as PCP 6.0.3 writes them), then nanoseconds. */
static void put_stamp(buf *b, int version, int64_t sec, long nsec)
{
    if (version == 3) {
        put32(b, (uint32_t)sec);
        put32(b, (uint32_t)((uint64_t)sec >> 32));
        put32(b, (uint32_t)nsec);
    } else {
        put32(b, (uint32_t)sec);
        put32(b, (uint32_t)(nsec / 1000));
    }
}

/* Start a framed record (its length word); end_rec fills both words. */
static size_t begin_rec(buf *b)
{
    size_t at = b->len;

    put32(b, 0);
    return at;
}

static void end_rec(buf *b, size_t at)
{
    uint32_t n = (uint32_t)(b->len - at + 4);

    set32(b, at, n);
    put32(b, n);
}

typedef struct gen {
    int version;
    int metrics, instances, samples, every, extra, odd, kinds;
    long msec;
    uint64_t volbytes;
    int64_t start;
    const char *name;
    pid_t pid;
    int once; /* -o */
} gen;

static void put_field(buf *b, const char *s, size_t width)
{
    size_t n = strlen(s);

    grow(b, width);
    memset(b->p + b->len, 0, width);
    memcpy(b->p + b->len, s, n < width ? n : width - 1);
    b->len += width;
}

static void put_label(buf *b, const gen *g, int vol)
{
    size_t at = begin_rec(b);

    put32(b, LOG_MAGIC | (uint32_t)g->version);
    put32(b, (uint32_t)g->pid);
    put_stamp(b, g->version, g->start, 0);
    put32(b, (uint32_t)vol);
    if (g->version == 3) {
        put32(b, 0); /* features */
        put32(b, 0); /* reserved */
        put_field(b, "bench-host.example", 256);
        put_field(b, "UTC", 256);
        put_field(b, ":UTC", 256);
    } else {
        put_field(b, "bench-host.example", 64);
        put_field(b, "UTC", 40);
    }
    end_rec(b, at);
}

static FILE *open_file(const gen *g, const char *suffix)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof(path), "%s.%s", g->name, suffix);
    if ((f = fopen(path, "wb")) == NULL) {
        fprintf(stderr, "gen_archive: %s: %s\n", path, strerror(errno));
        exit(1);
    }
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    return f;
}

static void flush(buf *b, FILE *f)
{
    if (b->len > 0 && fwrite(b->p, 1, b->len, f) != b->len) {
        perror("gen_archive: write");
        exit(1);
    }
    b->len = 0;
}

/* ------------------------------------------------------------------ */
/* Metrics. */

enum {
    T32 = 0,
    TU32 = 1,
    T64 = 2,
    TU64 = 3,
    TFLOAT = 4,
    TDOUBLE = 5,
    TSTRING = 6,
    TAGGR = 7,
    TEVENT = 9
};

static uint32_t pmid_of(int m)
{
    return (uint32_t)(245u << 22 | (uint32_t)(m / 1000) << 10 | (uint32_t)(m % 1000));
}

static uint32_t indom_of(int m)
{
    return m % 10 == 0 ? (uint32_t)(245u << 22 | (uint32_t)(m / 100 + 1)) : 0xffffffffu;
}

static int type_of(const gen *g, int m)
{
    static const int cycle[] = {TU64, TU64, TU64, TU32, TDOUBLE, TU64, T64, TU64, TU32, TU64};

    if (g->extra && m == 1)
        return TEVENT;
    if (g->kinds)
        return m % 8;
    if (m % 50 == 7)
        return TSTRING;
    return cycle[m % 10];
}

static void put_desc(buf *b, const gen *g, int m)
{
    char name[64];
    size_t at = begin_rec(b);
    int type = type_of(g, m);
    uint32_t units = type == TU64 ? 0x00100000u : 0; /* count (counters), or none */
    uint32_t sem = type == TU64 ? 1u : 3u;           /* counter, instant */

    if (g->kinds)
        sem = m % 3 == 0 ? 1u : m % 3 == 1 ? 3u : 4u; /* counter, instant, discrete */

    static const char *const odd[] = {"root.group%d.metric%d", "bench-group%d.metric%d",
                                      "event.group%d.metric%d"};

    if (g->odd && m >= 1 && m <= 3)
        snprintf(name, sizeof(name), odd[m - 1], m / 100, m);
    else
        snprintf(name, sizeof(name), "bench.group%d.metric%d", m / 100, m);
    put32(b, 1); /* TYPE_DESC */
    put32(b, pmid_of(m));
    put32(b, (uint32_t)type);
    put32(b, indom_of(m));
    put32(b, sem);
    put32(b, units);
    put32(b, 1);
    put32(b, (uint32_t)strlen(name));
    putbytes(b, name, strlen(name));
    end_rec(b, at);
}

/* One observation of the instance domain of group grp: instances from
 * first, n of them; a v3 delta (-e) removes the first and adds one. */
static void put_indom(buf *b, const gen *g, int grp, int64_t sec, int delta)
{
    size_t at = begin_rec(b), tab = 0;
    int n = delta ? 2 : g->instances;
    char names[64];

    put32(b, g->version == 3 ? (delta ? 6u : 5u) : 2u);
    put_stamp(b, g->version, sec, 0);
    put32(b, (uint32_t)(245u << 22 | (uint32_t)(grp + 1)));
    put32(b, (uint32_t)n);
    for (int i = 0; i < n; i++)
        put32(b, (uint32_t)(delta ? (i == 0 ? 0 : g->instances) : i));
    for (int i = 0; i < n; i++) {
        if (delta && i == 0) {
            put32(b, 0xffffffffu); /* removed */
            continue;
        }
        put32(b, (uint32_t)tab);
        tab += (size_t)snprintf(names, sizeof(names), "inst-%d", delta ? g->instances : i) + 1;
    }
    for (int i = 0; i < n; i++) {
        int inst = delta ? (i == 0 ? -1 : g->instances) : i;
        if (inst < 0)
            continue;
        snprintf(names, sizeof(names), "inst-%d", inst);
        putbytes(b, names, strlen(names) + 1);
    }
    end_rec(b, at);
}

static void put_text(buf *b, uint32_t type, uint32_t ident, const char *text)
{
    size_t at = begin_rec(b);

    put32(b, 4);
    put32(b, type);
    put32(b, ident);
    putbytes(b, text, strlen(text) + 1);
    end_rec(b, at);
}

/* A label record of one set holding {"NAME":VALUE}. */
static void put_labels(buf *b, const gen *g, uint32_t type, uint32_t ident, uint32_t inst,
                       const char *name, const char *value)
{
    char json[256];
    size_t at = begin_rec(b);
    int n = snprintf(json, sizeof(json), "{\"%s\":%s}", name, value);

    put32(b, g->version == 3 ? 7u : 3u);
    put_stamp(b, g->version, g->start, 0);
    put32(b, type);
    put32(b, ident);
    put32(b, 1);
    put32(b, inst);
    put32(b, (uint32_t)n);
    putbytes(b, json, (size_t)n);
    put32(b, 1);
    grow(b, 8);
    b->p[b->len++] = 0;
    b->p[b->len++] = 2;
    b->p[b->len++] = (unsigned char)strlen(name);
    b->p[b->len++] = (unsigned char)type;
    b->p[b->len++] = 0;
    b->p[b->len++] = (unsigned char)(strlen(name) + 4);
    b->p[b->len++] = 0;
    b->p[b->len++] = (unsigned char)strlen(value);
    end_rec(b, at);
}

static void put_extra_meta(buf *b, const gen *g)
{
    put_text(b, 1 | 4, pmid_of(0), "the first metric");
    put_text(b, 2 | 4, pmid_of(0), "The first metric,\nwith a long help text.");
    put_text(b, 1 | 8, indom_of(0), "the first instance domain");
    put_labels(b, g, 1, 0xffffffffu, 0xffffffffu, "hostname", "\"bench-host\"");
    put_labels(b, g, 2, 245, 0xffffffffu, "agent", "\"bench\"");
    put_labels(b, g, 4, indom_of(0), 0xffffffffu, "device_type", "\"disk\"");
    put_labels(b, g, 8, pmid_of(0) & ~0x3ffu, 0xffffffffu, "cluster", "\"zero\"");
    put_labels(b, g, 16, pmid_of(0), 0xffffffffu, "units", "\"count\"");
    put_labels(b, g, 32, indom_of(0), 1, "device", "\"sda\"");
}

/* ------------------------------------------------------------------ */
/* Values. */

static uint64_t value_of(int m, int inst, int sample)
{
    return (uint64_t)sample * (uint64_t)(m + 1) * 1000u + (uint64_t)(inst < 0 ? 0 : inst);
}

/* One value block (type, length, payload) at the end of blocks. */
static void put_block(buf *blocks, int type, const void *payload, size_t len)
{
    put32(blocks, (uint32_t)type << 24 | (uint32_t)(len + 4));
    putbytes(blocks, payload, len);
    while (blocks->len % 4 != 0)
        putbytes(blocks, "~", 1);
}

/* An event array of one record of one parameter (the first metric). */
static void put_event(buf *blocks, const gen *g, int64_t sec)
{
    buf e = {0};

    put32(&e, 1); /* records */
    put32(&e, (uint32_t)sec);
    put32(&e, 0);
    put32(&e, 1); /* flags: point */
    put32(&e, 1); /* parameters */
    put32(&e, pmid_of(0));
    put32(&e, (uint32_t)TU64 << 24 | 12u);
    put64(&e, (uint64_t)sec);
    (void)g;
    put_block(blocks, TEVENT, e.p, e.len);
    free(e.p);
}

/* The value of metric m for one instance: in place, or a block at the
 * word offset the record will give it. */
static void put_value(buf *vs, buf *blocks, size_t blocks_at, const gen *g, int m, int inst,
                      int sample, int64_t sec)
{
    uint64_t v = value_of(m, inst, sample);
    int type = type_of(g, m);
    unsigned char p[8];
    char s[64];

    put32(vs, (uint32_t)(inst < 0 ? -1 : inst));
    if (g->kinds && type == TU32) /* wraps every few samples */
        v = (uint32_t)((uint32_t)sample * 0x2f000000u + (uint32_t)m * 0x01000000u + (uint32_t)inst);
    else if (g->kinds && type == T32) /* up, then down */
        v = (uint32_t)(int32_t)((sample % 7) * 1000 - 3000 + m);
    if (type == TU32 || type == T32) {
        put32(vs, (uint32_t)v);
        return;
    }
    put32(vs, (uint32_t)((blocks_at + blocks->len) / 4));
    if (type == TAGGR) {
        unsigned char a[5] = {(unsigned char)sample, (unsigned char)m, 0, 0xff, 7};
        put_block(blocks, type, a, sizeof(a));
        return;
    }
    if (type == TFLOAT) {
        float f = (float)v / 3.0f;
        uint32_t bits;
        memcpy(&bits, &f, 4);
        for (int k = 0; k < 4; k++)
            p[k] = (unsigned char)(bits >> (24 - 8 * k));
        put_block(blocks, type, p, 4);
        return;
    }
    if (type == TSTRING) {
        int n = snprintf(s, sizeof(s), "value %llu", (unsigned long long)v);
        put_block(blocks, type, s, (size_t)n + 1);
        return;
    }
    if (type == TEVENT) {
        put_event(blocks, g, sec);
        return;
    }
    if (type == TDOUBLE) {
        double d = (double)v / 7.0;
        uint64_t bits;
        memcpy(&bits, &d, 8);
        v = bits;
    }
    for (int k = 0; k < 8; k++)
        p[k] = (unsigned char)(v >> (56 - 8 * k));
    put_block(blocks, type, p, 8);
}

/* Is instance inst of an instance domain in sample s? */
static int present(const gen *g, int inst, int sample)
{
    return !g->kinds || (sample + inst) % 5 != 0;
}

/* Is metric m in sample s?  With -o, one in four is logged once (in
 * one of the first samples) and one in four only in the last two. */
static int metric_in(const gen *g, int m, int s)
{
    if (!g->once || m % 4 == 0 || m % 4 == 3)
        return 1;
    if (m % 4 == 1)
        return s == (m / 4) % 5;
    return s >= g->samples - 2;
}

static int count_present(const gen *g, int n, int sample)
{
    int k = 0;

    for (int i = 0; i < n; i++)
        k += n == 1 || present(g, i, sample);
    return k;
}

/* A data record at sample s: every metric.  Word offsets of value blocks
 * count from two words before the record's length word. */
static void put_result(buf *b, const gen *g, int s, int64_t sec, long nsec, buf *vs, buf *blocks)
{
    size_t at = begin_rec(b), hdr = 4 + (g->version == 3 ? 12 : 8) + 4, size_vs = 0;
    int nin = 0;

    put_stamp(b, g->version, sec, nsec);
    for (int m = 0; m < g->metrics; m++)
        nin += metric_in(g, m, s);
    put32(b, (uint32_t)nin);
    /* the value sets' size first: the blocks follow them */
    for (int m = 0; m < g->metrics; m++) {
        int n = indom_of(m) == 0xffffffffu ? 1 : g->instances;
        if (metric_in(g, m, s))
            size_vs += 12 + 8 * (size_t)count_present(g, n, s);
    }
    vs->len = 0;
    blocks->len = 0;
    for (int m = 0; m < g->metrics; m++) {
        int n = indom_of(m) == 0xffffffffu ? 1 : g->instances;
        int type = type_of(g, m);
        if (!metric_in(g, m, s))
            continue;
        put32(vs, pmid_of(m));
        put32(vs, (uint32_t)count_present(g, n, s));
        put32(vs, type == TU32 || type == T32 ? 0u : 1u);
        for (int i = 0; i < n; i++)
            if (n == 1 || present(g, i, s))
                put_value(vs, blocks, 8 + hdr + size_vs, g, m, n == 1 ? -1 : i, s, sec);
    }
    putbytes(b, vs->p, vs->len);
    putbytes(b, blocks->p, blocks->len);
    end_rec(b, at);
}

static void put_mark(buf *b, const gen *g, int64_t sec, long nsec)
{
    size_t at = begin_rec(b);

    put_stamp(b, g->version, sec, nsec);
    put32(b, 0);
    end_rec(b, at);
}

static void put_ti(buf *b, const gen *g, int64_t sec, long nsec, int vol, uint64_t meta,
                   uint64_t data)
{
    put_stamp(b, g->version, sec, nsec);
    put32(b, (uint32_t)vol);
    if (g->version == 3) {
        put64(b, meta);
        put64(b, data);
    } else {
        put32(b, (uint32_t)meta);
        put32(b, (uint32_t)data);
    }
}

/* ------------------------------------------------------------------ */

static void usage(void)
{
    fprintf(stderr, "usage: gen_archive [-V 2|3] [-m METRICS] [-i INSTANCES] [-n SAMPLES] "
                    "[-t MSEC] [-v VOLUME_MB] [-x EVERY] [-s START] [-e] [-w] [-k] [-o] NAME\n");
    exit(2);
}

static void options(int argc, char **argv, gen *g)
{
    int c;

    *g = (gen){2, 2000, 20, 3600, 10, 0, 0, 0, 1000, 1024u << 20, 1700000000, NULL, 4242, 0};
    while ((c = getopt(argc, argv, "V:m:i:n:t:v:x:s:ewko")) != -1) {
        switch (c) {
        case 'V':
            g->version = atoi(optarg);
            break;
        case 'm':
            g->metrics = atoi(optarg);
            break;
        case 'i':
            g->instances = atoi(optarg);
            break;
        case 'n':
            g->samples = atoi(optarg);
            break;
        case 't':
            g->msec = atol(optarg);
            break;
        case 'v':
            g->volbytes = (uint64_t)strtoull(optarg, NULL, 10) << 20;
            break;
        case 'x':
            g->every = atoi(optarg);
            break;
        case 's':
            g->start = strtoll(optarg, NULL, 10);
            break;
        case 'e':
            g->extra = 1;
            break;
        case 'w':
            g->odd = 1;
            break;
        case 'k':
            g->kinds = 1;
            break;
        case 'o':
            g->once = 1;
            break;
        default:
            usage();
        }
    }
    if (optind != argc - 1 || (g->version != 2 && g->version != 3) || g->metrics < 1 ||
        g->instances < 2 || g->samples < 0 || g->every < 1 || g->msec < 1)
        usage();
    if (g->version == 2 && g->volbytes > (2000u << 20))
        g->volbytes = 2000u << 20; /* 32-bit offsets */
    g->name = argv[optind];
}

int main(int argc, char **argv)
{
    gen g;
    buf b = {0}, vs = {0}, blocks = {0}, ti = {0};
    FILE *meta, *data, *index;
    uint64_t metalen, datalen = 0;
    int vol = 0, groups;
    char suffix[32];

    options(argc, argv, &g);
    groups = (g.metrics + 99) / 100;
    meta = open_file(&g, "meta");
    index = open_file(&g, "index");
    data = open_file(&g, "0");
    put_label(&b, &g, -1);
    for (int m = 0; m < g.metrics; m++)
        put_desc(&b, &g, m);
    for (int grp = 0; grp < groups; grp++)
        put_indom(&b, &g, grp, g.start, 0);
    if (g.extra) {
        put_extra_meta(&b, &g);
        for (int grp = 0; grp < groups; grp++) /* later, half way through */
            put_indom(&b, &g, grp, g.start + (int64_t)g.samples * g.msec / 2000, g.version == 3);
    }
    metalen = b.len;
    flush(&b, meta);
    put_label(&ti, &g, -2);
    put_label(&b, &g, 0);
    datalen = b.len;
    flush(&b, data);
    for (int s = 0; s <= g.samples; s++) {
        int64_t ms = (int64_t)s * g.msec;
        if (g.kinds) /* jitter, and the gaps after the marks */
            ms += (int64_t)(s * 7919 % 300) * g.msec / 1000 + (int64_t)(s / 13) * g.msec * 5 / 2;
        int64_t sec = g.start + ms / 1000;
        long nsec = (long)(ms % 1000) * 1000000;
        if (datalen >= g.volbytes && s > 0) { /* a new volume, after a record at least */
            flush(&b, data);
            fclose(data);
            snprintf(suffix, sizeof(suffix), "%d", ++vol);
            data = open_file(&g, suffix);
            put_label(&b, &g, vol);
            datalen = b.len;
            flush(&b, data);
            put_ti(&ti, &g, sec, nsec, vol, metalen, datalen);
        } else if (s % g.every == 0) {
            put_ti(&ti, &g, sec, nsec, vol, metalen, datalen);
        }
        if (s == g.samples)
            put_mark(&b, &g, sec, nsec);
        else
            put_result(&b, &g, s, sec, nsec, &vs, &blocks);
        if (g.kinds && s % 13 == 12 && s < g.samples)
            put_mark(&b, &g, sec, nsec + 1000000 < 1000000000 ? nsec + 1000000 : nsec);
        datalen += b.len;
        flush(&b, data);
    }
    flush(&ti, index);
    if (fclose(data) != 0 || fclose(index) != 0 || fclose(meta) != 0) {
        perror("gen_archive: close");
        return 1;
    }
    free(b.p);
    free(vs.p);
    free(blocks.p);
    free(ti.p);
    return 0;
}
