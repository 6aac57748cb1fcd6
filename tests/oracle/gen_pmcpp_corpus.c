/*
 * gen_pmcpp_corpus SEED COUNT OUTDIR
 *
 * Writes COUNT random pmcpp test cases into OUTDIR/case_NNNN/, each holding
 *   input      the main file (run as `pmcpp ARGS input` or `pmcpp ARGS < input`)
 *   args       one line: the pmcpp options, shell-quoted (eval'ed by the harness)
 *   inc_N ...  included files: in the case directory, in sub/ (named as
 *              "sub/inc_N") or in a directory given with -I (sub, sub2)
 * Output is a pure function of SEED (own xorshift generator, no rand()).
 *
 * Every case is meant to be processed correctly by PCP 6.0.3's pmcpp (exit 0,
 * empty stderr) without touching any quirk listed in toolchain.md §2.15, so
 * that a reimplementation that fixes those bugs still gives byte-identical
 * output.  The generator therefore simulates the preprocessor state (macro
 * table, the one-level conditional, comment state, include depth) while it
 * writes, and only emits lines that are valid in that state:
 *  - at most one #else that turns a block true per run, and none once an
 *    #undef of a defined macro has happened (bug 1);
 *  - no unrecognised control lines (`#pragma`, `#`, `%x` with -s) inside a
 *    false block (bug 2); blocks are always closed (bug 3);
 *  - every file and every #shell output ends with a newline (bug 4);
 *  - comments never cross a file boundary nor open on #include/#shell lines,
 *    no `/ *` inside quotes, quotes are balanced in front of a comment and
 *    absent after it (bug 5);
 *  - a directive keyword is never followed by a letter, digit or `_` (bug 6);
 *  - `#{` / `%{` is always closed by `}` on the same line (bug 7);
 *  - at most 3 nested #include/#shell levels (bug 8); no FIFOs (bug 9);
 *  - #shell runs only echo/printf (output ending in a newline), true, `:`
 *    or `exit 0`;
 *  - no text line whose macro substitution would overflow PCP's line
 *    buffers (a heap overflow that §2.15 does not list; see postcheck()).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* ------------------------------------------------------------------ rng */

static uint64_t rng_s;

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static uint64_t rnd(void)
{
    /* xorshift64* */
    rng_s ^= rng_s >> 12;
    rng_s ^= rng_s << 25;
    rng_s ^= rng_s >> 27;
    return rng_s * 0x2545f4914f6cdd1dULL;
}

static unsigned rn(unsigned n)
{
    return n ? (unsigned)((rnd() >> 11) % n) : 0;
}

static int pct(unsigned p)
{
    return rn(100) < p;
}

static unsigned rrange(unsigned lo, unsigned hi)
{
    return lo + rn(hi - lo + 1);
}

/* -------------------------------------------------------------- buffers */

typedef struct {
    char *p;
    size_t n, cap;
} buf;

static void bgrow(buf *b, size_t add)
{
    if (b->n + add + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (b->n + add + 1 > cap)
            cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) {
            perror("gen_pmcpp_corpus: realloc");
            exit(2);
        }
        b->p = np;
        b->cap = cap;
    }
}

static void bmem(buf *b, const char *s, size_t n)
{
    bgrow(b, n);
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void bstr(buf *b, const char *s)
{
    bmem(b, s, strlen(s));
}

static void bch(buf *b, char c)
{
    bmem(b, &c, 1);
}

static void bfmt(buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        fprintf(stderr, "gen_pmcpp_corpus: internal format overflow\n");
        exit(2);
    }
    bmem(b, tmp, (size_t)n);
}

static void bfree(buf *b)
{
    free(b->p);
    b->p = NULL;
    b->n = b->cap = 0;
}

/* ---------------------------------------------------------------- state */

/* None of these starts with a directive keyword (define, undef, ifdef,
 * ifndef, endif, else, include, shell), so `#NAME` at the start of a text
 * line is never taken for a directive. */
static const char *const POOL[] = {
    "foo", "bar", "X", "Y",   "Z",   "A",   "B",           "MYDOMAIN", "DOM", "val",  "x_y",
    "X_y", "N2",  "q", "Foo", "x1F", "abc", "Long_Name_3", "e",        "_u",  "pmda", "CPU",
};
#define NPOOL ((int)(sizeof POOL / sizeof POOL[0]))

#define MAXDEPTH 3 /* nested #include/#shell levels below the input */
#define MAXREUSE 16

enum { C_NONE, C_TRUE, C_FALSE };

static struct {
    int sh;    /* -s */
    int rmode; /* -r */
    char cc;   /* control character: '#' or '%' */
    char oc;   /* the other one */
    int defined[NPOOL];
    size_t vlen[NPOOL]; /* length of each defined macro's value */
    int cond;           /* C_NONE / C_TRUE / C_FALSE */
    int cond_owner;     /* depth of the stream that opened the block */
    int else_true_used; /* an #else already turned a block true */
    int undef_seen;     /* an #undef of a defined macro happened */
    int nfiles;
    const char *casedir;
    const char *idirs[3]; /* -I directories in command-line order */
    int nidirs;
    char reuse[MAXREUSE][64]; /* include lines' names of directive-free files */
    int nreuse;
    int long_left, huge_left;
    int in_comment; /* generating a comment's inside: no stray close */
    int pc_cmt;     /* comment state seen by postcheck() */
} G;

static void write_file(const char *rel, const buf *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", G.casedir, rel);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "gen_pmcpp_corpus: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    if (b->n && fwrite(b->p, 1, b->n, f) != b->n) {
        fprintf(stderr, "gen_pmcpp_corpus: write %s failed\n", path);
        exit(2);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "gen_pmcpp_corpus: close %s failed\n", path);
        exit(2);
    }
}

static void make_dir(const char *path)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "gen_pmcpp_corpus: mkdir %s: %s\n", path, strerror(errno));
        exit(2);
    }
}

static void make_subdir(const char *rel)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", G.casedir, rel);
    make_dir(path);
}

/* ------------------------------------------------------- text fragments */

static const char LOWER[] = "abcdefghijklmnopqrstuvwxyz";
/* unquoted #define value characters: no blanks, quotes, '*', '{', '#', '%' */
static const char VALCH[] =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:=+,@-/";

