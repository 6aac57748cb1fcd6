/*
 * bench_helpers.c: micro-benchmarks of libpcp's formatting and conversion
 * helpers (pmErrStr_r, pmIDStr_r, pmInDomStr_r, pmTypeStr_r, pmUnitsStr_r,
 * pmAtomStr_r, pmNumberStr_r, pmExtractValue, pmConvScale, pmPrintValue,
 * pmID_build and friends).
 *
 * Public PMAPI only: the same source is compiled against pmkit and against
 * PCP's libpcp by bench/run.  One "op" is one library call (one build plus the
 * three accessors for pmid_build_split; extract plus free for the string case).
 * Inputs are prepared once, outside the timed loops, and cycled through.
 *
 * Output, one line per case:  <name> <ns_per_op> <checksum>
 */
#include <pcp/pmapi.h>

#include "bench.h"

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ inputs */

static const int pm_err_codes[] = {
    PM_ERR_GENERIC,
    PM_ERR_PMNS,
    PM_ERR_NOPMNS,
    PM_ERR_DUPPMNS,
    PM_ERR_TEXT,
    PM_ERR_APPVERSION,
    PM_ERR_VALUE,
    PM_ERR_TIMEOUT,
    PM_ERR_NODATA,
    PM_ERR_RESET,
    PM_ERR_NAME,
    PM_ERR_PMID,
    PM_ERR_INDOM,
    PM_ERR_INST,
    PM_ERR_UNIT,
    PM_ERR_CONV,
    PM_ERR_TRUNC,
    PM_ERR_SIGN,
    PM_ERR_PROFILE,
    PM_ERR_IPC,
    PM_ERR_EOF,
    PM_ERR_NOTHOST,
    PM_ERR_EOL,
    PM_ERR_MODE,
    PM_ERR_LABEL,
    PM_ERR_LOGREC,
    PM_ERR_NOTARCHIVE,
    PM_ERR_LOGFILE,
    PM_ERR_NOCONTEXT,
    PM_ERR_PROFILESPEC,
    PM_ERR_PMID_LOG,
    PM_ERR_INDOM_LOG,
    PM_ERR_INST_LOG,
    PM_ERR_NOPROFILE,
    PM_ERR_NOAGENT,
    PM_ERR_PERMISSION,
    PM_ERR_CONNLIMIT,
    PM_ERR_AGAIN,
    PM_ERR_ISCONN,
    PM_ERR_NOTCONN,
    PM_ERR_NEEDPORT,
    PM_ERR_NONLEAF,
    PM_ERR_TYPE,
    PM_ERR_THREAD,
    PM_ERR_NOCONTAINER,
    PM_ERR_BADSTORE,
    PM_ERR_LOGOVERLAP,
    PM_ERR_LOGHOST,
    PM_ERR_LOGCHANGETYPE,
    PM_ERR_LOGCHANGESEM,
    PM_ERR_LOGCHANGEINDOM,
    PM_ERR_LOGCHANGEUNITS,
    PM_ERR_NEEDCLIENTCERT,
    PM_ERR_BADDERIVE,
    PM_ERR_NOLABELS,
    PM_ERR_PMDAFENCED,
    PM_ERR_RECTYPE,
    PM_ERR_FEATURE,
    PM_ERR_TLS,
    PM_ERR_BOTCH,
    PM_ERR_TOOSMALL,
    PM_ERR_TOOBIG,
    PM_ERR_FAULT,
    PM_ERR_PMDAREADY,
    PM_ERR_PMDANOTREADY,
    PM_ERR_NYI,
};

#define N_ERRNO 133 /* -1 .. -133 (EPERM .. EHWPOISON on Linux) */

#define N_IDS 64
static pmID ids[N_IDS];
static pmInDom indoms[N_IDS];

