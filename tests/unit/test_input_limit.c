/*
 * Unit tests for the input limit (libpcp/front/input_limit.h) and the
 * readers it bounds, with every allocation of the static libraries seen
 * through alloc_hooks.h (alloc_largest):
 *
 *  - $PMKIT_INPUT_LIMIT: bytes, K/M/G, the default for anything else;
 *  - the preprocessor: a line longer than the limit ends its stream with
 *    "line longer than the input limit", at its line, and the including
 *    file goes on; a line under the limit is read whole;
 *  - the PMNS parser: a namespace's text over the limit, or a raw load's
 *    line (which is part of it), stops the load; nothing larger than twice
 *    the limit is allocated;
 *  - newhelp's help_read_fd: a regular file over the limit is refused
 *    before any byte is read, a stream after limit + 1 bytes;
 *  - the help reader: a .dir FIFO is refused on its 12-byte header without
 *    waiting for its end; a sparse .dir of 5 GiB whose size does not match
 *    its header, and one over the limit, are refused without an allocation
 *    of their size; a .dir replaced while its .pag is being read is read
 *    again, so an old .dir is never paired with a new .pag (the reader
 *    would take that mixed pair: its offsets land inside the new .pag).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#include "alloc_hooks.h"
#include "cpp.h"
#include "help_int.h"
#include "input_limit.h"
#include "pmns.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof(dir), "%s/pmkit-limit-XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    return mkdtemp(dir) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    char cmd[300];

    (void)state;
    unsetenv(PMKIT_INPUT_LIMIT_ENV);
    snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *at(const char *name)
{
    static char paths[4][512];
    static int next;
    char *p = paths[next++ % 4];

    snprintf(p, sizeof(paths[0]), "%s/%s", dir, name);
    return p;
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

    assert_true(fd >= 0);
    assert_int_equal(write(fd, data, len), (ssize_t)len);
    close(fd);
}

/* Diagnostics collected: the count and the last message. */
typedef struct seen {
    int n;
    char last[256];
    unsigned long line;
    char file[128];
} seen;

static void collect(void *ctx, const diag_msg *d)
{
    seen *s = ctx;

    s->n++;
    snprintf(s->last, sizeof(s->last), "%s", d->message);
    snprintf(s->file, sizeof(s->file), "%s", d->file);
    s->line = d->line;
}

static void limit_values(void **state)
{
    (void)state;
    unsetenv(PMKIT_INPUT_LIMIT_ENV);
    assert_int_equal(pmkit_input_limit(), (size_t)1 << 30);
    setenv(PMKIT_INPUT_LIMIT_ENV, "12345", 1);
    assert_int_equal(pmkit_input_limit(), 12345);
    setenv(PMKIT_INPUT_LIMIT_ENV, "64K", 1);
    assert_int_equal(pmkit_input_limit(), 65536);
    setenv(PMKIT_INPUT_LIMIT_ENV, "3m", 1);
    assert_int_equal(pmkit_input_limit(), 3 << 20);
    setenv(PMKIT_INPUT_LIMIT_ENV, "2G", 1);
    assert_int_equal(pmkit_input_limit(), (size_t)2 << 30);
}

/* Values that are not a size leave the default. */
static void limit_bad_values(void **state)
{
    static const char *const bad[] = {
        "", "0", "-5", "12x", "5KB", "K", " 5", "99999999999999999999", "9999999999999G"};

    (void)state;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        setenv(PMKIT_INPUT_LIMIT_ENV, bad[i], 1);
        assert_int_equal(pmkit_input_limit(), (size_t)1 << 30);
    }
}

static int discard(void *ctx, const char *data, size_t len)
{
    size_t *total = ctx;

    (void)data;
    *total += len;
    return 0;
}

/* text: "a\n", a line of n 'x' (no newline when last), "b\n" if !last. */
static char *long_line_text(size_t n, int last, size_t *len)
{
    char *t = malloc(n + 8);

    assert_non_null(t);
    memcpy(t, "a\n", 2);
    memset(t + 2, 'x', n);
    *len = n + 2;
    if (!last) {
        memcpy(t + *len, "\nb\n", 3);
        *len += 3;
    }
    return t;
}