static void word(buf *b)
{
    unsigned n = rrange(1, 8);
    bch(b, LOWER[rn(sizeof LOWER - 1)]);
    for (unsigned i = 1; i < n; i++)
        bch(b, pct(80) ? LOWER[rn(sizeof LOWER - 1)] : pct(50) ? '_' : (char)('0' + rn(10)));
}

/* Note: never two random draws in one argument list (unspecified order
 * of evaluation would make the corpus depend on the compiler). */
static void number(buf *b)
{
    unsigned x, y, z;
    switch (rn(5)) {
    case 0:
        bfmt(b, "%u", rn(1000));
        break;
    case 1:
        x = rn(512);
        y = rn(64);
        z = rn(1024);
        bfmt(b, "%u:%u:%u", x, y, z);
        break;
    case 2:
        x = rn(100);
        y = rn(100);
        bfmt(b, "%u.%u", x, y);
        break;
    case 3:
        bfmt(b, "-%u", rn(50));
        break;
    default:
        bfmt(b, "0x%X", rn(0x10000));
        break;
    }
}

static void punct(buf *b)
{
    static const char *const P[] = {
        ".", "-", ":", "=", ",", ";", "(", ")", "[",  "]", "!",  "&",   "|",
        "<", ">", "+", "@", "~", "^", "?", "$", "\\", "/", "->", "...",
    };
    bstr(b, P[rn(sizeof P / sizeof P[0])]);
}

static const char *pool_name(void)
{
    return POOL[rn(NPOOL)];
}

/* An identifier that looks like a macro name but is a different word, or a
 * word glued to separators (digits, dots, dashes, quotes). */
static void near_miss(buf *b, const char *n, int quotes_ok)
{
    switch (rn(12)) {
    case 0:
        bfmt(b, "%s1", n);
        break;
    case 1:
        bfmt(b, "x%s", n);
        break;
    case 2:
        bfmt(b, "%s_x", n);
        break;
    case 3:
        bfmt(b, "_%s", n);
        break;
    case 4:
        bfmt(b, "1%s", n);
        break; /* contains the word n */
    case 5:
        bfmt(b, "%s.%s", n, n);
        break;
    case 6:
        bfmt(b, "%s-%s", n, n);
        break;
    case 7:
        if (quotes_ok)
            bfmt(b, "\"%s\"", n);
        else
            bfmt(b, "[%s]", n);
        break;
    case 8:
        if (quotes_ok)
            bfmt(b, "'%s'", n);
        else
            bfmt(b, "(%s)", n);
        break;
    case 9: {
        size_t at = b->n;
        bstr(b, n);
        char c = b->p[at];
        if (c >= 'a' && c <= 'z')
            b->p[at] = (char)(c - 32);
        else if (c >= 'A' && c <= 'Z')
            b->p[at] = (char)(c + 32);
        break;
    }
    case 10:
        bstr(b, "0x1F");
        break; /* contains the word x1F */
    default: {
        unsigned x = rn(10), y = rn(10);
        bfmt(b, "%u%s%u", x, n, y);
        break;
    }
    }
}

/* Fragments built around a control character c ('#' or '%').  A '{' after
 * c is always closed on the same line. */
static void ccfrag(buf *b, char c, const char *n)
{
    switch (rn(14)) {
    case 0:
    case 1:
    case 2:
        bfmt(b, "%c%s", c, n);
        break;
    case 3:
    case 4:
        bfmt(b, "%c{%s}", c, n);
        break;
    case 5:
        bfmt(b, "%c{%s}y", c, n);
        break;
    case 6:
        bfmt(b, "%c%c%s", c, c, n);
        break;
    case 7:
        bfmt(b, "a%c%s", c, n);
        break;
    case 8:
        bfmt(b, "%c_%s", c, n);
        break;
    case 9:
        bfmt(b, "%c{ %s}", c, n);
        break;
    case 10:
        bfmt(b, "%c{%s }", c, n);
        break;
    case 11:
        bfmt(b, "%c{1x}%c9", c, c);
        break;
    case 12:
        bfmt(b, "%c%s_y.%c%s", c, n, c, n);
        break;
    default:
        bfmt(b, "%c{%s}%c{%s}", c, n, c, pool_name());
        break;
    }
}

static void frag(buf *b, int quotes_ok)
{
    const char *n = pool_name();
    switch (rn(20)) {
    case 0:
    case 1:
    case 2:
    case 3:
        bstr(b, n);
        break;
    case 4:
    case 5:
        near_miss(b, n, quotes_ok);
        break;
    case 6:
    case 7:
        word(b);
        break;
    case 8:
        number(b);
        break;
    case 9:
        punct(b);
        break;
    case 10:
    case 11:
    case 12:
        ccfrag(b, G.cc, n);
        break;
    case 13:
        ccfrag(b, G.oc, n);
        break;
    case 14:
        if (quotes_ok) {
            bch(b, '"');
            bstr(b, n);
            bch(b, ' ');
            word(b);
            bch(b, '"');
        } else {
            word(b);
        }
        break;
    case 15:
        if (quotes_ok)
            bstr(b, pct(50) ? "it's" : "don't");
        else
            bstr(b, "its");
        break;
    case 16:
        bstr(b, "// ");
        word(b);
        break;
    case 17: /* stray close: plain text */
        if (!G.in_comment)
            bstr(b, " */");
        else
            word(b);
        break;
    case 18: {
        unsigned x = rn(8), y = rn(64);
        bfmt(b, "%s:%u:%u", n, x, y);
        break;
    }
    default:
        bfmt(b, "%s=%u", n, rn(100));
        break;
    }
}

static void sep(buf *b)
{
    static const char *const S[] = {
        " ",  " ",  " ", " ", " ", " ", " ", " ", "",
        "\t", "  ", ".", "-", ":", ",", "=", "/", " \t ",
    };
    if (pct(2))
        bch(b, '\r');
    else
        bstr(b, S[rn(sizeof S / sizeof S[0])]);
}

/* Text of a line (no newline) that is never a control line: it does not
 * start with '#' or '%'.  At least minlen bytes. */