static const int types[] = {
    PM_TYPE_NOSUPPORT, PM_TYPE_32,
    PM_TYPE_U32,       PM_TYPE_64,
    PM_TYPE_U64,       PM_TYPE_FLOAT,
    PM_TYPE_DOUBLE,    PM_TYPE_STRING,
    PM_TYPE_AGGREGATE, PM_TYPE_AGGREGATE_STATIC,
    PM_TYPE_EVENT,     PM_TYPE_HIGHRES_EVENT,
    PM_TYPE_UNKNOWN,   42,
};

/* dimSpace, dimTime, dimCount, scaleSpace, scaleTime, scaleCount */
static const int unit_spec[][6] = {
    {0, 0, 0, 0, 0, 0},
    {1, 0, 0, PM_SPACE_BYTE, 0, 0},
    {1, 0, 0, PM_SPACE_KBYTE, 0, 0},
    {1, -1, 0, PM_SPACE_MBYTE, PM_TIME_SEC, 0},
    {0, 1, -1, 0, PM_TIME_HOUR, 6},
    {0, 1, 0, 0, PM_TIME_NSEC, 0},
    {0, 1, 0, 0, PM_TIME_MSEC, 0},
    {0, 0, 1, 0, 0, 0},
    {0, 0, 1, 0, 0, 3},
    {0, 0, 1, 0, 0, -3},
    {0, -1, 1, 0, PM_TIME_SEC, 0},
    {0, 0, 0, 0, 0, 6},
    {2, 0, 0, PM_SPACE_GBYTE, 0, 0},
    {-2, 1, 0, PM_SPACE_TBYTE, PM_TIME_USEC, 0},
    {1, -2, -1, PM_SPACE_PBYTE, PM_TIME_MIN, 2},
    {1, 0, 0, 15, 0, 0},
    {-1, -1, -1, PM_SPACE_KBYTE, PM_TIME_MSEC, 0},
    {7, -8, 7, PM_SPACE_BYTE, PM_TIME_SEC, -8},
};
static pmUnits units[NELEM(unit_spec)];

static const int64_t atom_i64[] = {
    0,
    1,
    -1,
    42,
    -12345,
    1000000007,
    INT64_C(4294967296),
    INT64_C(-9876543210),
    INT64_C(123456789012345),
    INT64_MAX,
    INT64_MIN,
    INT64_C(31536000000000),
};

static const double atom_dbl[] = {
    0.0,    1.0,     -1.0,          3.25, 1.0 / 3.0, 12345678.9,
    1e-300, -2.5e17, 6.02214076e23, 0.1,  99.999,    -0.000123,
};

static const char *const atom_str[] = {
    "",
    "a",
    "hello world",
    "/dev/sda1",
    NULL,
    "0123456789012345678901234567890123456",  /* 37: printed whole */
    "01234567890123456789012345678901234567", /* 38: truncated */
    "a considerably longer string value that will be truncated by pmAtomStr",
};

static const double numbers[] = {
    0.0,   0.004,  0.005, 12.345, 999.994, 999.995,  123456.0, 999994.0, 999995.0,
    1.5e9, 2.5e12, 1e15,  -1.0,   -99.995, -12345.0, -1e14,    65536.0,  3.14159,
};

/* pmValue inputs for pmExtractValue / pmPrintValue. */
#define N_VALS 16
static pmValue v_insitu32[64];
static pmValue v_u64[N_VALS];
static pmValue v_dbl[N_VALS];
static pmValue v_flt[N_VALS];
static pmValue v_str[N_VALS];

/* pmConvScale inputs. */
static pmAtomValue cs_32[64], cs_dbl[N_VALS], cs_u64[N_VALS];
static pmUnits u_byte, u_kbyte, u_mbyte_sec, u_kbyte_msec, u_hour, u_usec;

static FILE *devnull;

/* ------------------------------------------------------------------- setup */

static pmUnits mkunits(int ds, int dt, int dc, int ss, int st, int sc)
{
    pmUnits u;
    memset(&u, 0, sizeof u);
    u.dimSpace = ds;
    u.dimTime = dt;
    u.dimCount = dc;
    u.scaleSpace = (unsigned)ss;
    u.scaleTime = (unsigned)st;
    u.scaleCount = sc;
    return u;
}