static void cpp_line_over_the_limit(void **state)
{
    cpp_options o = {0};
    seen s = {0};
    size_t len, out = 0;
    char *t = long_line_text(600 * 1024, 1, &len);
    cpp_sink sink = {discard, &out};

    (void)state;
    setenv(PMKIT_INPUT_LIMIT_ENV, "256K", 1);
    o.diag = collect, o.diag_ctx = &s, o.form = DIAG_FORM_RICH;
    alloc_largest = 0;
    assert_true(cpp_run_buffer(&o, "long", t, len, &sink, NULL) < 0);
    free(t);
    assert_int_equal(s.n, 1);
    assert_string_equal(s.last,
                        "line longer than the input limit (262144 bytes, PMKIT_INPUT_LIMIT)");
    assert_string_equal(s.file, "long");
    assert_int_equal(s.line, 2);
    assert_true(alloc_largest <= 256 * 1024 + 64 * 1024 + 64);
}

static void cpp_line_under_the_limit(void **state)
{
    cpp_options o = {0};
    seen s = {0};
    size_t len, out = 0;
    char *t = long_line_text(200 * 1024, 0, &len);
    cpp_sink sink = {discard, &out};

    (void)state;
    setenv(PMKIT_INPUT_LIMIT_ENV, "256K", 1);
    o.diag = collect, o.diag_ctx = &s, o.form = DIAG_FORM_RICH, o.no_markers = 1;
    assert_int_equal(cpp_run_buffer(&o, "long", t, len, &sink, NULL), 0);
    free(t);
    assert_int_equal(s.n, 0);
    assert_int_equal(out, len);
}

/* An #include of an endless line: reported there, and the includer goes on. */
static void cpp_include_over_the_limit(void **state)
{
    cpp_options o = {0};
    seen s = {0};
    size_t len, out = 0;
    char *t = long_line_text(600 * 1024, 1, &len);
    char top[600];
    cpp_sink sink = {discard, &out};

    (void)state;
    write_bytes(at("zero.h"), t, len);
    free(t);
    snprintf(top, sizeof(top), "#include \"%s\"\n#error after\n", at("zero.h"));
    write_bytes(at("top"), top, strlen(top));
    setenv(PMKIT_INPUT_LIMIT_ENV, "256K", 1);
    o.diag = collect, o.diag_ctx = &s, o.form = DIAG_FORM_RICH;
    assert_true(cpp_run_file(&o, at("top"), &sink, NULL) < 0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.last, "#error after");
}

static void pmns_raw_line_over_the_limit(void **state)
{
    pmns_load_opts o = {0};
    pmns_tree *t = NULL;
    seen s = {0};
    size_t len;
    char *text = long_line_text(600 * 1024, 1, &len);

    (void)state;
    memcpy(text, "r\n", 2);
    write_bytes(at("raw"), text, len);
    free(text);
    setenv(PMKIT_INPUT_LIMIT_ENV, "256K", 1);
    o.file = at("raw"), o.diag = collect, o.diag_ctx = &s, o.form = DIAG_FORM_RICH;
    alloc_largest = 0;
    assert_int_equal(pmns_load(&o, &t), PM_ERR_PMNS);
    assert_null(t);
    assert_true(s.n >= 1);
    /* a line is part of the text: the text's limit holds it */
    assert_non_null(strstr(s.last, "namespace longer than the input limit (262144 bytes"));
    assert_true(alloc_largest <= 2 * 256 * 1024);
}

/* A namespace of 20000 names, some 300 KB, with the limit at 256K: with
 * the preprocessor and without. */