static void gen_text(buf *b, size_t minlen, int quotes_ok)
{
    size_t start = b->n;
    unsigned nf = rrange(1, 9);
    for (unsigned i = 0; i < nf || b->n - start < minlen; i++) {
        if (i)
            sep(b);
        frag(b, quotes_ok);
    }
    if (b->n > start && (b->p[start] == '#' || b->p[start] == '%')) {
        /* prepend a letter */
        bgrow(b, 1);
        memmove(b->p + start + 1, b->p + start, b->n - start + 1);
        b->p[start] = LOWER[rn(26)];
        b->n++;
    }
}

static void comment_words(buf *b)
{
    unsigned n = rrange(0, 5);
    for (unsigned i = 0; i < n; i++) {
        bch(b, ' ');
        switch (rn(6)) {
        case 0:
            bstr(b, pool_name());
            break;
        case 1:
            number(b);
            break;
        case 2:
            bstr(b, "/*");
            break; /* comments do not nest */
        default:
            word(b);
            break;
        }
    }
    if (pct(70))
        bch(b, ' ');
}

/* A closed C comment.  Its text never contains quotes. */
static void closed_comment(buf *b)
{
    switch (rn(8)) {
    case 0:
        bstr(b, "/**/");
        break;
    case 1:
        bstr(b, "/*/ x */");
        break; /* slash-star-slash stays open */
    case 2:
        bstr(b, "/***/");
        break;
    default:
        bstr(b, "/*");
        comment_words(b);
        bstr(b, "*/");
        break;
    }
}

static void blanks(buf *b)
{
    unsigned n = rrange(1, 3);
    for (unsigned i = 0; i < n; i++)
        bch(b, pct(80) ? ' ' : '\t');
}

static void eol(buf *b)
{
    if (pct(3))
        bch(b, '\r');
    bch(b, '\n');
}

/* Trailing part of a directive line.  Returns 1 when it opened a comment
 * that continues on the next lines (the caller then must close it). */
static int trail(buf *b, int comment_ok, int open_ok)
{
    if (pct(15))
        blanks(b);
    if (!G.sh && comment_ok) {
        if (open_ok && pct(6)) {
            blanks(b);
            bstr(b, "/*");
            comment_words(b);
            bch(b, '\n');
            return 1;
        }
        if (pct(12)) {
            blanks(b);
            closed_comment(b);
            if (pct(20))
                blanks(b);
        }
    }
    eol(b);
    return 0;
}

/* ------------------------------------------- substitution size limits */

/*
 * PCP 6.0.3's pmcpp overflows the heap when substitution makes a line
 * longer than its buffers (not listed in §2.15; found with valgrind):
 *  - the input line buffer ibuf starts at 256 bytes and doubles only while
 *    reading (fgets until a newline), so it holds >= L + 1 bytes for a line
 *    of L bytes including the newline;
 *  - the output buffer obuf (size 0 at start, set to the current ibuf size
 *    at its first use, then doubled) is checked before each replacement
 *    against L + 1 - len(candidate) + len(value), i.e. one replacement at
 *    a time, never the accumulated growth;
 *  - the result (E bytes with the newline, plus a NUL) is copied back into
 *    ibuf with no check at all.
 * So a text line is safe when E + 1 <= P(L + 1) and E + 1 <= the size obuf
 * reaches, which is at least max(256, P(L + 1 + max growth)), P(x) being
 * the smallest 256 * 2^k >= x.  Lines that break this get some of their
 * macro uses neutralised (same length, same validity).
 */
typedef struct {
    size_t pos; /* offset of the candidate in the line */
    long d;     /* growth: value length - candidate length */
} occ_t;

static occ_t *occs;
static size_t nocc, occcap;

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_alnum(int c)
{
    return is_alpha(c) || (c >= '0' && c <= '9');
}

static int is_space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static int lookup_defined(const char *s, size_t n)
{
    for (int i = 0; i < NPOOL; i++)
        if (G.defined[i] && strlen(POOL[i]) == n && memcmp(POOL[i], s, n) == 0)
            return i;
    return -1;
}

static void add_occ(size_t pos, size_t candlen, int k)
{
    if (nocc == occcap) {
        occcap = occcap ? occcap * 2 : 64;
        occs = realloc(occs, occcap * sizeof *occs);
        if (!occs) {
            perror("gen_pmcpp_corpus: realloc");
            exit(2);
        }
    }
    occs[nocc].pos = pos;
    occs[nocc].d = (long)G.vlen[k] - (long)candlen;
    nocc++;
}

/* The replacements pmcpp makes in the (comment-stripped) text s[0..n). */
static void scan_repl(const char *s, size_t n)
{
    nocc = 0;
    size_t i = 0;
    while (i < n) {
        if (!G.rmode) {
            if (is_alpha(s[i]) || s[i] == '_') {
                size_t j = i;
                while (j < n && (is_alnum(s[j]) || s[j] == '_'))
                    j++;
                int k = lookup_defined(s + i, j - i);
                if (k >= 0)
                    add_occ(i, j - i, k);
                i = j;
                continue;
            }
        } else if (s[i] == G.cc && i + 1 < n) {
            if (s[i + 1] == '{' && i + 2 < n && is_alnum(s[i + 2])) {
                size_t j = i + 2;
                while (j < n && s[j] != '}')
                    j++;
                if (j < n) {
                    int k = lookup_defined(s + i + 2, j - i - 2);
                    if (k >= 0)
                        add_occ(i, j + 1 - i, k);
                    i = j + 1;
                    continue;
                }
            } else if (is_alnum(s[i + 1])) {
                size_t j = i + 1;
                while (j < n && (is_alnum(s[j]) || s[j] == '_'))
                    j++;
                int k = lookup_defined(s + i + 1, j - i - 1);
                if (k >= 0)
                    add_occ(i, j - i, k);
                i = j;
                continue;
            }
        }
        i++;
    }
}

static size_t pow256(size_t x)
{
    size_t p = 256;
    while (p < x)
        p *= 2;
    return p;
}