static pmValueBlock *mkblock(int type, const void *payload, size_t len)
{
    pmValueBlock *vb = malloc(PM_VAL_HDR_SIZE + len);
    if (vb == NULL) {
        perror("bench_helpers: malloc");
        exit(1);
    }
    memset(vb, 0, PM_VAL_HDR_SIZE);
    vb->vtype = (unsigned)type;
    vb->vlen = (unsigned)(PM_VAL_HDR_SIZE + len);
    memcpy((char *)vb + PM_VAL_HDR_SIZE, payload, len);
    return vb;
}

static void setup(void)
{
    for (unsigned i = 0; i < N_IDS; i++) {
        ids[i] = pmID_build((i * 37u) % 510u, (i * 97u) % 4096u, (i * 131u) % 1024u);
        indoms[i] = pmInDom_build((i * 53u) % 510u, i * 4093u % 4194304u);
    }
    ids[0] = PM_ID_NULL;
    ids[1] = pmID_build(511, 60, 0); /* dynamic subtree root: "60.*.*" */
    ids[2] = 0;
    indoms[0] = PM_INDOM_NULL;
    indoms[1] = 0;

    for (size_t i = 0; i < NELEM(unit_spec); i++) {
        const int *s = unit_spec[i];
        units[i] = mkunits(s[0], s[1], s[2], s[3], s[4], s[5]);
    }

    for (int i = 0; i < 64; i++) {
        v_insitu32[i].inst = i;
        v_insitu32[i].value.lval = (i - 32) * 1000003;
    }
    for (int i = 0; i < N_VALS; i++) {
        uint64_t u = (uint64_t)i * UINT64_C(0x0123456789abcd) + (uint64_t)i;
        double d = (i - 8) * 12345.678 + 0.25 * i;
        float f = (float)(i - 8) / 3.0f;
        static const char *const strs[] = {
            "",
            "x",
            "hello world",
            "sda",
            "/var/log/pcp/pmcd/pmcd.log",
            "a somewhat longer string value for the benchmark",
        };
        const char *s = strs[i % (int)NELEM(strs)];

        v_u64[i].inst = v_dbl[i].inst = v_flt[i].inst = v_str[i].inst = i;
        v_u64[i].value.pval = mkblock(PM_TYPE_U64, &u, sizeof u);
        v_dbl[i].value.pval = mkblock(PM_TYPE_DOUBLE, &d, sizeof d);
        v_flt[i].value.pval = mkblock(PM_TYPE_FLOAT, &f, sizeof f);
        v_str[i].value.pval = mkblock(PM_TYPE_STRING, s, strlen(s) + 1);

        cs_dbl[i].d = (i + 1) * 1.75;
        cs_u64[i].ull = (uint64_t)i * 3 + 1;
    }
    for (int i = 0; i < 64; i++)
        cs_32[i].l = (i - 16) * 1531; /* some negatives, some round-half cases */

    u_byte = mkunits(1, 0, 0, PM_SPACE_BYTE, 0, 0);
    u_kbyte = mkunits(1, 0, 0, PM_SPACE_KBYTE, 0, 0);
    u_mbyte_sec = mkunits(1, -1, 0, PM_SPACE_MBYTE, PM_TIME_SEC, 0);
    u_kbyte_msec = mkunits(1, -1, 0, PM_SPACE_KBYTE, PM_TIME_MSEC, 0);
    u_hour = mkunits(0, 1, 0, 0, PM_TIME_HOUR, 0);
    u_usec = mkunits(0, 1, 0, 0, PM_TIME_USEC, 0);

    devnull = fopen("/dev/null", "w");
    if (devnull == NULL) {
        perror("bench_helpers: /dev/null");
        exit(1);
    }
}

/* ----------------------------------------------------------- string cases */