static void pmns_text_over_the_limit(void **state)
{
    FILE *fp = fopen(at("big"), "w");
    pmns_load_opts o = {0};
    pmns_tree *t = NULL;
    seen s = {0};

    (void)state;
    assert_non_null(fp);
    fputs("root {\n", fp);
    for (int i = 0; i < 20000; i++)
        fprintf(fp, "\tmetric_number_%d\t1:%d:%d\n", i, i / 1000, i % 1000);
    fputs("}\n", fp);
    fclose(fp);
    o.file = at("big"), o.diag = collect, o.diag_ctx = &s, o.form = DIAG_FORM_RICH;
    assert_int_equal(pmns_load(&o, &t), 0); /* the default limit: loads */
    pmns_free(t);
    t = NULL;
    setenv(PMKIT_INPUT_LIMIT_ENV, "256K", 1);
    for (int cpp = 0; cpp < 2; cpp++) {
        s.n = 0;
        o.use_cpp = cpp;
        assert_int_equal(pmns_load(&o, &t), PM_ERR_PMNS);
        assert_null(t);
        assert_int_equal(s.n, 1);
        assert_non_null(strstr(s.last, "namespace longer than the input limit (262144 bytes"));
    }
}

static void help_read_fd_bounds(void **state)
{
    char *buf = NULL, data[3000];
    size_t len = 0;
    int fd, p[2];

    (void)state;
    memset(data, 'h', sizeof(data));
    write_bytes(at("src"), data, sizeof(data));
    fd = open(at("src"), O_RDONLY);
    alloc_largest = 0;
    assert_int_equal(help_read_fd(fd, 2999, &buf, &len), -EFBIG);
    assert_int_equal(alloc_largest, 0); /* refused on its size */
    assert_int_equal(help_read_fd(fd, 3000, &buf, &len), 0);
    assert_int_equal(len, 3000);
    free(buf);
    close(fd);
    /* a stream: refused after max + 1 bytes */
    assert_int_equal(pipe(p), 0);
    assert_int_equal(write(p[1], data, sizeof(data)), (ssize_t)sizeof(data));
    close(p[1]);
    assert_int_equal(help_read_fd(p[0], 2000, &buf, &len), -EFBIG);
    close(p[0]);
}

static void on_alarm(int sig)
{
    (void)sig;
    fail_msg("the help reader waited for the end of a FIFO whose header is bad");
}

/* A .dir that is a FIFO sending 12 bytes of zeros and then nothing, its
 * writer still open: refused on the header, at once. */
static void help_dir_header_read_first(void **state)
{
    char why[256] = "";
    help_db db;
    pid_t pid;
    int sts;

    (void)state;
    assert_int_equal(mkfifo(at("fifo.dir"), 0600), 0);
    if ((pid = fork()) == 0) {
        int fd = open(at("fifo.dir"), O_WRONLY);
        char zeros[12] = {0};
        if (write(fd, zeros, sizeof(zeros)) != sizeof(zeros))
            _exit(1);
        sleep(30); /* killed by the test */
        _exit(0);
    }
    signal(SIGALRM, on_alarm);
    alarm(10);
    sts = help_db_load(&db, at("fifo"), why, sizeof(why));
    alarm(0);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    assert_int_equal(sts, -EINVAL);
    assert_string_equal(why, ".dir has no PCP help magic");
}

/* A header claiming 2 entries; the file sparse and 5 GiB long. */
static void help_huge_sparse_dir(void **state)
{
    static const unsigned char head[12] = {0x68, 0x50, 0x63, 0x50, 0, 0, 0x32, 0x31, 2, 0, 0, 0};
    char why[256] = "";
    help_db db;
    int fd;

    (void)state;
    write_bytes(at("sparse.dir"), head, sizeof(head));
    assert_int_equal(truncate(at("sparse.dir"), (off_t)5 << 30), 0);
    write_bytes(at("sparse.pag"), "PcPh22\n", 7);
    alloc_largest = 0;
    assert_int_equal(help_db_load(&db, at("sparse"), why, sizeof(why)), -EINVAL);
    assert_string_equal(why, ".dir is 5368709120 bytes, but 2 entries need 36");
    assert_true(alloc_largest < 4096);
    /* its header matching its size, but over the limit */
    fd = open(at("sparse.dir"), O_WRONLY);
    assert_true(fd >= 0);
    {
        uint32_t n = (uint32_t)(((uint64_t)5 << 30) / 12 - 1);
        unsigned char nb[4] = {(unsigned char)n, (unsigned char)(n >> 8), (unsigned char)(n >> 16),
                               (unsigned char)(n >> 24)};
        assert_int_equal(pwrite(fd, nb, 4, 8), 4);
        assert_int_equal(ftruncate(fd, (off_t)12 * ((off_t)n + 1)), 0);
    }
    close(fd);
    alloc_largest = 0;
    assert_int_equal(help_db_load(&db, at("sparse"), why, sizeof(why)), -EFBIG);
    assert_string_equal(
        why, ".dir is larger than the input limit (1073741824 bytes, PMKIT_INPUT_LIMIT)");
    assert_true(alloc_largest < 4096);
}