/* L: raw line length with its newline; slen: stripped length without it */
static int repl_safe(size_t L, size_t slen)
{
    if (!nocc)
        return 1;
    long sum = 0, mx = occs[0].d;
    for (size_t i = 0; i < nocc; i++) {
        sum += occs[i].d;
        if (occs[i].d > mx)
            mx = occs[i].d;
    }
    size_t E = (size_t)((long)slen + sum) + 1;
    long need = (long)L + 1 + mx;
    size_t lim2 = pow256(need > 256 ? (size_t)need : 256);
    return E + 1 <= pow256(L + 1) && E + 1 <= lim2;
}

/* Make the candidate at pos no longer match: same length, no new ones. */
static void neutralise(char *raw, size_t pos)
{
    raw[pos] = G.rmode ? '+' : 'z'; /* no pool name starts with 'z' */
}

/* Check one text line (raw, len bytes, no newline) as pmcpp sees it after
 * comment stripping (stripped: s, slen) and repair it if needed. */
static void fix_repl(char *raw, size_t len, const char *s, size_t slen)
{
    scan_repl(s, slen);
    if (repl_safe(len + 1, slen))
        return;
    /* keep only the largest growth, then nothing at all */
    size_t keep = 0;
    for (size_t i = 1; i < nocc; i++)
        if (occs[i].d > occs[keep].d)
            keep = i;
    size_t w = 0;
    for (size_t i = 0; i < nocc; i++) {
        if (i != keep && occs[i].d > 0)
            neutralise(raw, occs[i].pos);
        else
            occs[w++] = occs[i];
    }
    nocc = w;
    if (repl_safe(len + 1, slen))
        return;
    for (size_t i = 0; i < nocc; i++)
        neutralise(raw, occs[i].pos);
}

static int directive_line(const char *s, size_t n)
{
    static const char *const K[] = {
        "include", "shell", "define", "undef", "ifdef", "ifndef", "endif", "else",
    };
    if (n == 0 || s[0] != G.cc)
        return 0;
    for (size_t i = 0; i < sizeof K / sizeof K[0]; i++) {
        size_t k = strlen(K[i]);
        if (n - 1 >= k && memcmp(s + 1, K[i], k) == 0)
            return 1;
    }
    return 0;
}

/* Walk the lines appended to b since offset from, as pmcpp would read
 * them (comment state, directives, false blocks), and repair text lines
 * whose substitution would overflow PCP's buffers. */
static void postcheck(buf *b, size_t from)
{
    static buf st;
    size_t i = from;
    while (i < b->n) {
        size_t e = i;
        while (e < b->n && b->p[e] != '\n')
            e++;
        char *raw = b->p + i;
        size_t len = e - i;
        st.n = 0;
        bmem(&st, raw, len);
        size_t slen = len;
        if (!G.sh) {
            int blanked = 0;
            for (size_t j = 0; j < len; j++) {
                if (G.pc_cmt) {
                    if (j + 1 < len && raw[j] == '*' && raw[j + 1] == '/') {
                        st.p[j] = st.p[j + 1] = ' ';
                        j++;
                        G.pc_cmt = 0;
                    } else {
                        st.p[j] = ' ';
                    }
                    blanked = 1;
                } else if (j + 1 < len && raw[j] == '/' && raw[j + 1] == '*') {
                    st.p[j] = st.p[j + 1] = ' ';
                    j++;
                    G.pc_cmt = 1;
                    blanked = 1;
                }
            }
            if (blanked)
                while (slen > 0 && is_space(st.p[slen - 1]))
                    slen--;
        }
        i = e + 1;
        if (!G.sh && G.pc_cmt && slen == 0)
            continue;
        if (directive_line(st.p, slen) || G.cond == C_FALSE)
            continue;
        fix_repl(raw, len, st.p, slen);
    }
}

/* ---------------------------------------------------------- the streams */

static int gen_stream(buf *b, int depth, int nlines, int plain);

/* Lines inside and at the end of a multi-line comment (C style): the caller
 * already wrote the line that opened it.  Returns the number of lines. */
static int comment_tail(buf *b)
{
    int lines = 0;
    unsigned k = rrange(0, 4);
    G.in_comment = 1;
    for (unsigned i = 0; i < k; i++, lines++) {
        switch (rn(10)) {
        case 0:
            bstr(b, "#define foo 1");
            break;
        case 1:
            bstr(b, "#include \"no_such_file\"");
            break;
        case 2:
            bstr(b, "#pragma inside a comment");
            break;
        case 3:
            bstr(b, "%ifdef X");
            break;
        case 4:
            break; /* empty */
        case 5:
            bstr(b, "   \t");
            break;
        case 6:
            bstr(b, "#else");
            break;
        default:
            gen_text(b, 0, 0);
            break;
        }
        if (pct(10))
            bch(b, ' ');
        eol(b);
    }
    G.in_comment = 0;
    /* the closing line */
    switch (rn(5)) {
    case 0:
        bstr(b, "*/");
        break;
    case 1:
        bstr(b, "  end */");
        break;
    case 2:
        gen_text(b, 0, 0);
        bstr(b, " */");
        break;
    default:
        bstr(b, pct(50) ? "end */ " : "*/");
        gen_text(b, 0, 0);
        if (pct(20)) {
            bch(b, ' ');
            closed_comment(b);
            if (pct(50)) {
                bch(b, ' ');
                gen_text(b, 0, 0);
            }
        }
        break;
    }
    if (pct(8))
        blanks(b);
    eol(b);
    return lines + 1;
}

/* -s style "comment": just text lines that look like one. */
static int fake_comment_tail(buf *b)
{
    unsigned k = rrange(0, 3);
    for (unsigned i = 0; i < k; i++) {
        gen_text(b, 0, 0);
        eol(b);
    }
    gen_text(b, 0, 0);
    bstr(b, " */");
    eol(b);
    return (int)k + 1;
}

/* The line after a directive that opened a comment. */
static int after_open(buf *b, int opened)
{
    return opened ? comment_tail(b) : 0;
}

static int pick_undefined(void)
{
    int cand[NPOOL], n = 0;
    for (int i = 0; i < NPOOL; i++)
        if (!G.defined[i])
            cand[n++] = i;
    return n ? cand[rn((unsigned)n)] : -1;
}

static void value_chars(buf *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        bch(b, VALCH[rn(sizeof VALCH - 1)]);
}

/* A value for #define: returns 1 if it is safe to put a comment after it
 * (no unbalanced quote characters). */