static uint64_t b_errstr_pmerr(uint64_t n, int verify)
{
    char buf[PM_MAXERRMSGLEN];
    uint64_t h = BENCH_HASH_INIT;
    size_t j = 0;
    for (uint64_t i = 0; i < n; i++) {
        h = bench_fold_str(h, pmErrStr_r(pm_err_codes[j], buf, (int)sizeof buf), verify);
        if (++j == NELEM(pm_err_codes))
            j = 0;
    }
    return h;
}

static uint64_t b_errstr_errno(uint64_t n, int verify)
{
    char buf[PM_MAXERRMSGLEN];
    uint64_t h = BENCH_HASH_INIT;
    int j = 0;
    for (uint64_t i = 0; i < n; i++) {
        h = bench_fold_str(h, pmErrStr_r(-(j + 1), buf, (int)sizeof buf), verify);
        if (++j == N_ERRNO)
            j = 0;
    }
    return h;
}

static uint64_t b_idstr(uint64_t n, int verify)
{
    char buf[32];
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++)
        h = bench_fold_str(h, pmIDStr_r(ids[i % N_IDS], buf, (int)sizeof buf), verify);
    return h;
}

static uint64_t b_indomstr(uint64_t n, int verify)
{
    char buf[32];
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++)
        h = bench_fold_str(h, pmInDomStr_r(indoms[i % N_IDS], buf, (int)sizeof buf), verify);
    return h;
}

static uint64_t b_typestr(uint64_t n, int verify)
{
    char buf[32];
    uint64_t h = BENCH_HASH_INIT;
    size_t j = 0;
    for (uint64_t i = 0; i < n; i++) {
        h = bench_fold_str(h, pmTypeStr_r(types[j], buf, (int)sizeof buf), verify);
        if (++j == NELEM(types))
            j = 0;
    }
    return h;
}

static uint64_t b_unitsstr(uint64_t n, int verify)
{
    char buf[64];
    uint64_t h = BENCH_HASH_INIT;
    size_t j = 0;
    for (uint64_t i = 0; i < n; i++) {
        h = bench_fold_str(h, pmUnitsStr_r(&units[j], buf, (int)sizeof buf), verify);
        if (++j == NELEM(units))
            j = 0;
    }
    return h;
}

static uint64_t b_atomstr_64(uint64_t n, int verify)
{
    char buf[80];
    pmAtomValue a;
    uint64_t h = BENCH_HASH_INIT;
    size_t j = 0;
    for (uint64_t i = 0; i < n; i++) {
        a.ll = atom_i64[j];
        h = bench_fold_str(h, pmAtomStr_r(&a, PM_TYPE_64, buf, (int)sizeof buf), verify);
        if (++j == NELEM(atom_i64))
            j = 0;
    }
    return h;
}

static uint64_t b_atomstr_double(uint64_t n, int verify)
{
    char buf[80];
    pmAtomValue a;
    uint64_t h = BENCH_HASH_INIT;
    size_t j = 0;
    for (uint64_t i = 0; i < n; i++) {
        a.d = atom_dbl[j];
        h = bench_fold_str(h, pmAtomStr_r(&a, PM_TYPE_DOUBLE, buf, (int)sizeof buf), verify);
        if (++j == NELEM(atom_dbl))
            j = 0;
    }
    return h;
}

static uint64_t b_atomstr_string(uint64_t n, int verify)
{
    char buf[80];
    pmAtomValue a;
    uint64_t h = BENCH_HASH_INIT;
    size_t j = 0;
    for (uint64_t i = 0; i < n; i++) {
        a.cp = (char *)atom_str[j];
        h = bench_fold_str(h, pmAtomStr_r(&a, PM_TYPE_STRING, buf, (int)sizeof buf), verify);
        if (++j == NELEM(atom_str))
            j = 0;
    }
    return h;
}