/* Two databases of the same keys whose texts differ in length, so that the
 * old index read with the new texts gives a wrong text, not an error. */
static void build_pair(const char *base, const char *one, const char *two)
{
    help_wentry e[2] = {
        {pmID_build(1, 0, 0), "1.0.0", 5, one, strlen(one), "", 0},
        {pmID_build(1, 0, 1), "1.0.1", 5, two, strlen(two), "", 0},
    };
    help_image img;
    char path[600];

    assert_int_equal(help_image_build(e, 2, &img), 0);
    snprintf(path, sizeof(path), "%s.dir", base);
    write_bytes(path, img.dir, img.dirlen);
    snprintf(path, sizeof(path), "%s.pag", base);
    write_bytes(path, img.pag, img.paglen);
    help_image_free(&img);
}

static const char *text_of(help_db *db, pmID pmid)
{
    uint32_t i = help_db_find(db, pmid, 0);

    return i == HELP_NONE ? NULL : help_db_text(db, help_db_record(db, i).off_oneline);
}

/* The reader opens the old .dir, then meets (through a FIFO) the new .pag:
 * a writer replaced the pair in between, as newhelp does (.dir last).  The
 * reader must read again and answer the new pair, not the mixed one. */
static void help_pair_replaced_while_read(void **state)
{
    char why[256] = "";
    help_db db;
    pid_t pid;
    int st;

    (void)state;
    build_pair(at("old"), "a", "bbbbbbbb");
    build_pair(at("new"), "cccccccc", "d");
    assert_int_equal(rename(at("old.dir"), at("db.dir")), 0);
    assert_int_equal(mkfifo(at("db.pag"), 0600), 0);
    if ((pid = fork()) == 0) {
        /* the writer: once the reader holds the old .dir and opens the
         * .pag, both files are replaced, then the new .pag's bytes sent */
        FILE *fp = fopen(at("new.pag"), "r");
        char buf[256];
        size_t n = fp != NULL ? fread(buf, 1, sizeof(buf), fp) : 0;
        int fd = open(at("db.pag"), O_WRONLY);
        if (fd < 0 || n == 0 || rename(at("new.dir"), at("db.dir")) < 0 ||
            rename(at("new.pag"), at("db.pag")) < 0 || write(fd, buf, n) != (ssize_t)n)
            _exit(1);
        _exit(0);
    }
    signal(SIGALRM, on_alarm);
    alarm(10);
    assert_int_equal(help_db_load(&db, at("db"), why, sizeof(why)), 0);
    alarm(0);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_string_equal(text_of(&db, pmID_build(1, 0, 0)), "cccccccc");
    assert_string_equal(text_of(&db, pmID_build(1, 0, 1)), "d");
    help_db_free(&db);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(limit_values),
        T(limit_bad_values),
        T(cpp_line_over_the_limit),
        T(cpp_line_under_the_limit),
        T(cpp_include_over_the_limit),
        T(pmns_raw_line_over_the_limit),
        T(pmns_text_over_the_limit),
        T(help_read_fd_bounds),
        T(help_dir_header_read_first),
        T(help_huge_sparse_dir),
        T(help_pair_replaced_while_read),
    };

    return cmocka_run_group_tests_name("input_limit", tests, NULL, NULL);
}