static int define_value(buf *b)
{
    switch (rn(9)) {
    case 0:
        return 1; /* no value */
    case 1:
    case 2:
    case 3:
        blanks(b);
        if (pct(30))
            number(b);
        else if (pct(20))
            bstr(b, pool_name()); /* not rescanned */
        else
            value_chars(b, rrange(1, 12));
        return 1;
    case 4:
        blanks(b); /* literal quote inside */
        value_chars(b, rrange(1, 4));
        bch(b, pct(50) ? '"' : '\'');
        value_chars(b, rrange(0, 4));
        return 0;
    case 5:
    case 6:
    case 7: {
        char q = pct(50) ? '"' : '\'';
        char other = q == '"' ? '\'' : '"';
        blanks(b);
        bch(b, q);
        unsigned n = rrange(0, 6);
        int others = 0;
        for (unsigned i = 0; i < n; i++) {
            if (i)
                bstr(b, pct(85) ? " " : pct(50) ? "\t" : "  ");
            if (pct(15)) {
                bch(b, other);
                others++;
            }
            if (pct(25))
                bstr(b, pool_name());
            else
                value_chars(b, rrange(1, 8));
        }
        if (others % 2)
            bch(b, other);
        bch(b, q);
        return 1;
    }
    default:
        blanks(b);
        bstr(b, pct(50) ? "''" : "\"\"");
        return 1;
    }
}

/* Length of the value #define takes from text (what follows the name). */
static size_t define_value_len(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && (p[i] == ' ' || p[i] == '\t'))
        i++;
    if (i < n && (p[i] == '"' || p[i] == '\'')) {
        const char *q = memchr(p + i + 1, p[i], n - i - 1);
        return q ? (size_t)(q - (p + i + 1)) : 0;
    }
    size_t j = i;
    while (j < n && !is_space(p[j]))
        j++;
    return j - i;
}

static int emit_define(buf *b, int *lines, int open_ok)
{
    int i;
    if (G.cond == C_FALSE)
        i = (int)rn(NPOOL); /* no effect: even a redefinition is fine */
    else if ((i = pick_undefined()) < 0)
        return 0;
    bch(b, G.cc);
    bstr(b, "define");
    blanks(b);
    bstr(b, POOL[i]);
    size_t vstart = b->n;
    int cok = define_value(b);
    if (G.cond != C_FALSE) {
        G.defined[i] = 1;
        G.vlen[i] = define_value_len(b->p + vstart, b->n - vstart);
    }
    int opened = trail(b, cok, open_ok);
    *lines += 1 + after_open(b, opened);
    return 1;
}

static void emit_undef(buf *b, int *lines, int open_ok)
{
    int i = (int)rn(NPOOL);
    bch(b, G.cc);
    bstr(b, "undef");
    blanks(b);
    bstr(b, POOL[i]);
    if (G.defined[i]) {
        G.undef_seen = 1; /* conservative: even inside a false block */
        if (G.cond != C_FALSE)
            G.defined[i] = 0;
    }
    int opened = trail(b, 1, open_ok);
    *lines += 1 + after_open(b, opened);
}

static void emit_if(buf *b, int *lines, int depth, int open_ok)
{
    int i = (int)rn(NPOOL);
    int ndef = pct(50);
    bch(b, G.cc);
    bstr(b, ndef ? "ifndef" : "ifdef");
    blanks(b);
    bstr(b, POOL[i]);
    G.cond = (G.defined[i] != ndef) ? C_TRUE : C_FALSE;
    G.cond_owner = depth;
    int opened = trail(b, 1, open_ok);
    *lines += 1 + after_open(b, opened);
}

static int else_allowed(void)
{
    if (G.cond == C_TRUE)
        return 1; /* turns the block false: harmless */
    return G.cond == C_FALSE && !G.else_true_used && !G.undef_seen;
}

static void emit_else(buf *b, int *lines, int open_ok)
{
    bch(b, G.cc);
    bstr(b, "else");
    if (G.cond == C_FALSE) {
        G.cond = C_TRUE;
        G.else_true_used = 1;
    } else {
        G.cond = C_FALSE;
    }
    int opened = trail(b, 1, open_ok);
    *lines += 1 + after_open(b, opened);
}

static void emit_endif(buf *b, int *lines, int open_ok)
{
    bch(b, G.cc);
    bstr(b, "endif");
    G.cond = C_NONE;
    int opened = trail(b, 1, open_ok);
    *lines += 1 + after_open(b, opened);
}

/* An unrecognised control line: plain text for pmcpp.  Only outside false
 * blocks (bug 2).  Never starts with a directive keyword. */
static void emit_unknown(buf *b)
{
    const char *n = pool_name();
    switch (rn(11)) {
    case 0:
        bfmt(b, "%cpragma %s", G.cc, n);
        break;
    case 1:
        bch(b, G.cc);
        break;
    case 2:
        bfmt(b, "%c %u \"%s\"", G.cc, rrange(1, 99), n);
        break;
    case 3:
        bfmt(b, "%c  define %s 2", G.cc, n);
        break;
    case 4:
        bfmt(b, "%cDefine %s 1", G.cc, n);
        break;
    case 5:
        bfmt(b, "%c%s start %s", G.cc, n, pool_name());
        break;
    case 6:
        bfmt(b, "%c{%s} %c%s", G.cc, n, G.cc, pool_name());
        break;
    case 7:
        bfmt(b, "%c!/bin/sh -x", G.cc);
        break;
    case 8:
        bfmt(b, "%c def %s", G.cc, n);
        break;
    case 9:
        bfmt(b, "%c%c %s", G.cc, G.cc, n);
        break;
    default:
        bfmt(b, "%c ", G.cc);
        gen_text(b, 0, 1);
        break;
    }
    eol(b);
}

/* Text that looks like a directive but is not one: leading blank, or a
 * comment in front of it (C style), or the other control character. */