static uint64_t b_numberstr(uint64_t n, int verify)
{
    char buf[16];
    uint64_t h = BENCH_HASH_INIT;
    size_t j = 0;
    for (uint64_t i = 0; i < n; i++) {
        h = bench_fold_str(h, pmNumberStr_r(numbers[j], buf, (int)sizeof buf), verify);
        if (++j == NELEM(numbers))
            j = 0;
    }
    return h;
}

/* --------------------------------------------------------- pmExtractValue */

static uint64_t b_extract_insitu_32_double(uint64_t n, int verify)
{
    pmAtomValue a;
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        int sts =
            pmExtractValue(PM_VAL_INSITU, &v_insitu32[i % 64], PM_TYPE_32, &a, PM_TYPE_DOUBLE);
        if (verify)
            h = bench_hash_double(bench_hash_u64(h, (uint64_t)sts), a.d);
        else
            h += (uint64_t)sts + (uint64_t)(int64_t)a.d;
    }
    return h;
}

static uint64_t b_extract_dptr_u64_64(uint64_t n, int verify)
{
    pmAtomValue a;
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        int sts = pmExtractValue(PM_VAL_DPTR, &v_u64[i % N_VALS], PM_TYPE_U64, &a, PM_TYPE_64);
        if (verify)
            h = bench_hash_u64(bench_hash_u64(h, (uint64_t)sts), (uint64_t)a.ll);
        else
            h += (uint64_t)sts + (uint64_t)a.ll;
    }
    return h;
}

static uint64_t b_extract_dptr_double_32(uint64_t n, int verify)
{
    pmAtomValue a;
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        int sts = pmExtractValue(PM_VAL_DPTR, &v_dbl[i % N_VALS], PM_TYPE_DOUBLE, &a, PM_TYPE_32);
        if (verify)
            h = bench_hash_u64(bench_hash_u64(h, (uint64_t)sts), (uint64_t)a.l);
        else
            h += (uint64_t)sts + (uint64_t)a.l;
    }
    return h;
}

static uint64_t b_extract_dptr_float_double(uint64_t n, int verify)
{
    pmAtomValue a;
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        int sts =
            pmExtractValue(PM_VAL_DPTR, &v_flt[i % N_VALS], PM_TYPE_FLOAT, &a, PM_TYPE_DOUBLE);
        if (verify)
            h = bench_hash_double(bench_hash_u64(h, (uint64_t)sts), a.d);
        else
            h += (uint64_t)sts + (uint64_t)(int64_t)(a.d * 1000);
    }
    return h;
}

static uint64_t b_extract_dptr_string_string(uint64_t n, int verify)
{
    pmAtomValue a;
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        int sts =
            pmExtractValue(PM_VAL_DPTR, &v_str[i % N_VALS], PM_TYPE_STRING, &a, PM_TYPE_STRING);
        if (sts < 0) {
            h = bench_hash_u64(h, (uint64_t)sts);
            continue;
        }
        h = bench_fold_str(h, a.cp, verify);
        free(a.cp);
    }
    return h;
}

/* ------------------------------------------------------------ pmConvScale */

static uint64_t b_convscale_32_byte_kbyte(uint64_t n, int verify)
{
    pmAtomValue o;
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        int sts = pmConvScale(PM_TYPE_32, &cs_32[i % 64], &u_byte, &o, &u_kbyte);
        if (verify)
            h = bench_hash_u64(bench_hash_u64(h, (uint64_t)sts), (uint64_t)o.l);
        else
            h += (uint64_t)sts + (uint64_t)o.l;
    }
    return h;
}

static uint64_t b_convscale_double_mbps_kbpms(uint64_t n, int verify)
{
    pmAtomValue o;
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        int sts = pmConvScale(PM_TYPE_DOUBLE, &cs_dbl[i % N_VALS], &u_mbyte_sec, &o, &u_kbyte_msec);
        if (verify)
            h = bench_hash_double(bench_hash_u64(h, (uint64_t)sts), o.d);
        else
            h += (uint64_t)sts + (uint64_t)(int64_t)o.d;
    }
    return h;
}