static void emit_fake_directive(buf *b)
{
    const char *n = pool_name();
    switch (rn(6)) {
    case 0:
        bfmt(b, " %cdefine %s 1", G.cc, n);
        break;
    case 1:
        bfmt(b, "\t%cifdef %s", G.cc, n);
        break;
    case 2:
        bfmt(b, "/* c */%cdefine %s 1", G.cc, n);
        break;
    case 3:
        bfmt(b, "%cdefine %s 9", G.oc, n);
        break;
    case 4:
        bfmt(b, "%c comment %s %c%s", G.oc, n, G.cc, pool_name());
        break;
    default:
        bfmt(b, "  %cendif", G.cc);
        break;
    }
    eol(b);
}

static void emit_pmns(buf *b, int *lines)
{
    const char *dom = pool_name();
    bstr(b, pct(70) ? "root {" : "group.sub {");
    eol(b);
    unsigned k = rrange(1, 4);
    for (unsigned i = 0; i < k; i++) {
        bstr(b, pct(50) ? "    " : "\t");
        if (pct(50))
            word(b);
        else
            bstr(b, pool_name());
        bstr(b, pct(70) ? " " : "\t");
        if (G.rmode && pct(70))
            bfmt(b, pct(50) ? "%c%s" : "%c{%s}", G.cc, dom);
        else
            bstr(b, dom);
        unsigned x = rn(16), y = rn(64);
        bfmt(b, ":%u:%u", x, y);
        eol(b);
    }
    bch(b, '}');
    eol(b);
    *lines += (int)k + 2;
}

/* Line of text with C comments in it (plain text with -s). */
static int emit_comment_line(buf *b)
{
    switch (rn(8)) {
    case 0:
        if (pct(30))
            blanks(b);
        closed_comment(b);
        break;
    case 1:
        gen_text(b, 0, 0);
        bch(b, ' ');
        closed_comment(b);
        break;
    case 2:
        closed_comment(b);
        gen_text(b, 0, 0);
        break;
    case 3:
        gen_text(b, 0, 0);
        bstr(b, " /* a /* b */ c */ "); /* no nesting */
        gen_text(b, 0, 0);
        break;
    case 4:
        gen_text(b, 0, 0);
        bch(b, ' ');
        closed_comment(b);
        bch(b, ' ');
        gen_text(b, 0, 0);
        bch(b, ' ');
        closed_comment(b);
        break;
    case 5: {
        /* multi-line comment opened on a text line */
        if (pct(70))
            gen_text(b, 0, 0);
        bstr(b, " /*");
        comment_words(b);
        bch(b, '\n');
        return 1 + (G.sh ? fake_comment_tail(b) : comment_tail(b));
    }
    default:
        gen_text(b, 0, 0);
        bch(b, ' ');
        closed_comment(b);
        bch(b, ' ');
        gen_text(b, 0, 0);
        break;
    }
    if (pct(20))
        blanks(b);
    eol(b);
    return 1;
}

/* A new file name, and the name to write in the #include line. */
static void new_include(char *rel, size_t relsz, char *ref, size_t refsz)
{
    int id = ++G.nfiles;
    char base[32];
    switch (rn(8)) {
    case 0:
        snprintf(base, sizeof base, "inc %d", id);
        break;
    case 1:
        snprintf(base, sizeof base, "inc_%d.pmns", id);
        break;
    default:
        snprintf(base, sizeof base, "inc_%d", id);
        break;
    }
    int real[3], nreal = 0;
    for (int i = 0; i < G.nidirs; i++)
        if (strcmp(G.idirs[i], "nodir") != 0)
            real[nreal++] = i;
    unsigned how = rn(nreal ? 6 : 4);
    if (how <= 1) { /* next to the input */
        snprintf(rel, relsz, "%s", base);
        snprintf(ref, refsz, pct(15) ? "./%s" : "%s", base);
    } else if (how <= 3) { /* sub/ path */
        make_subdir("sub");
        snprintf(rel, relsz, "sub/%s", base);
        snprintf(ref, refsz, "sub/%s", base);
    } else { /* found via -I */
        int k = (int)rn((unsigned)nreal);
        make_subdir(G.idirs[real[k]]);
        snprintf(rel, relsz, "%s/%s", G.idirs[real[k]], base);
        snprintf(ref, refsz, "%s", base);
        if (k + 1 < nreal && pct(50)) {
            /* a decoy of the same name in a later -I directory */
            char drel[128];
            buf d = {0};
            make_subdir(G.idirs[real[k + 1]]);
            snprintf(drel, sizeof drel, "%s/%s", G.idirs[real[k + 1]], base);
            bstr(&d, "DECOY must not be included\n");
            write_file(drel, &d);
            bfree(&d);
        }
    }
}

/* An #include line: a comment may close on it but never opens on it. */
static void include_line(buf *b, const char *ref)
{
    bch(b, G.cc);
    bstr(b, "include");
    if (pct(92))
        blanks(b);
    if (pct(70))
        bfmt(b, "\"%s\"", ref);
    else
        bfmt(b, "<%s>", ref);
    trail(b, 1, 0);
}

static void emit_include(buf *b, int *lines, int depth)
{
    if (G.cond == C_FALSE) {
        /* not executed: the file need not exist */
        include_line(b, pct(50) ? "no_such_file" : "sub/missing");
        *lines += 1;
        return;
    }
    if (G.nreuse && pct(20)) {
        include_line(b, G.reuse[rn((unsigned)G.nreuse)]);
        *lines += 1;
        return;
    }
    if (pct(4)) {
        include_line(b, "/dev/null");
        *lines += 1;
        return;
    }
    char rel[128], ref[64];
    new_include(rel, sizeof rel, ref, sizeof ref);
    include_line(b, ref);
    *lines += 1;

    buf inc = {0};
    int plain = 0;
    if (pct(10)) {
        plain = 1; /* empty file */
    } else {
        plain = pct(25);
        gen_stream(&inc, depth + 1, (int)rrange(1, 14), plain);
    }
    write_file(rel, &inc);
    bfree(&inc);
    if (plain && G.nreuse < MAXREUSE)
        snprintf(G.reuse[G.nreuse++], sizeof G.reuse[0], "%s", ref);
}

/* Characters safe inside both '...' and "..." for sh and for pmcpp's
 * #shell parser: no quotes, '\\', '$', '`', '*', no leading '-'. */