static uint64_t b_convscale_u64_hour_usec(uint64_t n, int verify)
{
    pmAtomValue o;
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        int sts = pmConvScale(PM_TYPE_U64, &cs_u64[i % N_VALS], &u_hour, &o, &u_usec);
        if (verify)
            h = bench_hash_u64(bench_hash_u64(h, (uint64_t)sts), o.ull);
        else
            h += (uint64_t)sts + o.ull;
    }
    return h;
}

/* ------------------------------------------------------------ pmPrintValue */

/*
 * Timed runs print to /dev/null.  The verify pass prints to a memory stream
 * (one '|' after each value) and hashes the text.
 */
static uint64_t print_values(uint64_t n, int verify, int type, const pmValue *vals)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = devnull;
    uint64_t h = BENCH_HASH_INIT;

    if (verify) {
        f = open_memstream(&text, &len);
        if (f == NULL) {
            perror("bench_helpers: open_memstream");
            exit(1);
        }
    }
    for (uint64_t i = 0; i < n; i++) {
        pmPrintValue(f, PM_VAL_DPTR, type, &vals[i % N_VALS], 1);
        if (verify)
            fputc('|', f);
    }
    if (verify) {
        fclose(f);
        h = bench_hash_bytes(h, text, len);
        free(text);
    } else {
        h += n;
    }
    return h;
}

static uint64_t b_printvalue_double(uint64_t n, int verify)
{
    return print_values(n, verify, PM_TYPE_DOUBLE, v_dbl);
}

static uint64_t b_printvalue_string(uint64_t n, int verify)
{
    return print_values(n, verify, PM_TYPE_STRING, v_str);
}

static uint64_t b_printvalue_u64(uint64_t n, int verify)
{
    return print_values(n, verify, PM_TYPE_U64, v_u64);
}

/* -------------------------------------------------------------- pmID_build */

static uint64_t b_pmid_build_split(uint64_t n, int verify)
{
    uint64_t h = BENCH_HASH_INIT;
    for (uint64_t i = 0; i < n; i++) {
        unsigned k = (unsigned)i;
        pmID id = pmID_build(k % 511u, (k >> 3) % 4096u, (k * 7u) % 1024u);
        unsigned d = pmID_domain(id), c = pmID_cluster(id), it = pmID_item(id);
        if (verify)
            h = bench_hash_u64(bench_hash_u64(h, id),
                               ((uint64_t)d << 32) | ((uint64_t)c << 16) | it);
        else
            h += d + c + it;
    }
    return h;
}

/* -------------------------------------------------------------------- main */

static const struct bench_case cases[] = {
    {"errstr_pmerr", b_errstr_pmerr},
    {"errstr_errno", b_errstr_errno},
    {"idstr", b_idstr},
    {"indomstr", b_indomstr},
    {"typestr", b_typestr},
    {"unitsstr", b_unitsstr},
    {"atomstr_64", b_atomstr_64},
    {"atomstr_double", b_atomstr_double},
    {"atomstr_string", b_atomstr_string},
    {"numberstr", b_numberstr},
    {"extract_insitu_32_double", b_extract_insitu_32_double},
    {"extract_dptr_u64_64", b_extract_dptr_u64_64},
    {"extract_dptr_double_32", b_extract_dptr_double_32},
    {"extract_dptr_float_double", b_extract_dptr_float_double},
    {"extract_dptr_string_string", b_extract_dptr_string_string},
    {"convscale_32_byte_kbyte", b_convscale_32_byte_kbyte},
    {"convscale_double_mbps_kbpms", b_convscale_double_mbps_kbpms},
    {"convscale_u64_hour_usec", b_convscale_u64_hour_usec},
    {"printvalue_double", b_printvalue_double},
    {"printvalue_string", b_printvalue_string},
    {"printvalue_u64", b_printvalue_u64},
    {"pmid_build_split", b_pmid_build_split},
};

int main(int argc, char **argv)
{
    setup();
    return bench_main(argc, argv, cases, BENCH_NCASES(cases));
}