static void shell_text(buf *b)
{
    unsigned n = rrange(1, 5);
    for (unsigned i = 0; i < n; i++) {
        if (i)
            bch(b, ' ');
        switch (rn(6)) {
        case 0:
        case 1:
            bstr(b, pool_name());
            break;
        case 2:
            if (G.rmode) {
                const char *fmt = pct(50) ? "%c%s" : "%c{%s}";
                bfmt(b, fmt, G.cc, pool_name());
            } else
                word(b);
            break;
        case 3: {
            unsigned x = rn(100), y = rn(100);
            bfmt(b, "%u:%u", x, y);
            break;
        }
        default:
            word(b);
            break;
        }
    }
}

static void emit_shell(buf *b, int *lines)
{
    char q = pct(50) ? '\'' : '"';
    char iq = q == '"' ? '\'' : '"';
    bch(b, G.cc);
    bstr(b, "shell");
    blanks(b);
    bch(b, q);
    *lines += 1;
    if (G.cond == C_FALSE || pct(20)) {
        static const char *const Q[] = {"exit 0", "true", ":", "echo never"};
        bstr(b, Q[rn(4)]);
    } else {
        unsigned k = rrange(1, 3);
        int use_printf = pct(30);
        if (use_printf)
            bfmt(b, "printf %c%%s\\n%c", iq, iq);
        for (unsigned i = 0; i < k; i++) {
            if (!use_printf)
                bstr(b, i ? "; echo " : "echo ");
            else
                bch(b, ' ');
            bch(b, iq);
            int d;
            if (pct(20) && (d = pick_undefined()) >= 0) {
                unsigned vl = rrange(1, 6);
                bfmt(b, "%cdefine %s ", G.cc, POOL[d]);
                value_chars(b, vl);
                G.defined[d] = 1;
                G.vlen[d] = vl;
            } else {
                size_t at = b->n;
                shell_text(b);
                if (b->p[at] == G.cc)
                    b->p[at] = 'z';
                /* an output line of the command: check its substitution */
                char *line = b->p + at;
                size_t len = b->n - at;
                char *copy = malloc(len + 1);
                if (!copy) {
                    perror("gen_pmcpp_corpus: malloc");
                    exit(2);
                }
                memcpy(copy, line, len);
                fix_repl(line, len, copy, len);
                free(copy);
            }
            bch(b, iq);
        }
    }
    bch(b, q);
    if (pct(15))
        blanks(b);
    eol(b);
}

static void emit_long(buf *b, int huge)
{
    size_t len = huge ? rrange(65 * 1024, 100 * 1024) : rrange(4200, 20000);
    gen_text(b, len, !huge || pct(50));
    eol(b);
}

enum {
    A_TEXT,
    A_EMPTY,
    A_PMNS,
    A_COMMENT,
    A_DEFINE,
    A_UNDEF,
    A_IF,
    A_ELSE,
    A_ENDIF,
    A_INCLUDE,
    A_SHELL,
    A_UNKNOWN,
    A_FAKE,
    A_LONG,
    A_NACT
};

/* Writes about nlines lines of a stream at the given depth (0 = the input).
 * plain: only text and comments (the file may be included repeatedly). */
static int gen_stream(buf *b, int depth, int nlines, int plain)
{
    int lines = 0;
    while (lines < nlines) {
        unsigned w[A_NACT] = {0};
        int left = nlines - lines;
        int open_ok = !G.sh && pct(50);
        w[A_TEXT] = 30;
        w[A_EMPTY] = 5;
        w[A_PMNS] = 3;
        w[A_COMMENT] = 9;
        w[A_FAKE] = 2;
        if (G.long_left || G.huge_left)
            w[A_LONG] = 2;
        if (!plain) {
            w[A_DEFINE] = 9;
            w[A_UNDEF] = 2;
            if (G.cond == C_NONE && left >= 2)
                w[A_IF] = 8;
            if (G.cond != C_NONE && else_allowed())
                w[A_ELSE] = G.cond_owner == depth ? 5 : 1;
            if (G.cond != C_NONE)
                w[A_ENDIF] = G.cond_owner == depth ? 7 : 1;
            if (depth < MAXDEPTH) {
                w[A_INCLUDE] = 4;
                w[A_SHELL] = 1;
            }
            if (G.cond != C_FALSE)
                w[A_UNKNOWN] = 3;
        }
        unsigned tot = 0;
        for (int i = 0; i < A_NACT; i++)
            tot += w[i];
        unsigned r = rn(tot);
        int a = 0;
        while (r >= w[a])
            r -= w[a++];
        size_t mark = b->n;

        switch (a) {
        case A_TEXT:
            gen_text(b, 0, 1);
            if (pct(6))
                blanks(b);
            eol(b);
            lines++;
            break;
        case A_EMPTY:
            if (pct(10))
                blanks(b);
            eol(b);
            lines++;
            break;
        case A_PMNS:
            emit_pmns(b, &lines);
            break;
        case A_COMMENT:
            lines += emit_comment_line(b);
            break;
        case A_FAKE:
            emit_fake_directive(b);
            lines++;
            break;
        case A_LONG:
            emit_long(b, G.huge_left > 0);
            if (G.huge_left)
                G.huge_left--;
            else
                G.long_left--;
            lines++;
            break;
        case A_DEFINE:
            if (!emit_define(b, &lines, open_ok))
                emit_undef(b, &lines, open_ok);
            break;
        case A_UNDEF:
            emit_undef(b, &lines, open_ok);
            break;
        case A_IF:
            emit_if(b, &lines, depth, open_ok);
            break;
        case A_ELSE:
            emit_else(b, &lines, open_ok);
            break;
        case A_ENDIF:
            emit_endif(b, &lines, open_ok);
            break;
        case A_INCLUDE:
            emit_include(b, &lines, depth);
            break;
        case A_SHELL:
            emit_shell(b, &lines);
            break;
        default:
            emit_unknown(b);
            lines++;
            break;
        }
        postcheck(b, mark);
    }
    /* a block opened in this stream is closed in this stream */
    if (G.cond != C_NONE && G.cond_owner == depth)
        emit_endif(b, &lines, 0);
    return lines;
}

/* ------------------------------------------------------------- the args */

/* Shell-quoted (for eval) -D argument text for an undefined pool name;
 * returns the length of the macro's value. */
static size_t d_arg(buf *b, int i)
{
    const char *n = POOL[i];
    size_t at;
    switch (rn(8)) {
    case 0:
        bstr(b, n);
        return 0; /* empty value */
    case 1:
        bfmt(b, "%s=", n);
        return 0; /* empty value */
    case 2:
    case 3: { /* X="a b", X='a b' */
        int dq = pct(50);
        bfmt(b, dq ? "'%s=\"" : "\"%s='", n);
        at = b->n;
        unsigned k = rrange(1, 3);
        for (unsigned j = 0; j < k; j++) {
            if (j)
                bch(b, ' ');
            value_chars(b, rrange(1, 6));
        }
        size_t vl = b->n - at;
        bstr(b, dq ? "\"'" : "'\"");
        return vl;
    }
    case 4:
        bfmt(b, "%s=a=b", n);
        return 3; /* first '=' only */
    default:
        bfmt(b, "%s=", n);
        at = b->n;
        if (pct(40))
            number(b);
        else
            value_chars(b, rrange(1, 10));
        return b->n - at;
    }
}

static void gen_args(buf *a)
{
    /* items: flags P r s, -D defines, -I dirs; shuffled, then rendered
     * with random bundling */
    char flags[4];
    int nflags = 0;
    if (pct(50))
        flags[nflags++] = 'P';
    if (G.rmode)
        flags[nflags++] = 'r';
    if (G.sh)
        flags[nflags++] = 's';
    /* shuffle the flags */
    for (int i = nflags - 1; i > 0; i--) {
        int j = (int)rn((unsigned)i + 1);
        char t = flags[i];
        flags[i] = flags[j];
        flags[j] = t;
    }

    int ndef = pct(45) ? (int)rrange(1, 4) : 0;
    int defs[4], nd = 0;
    for (int k = 0; k < ndef; k++) {
        int i = pick_undefined();
        if (i < 0)
            break;
        G.defined[i] = 1;
        defs[nd++] = i;
    }

    /* -I list: real directories sub/sub2 and a missing one */
    G.nidirs = 0;
    if (pct(45)) {
        const char *cand[3] = {"sub", "sub2", "nodir"};
        for (int i = 2; i > 0; i--) {
            int j = (int)rn((unsigned)i + 1);
            const char *t = cand[i];
            cand[i] = cand[j];
            cand[j] = t;
        }
        int n = (int)rrange(1, 3);
        for (int i = 0; i < n; i++)
            G.idirs[G.nidirs++] = cand[i];
    }

    /* render */
    int fi = 0, di = 0, ii = 0;
    int first = 1;
    while (fi < nflags || di < nd || ii < G.nidirs) {
        unsigned w0 = (unsigned)(nflags - fi), w1 = (unsigned)(nd - di) * 2,
                 w2 = (unsigned)(G.nidirs - ii) * 2;
        unsigned r = rn(w0 + w1 + w2);
        if (!first)
            bch(a, ' ');
        first = 0;
        if (r < w0) {
            /* a flag group, maybe with a trailing D or I */
            if (pct(15)) {
                char f = flags[fi++];
                bstr(a, f == 'P' ? "-P" : f == 'r' ? "--restrict" : "--shell");
                continue;
            }
            bch(a, '-');
            unsigned g = rrange(1, (unsigned)(nflags - fi));
            for (unsigned k = 0; k < g; k++)
                bch(a, flags[fi++]);
            if (di < nd && pct(40)) {
                bch(a, 'D');
                if (pct(30))
                    bch(a, ' ');
                G.vlen[defs[di]] = d_arg(a, defs[di]);
                di++;
            } else if (ii < G.nidirs && pct(40)) {
                bch(a, 'I');
                if (pct(30))
                    bch(a, ' ');
                bstr(a, G.idirs[ii++]);
            }
        } else if (r < w0 + w1) {
            switch (rn(6)) {
            case 0:
                bstr(a, "-D ");
                break;
            case 1:
                bstr(a, "--define=");
                break;
            case 2:
                bstr(a, "--define ");
                break;
            default:
                bstr(a, "-D");
                break;
            }
            G.vlen[defs[di]] = d_arg(a, defs[di]);
            di++;
        } else {
            switch (rn(4)) {
            case 0:
                bstr(a, "-I");
                break;
            case 1:
                bstr(a, "--include=");
                break;
            case 2:
                bstr(a, "--include ");
                break;
            default:
                bstr(a, "-I ");
                break;
            }
            bstr(a, G.idirs[ii++]);
        }
    }
    bch(a, '\n');
}

/* ------------------------------------------------------------- the case */

static void gen_case(uint64_t seed, int idx, const char *outdir)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/case_%04d", outdir, idx);
    make_dir(dir);

    rng_s = splitmix64(seed * 0x100000001b3ULL + (uint64_t)idx);
    if (!rng_s)
        rng_s = 1;
    memset(&G, 0, sizeof G);
    G.casedir = dir;
    G.sh = pct(45);
    G.rmode = pct(45);
    G.cc = G.sh ? '%' : '#';
    G.oc = G.sh ? '#' : '%';
    G.long_left = pct(15);
    G.huge_left = pct(2);

    buf args = {0};
    gen_args(&args);
    write_file("args", &args);
    bfree(&args);

    buf in = {0};
    if (!pct(2))
        gen_stream(&in, 0, (int)rrange(3, 70), 0);
    write_file("input", &in);
    bfree(&in);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "Usage: gen_pmcpp_corpus SEED COUNT OUTDIR\n");
        return 2;
    }
    char *end;
    errno = 0;
    unsigned long long seed = strtoull(argv[1], &end, 0);
    if (errno || *end || end == argv[1]) {
        fprintf(stderr, "gen_pmcpp_corpus: bad SEED '%s'\n", argv[1]);
        return 2;
    }
    long count = strtol(argv[2], &end, 10);
    if (*end || end == argv[2] || count < 0 || count > 99999) {
        fprintf(stderr, "gen_pmcpp_corpus: bad COUNT '%s'\n", argv[2]);
        return 2;
    }
    make_dir(argv[3]);
    for (long i = 1; i <= count; i++)
        gen_case((uint64_t)seed, (int)i, argv[3]);
    return 0;
}
