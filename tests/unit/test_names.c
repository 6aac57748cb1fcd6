/*
 * Unit tests for the PMAPI name services over a loaded namespace
 * (libpcp/names/pmns.c): load/unload states, including the state after a
 * failed load (where pmkit deliberately differs from PCP, docs/compat.md),
 * batch lookups with derived names, children, traversal and reverse lookups,
 * and an unload from a thread started in the middle of a traversal.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#include "support.h" /* pmkit_single_threaded */

static char good[64], dupfile[64], noroot[64], shapes[64], shapes_big[64];

/* Leaves under "pad" that make shapes_big large enough for a text load's
 * leaf index (LEAF_INDEX_MIN in libpcp/names/pmns.c is 16384). */
#define PAD_LEAVES 16400

static void write_file(char *path, const char *text)
{
    int fd;
    FILE *f;

    strcpy(path, "/tmp/pmkit-names-XXXXXX");
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
    (void)state;
    write_file(good, "#define D 30\n"
                     "root {\n    a  D:0:1\n    grp\n    dyn D:*:*\n    alias D:0:1\n}\n"
                     "grp {\n    x  D:1:1\n    y  D:1:2\n}\n");
    write_file(dupfile, "root {\n    a 1:0:1\n    b 1:0:1\n}\n");
    write_file(noroot, "other {\n    a 1:0:1\n}\n");
    /* one own name at the leaf index's 19-byte limit, one just over it,
     * and the same own name at several depths */
    write_file(shapes, "root {\n    x 2:0:1\n    g\n    h\n}\n"
                       "g {\n    x 2:0:2\n    abcdefghijklmnopqrs 2:0:3\n"
                       "    abcdefghijklmnopqrst 2:0:4\n    h\n}\n"
                       "g.h {\n    x 2:0:5\n}\n"
                       "h {\n    y 2:0:6\n}\n");
    /* the same shapes and a group of PAD_LEAVES more leaves */
    static char big[PAD_LEAVES * 24 + 512];
    int n = snprintf(big, sizeof(big),
                     "root {\n    x 2:0:1\n    g\n    h\n    pad\n}\n"
                     "g {\n    x 2:0:2\n    abcdefghijklmnopqrs 2:0:3\n"
                     "    abcdefghijklmnopqrst 2:0:4\n    h\n}\n"
                     "g.h {\n    x 2:0:5\n}\n"
                     "h {\n    y 2:0:6\n}\npad {\n");
    for (int i = 0; i < PAD_LEAVES; i++)
        n += snprintf(big + n, sizeof(big) - (size_t)n, "    p%d 3:%d:%d\n", i, i / 1024, i % 1024);
    snprintf(big + n, sizeof(big) - (size_t)n, "}\n");
    write_file(shapes_big, big);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    pmUnloadNameSpace();
    unlink(good);
    unlink(dupfile);
    unlink(noroot);
    unlink(shapes);
    unlink(shapes_big);
    return 0;
}

static void nothing_loaded(void)
{
    pmID pmid;
    const char *name = "a";
    char **kids = NULL;

    assert_int_equal(pmGetPMNSLocation(), PM_ERR_NOPMNS);
    assert_int_equal(pmLookupName(1, &name, &pmid), PM_ERR_NOPMNS);
    assert_int_equal(pmGetChildren("", &kids), PM_ERR_NOPMNS);
}

/* An unload from a thread that a traversal's callback starts. */
static atomic_int unloaded, visits, intact;
static pthread_t unloader;
static char recorded[64][64]; /* the names of the traversal before it */
static int nrecorded;

static void *unload_now(void *arg)
{
    (void)arg;
    pmUnloadNameSpace();
    atomic_store(&unloaded, 1);
    return NULL;
}

static void start_unloader(const char *name, void *closure)
{
    struct timespec pause = {0, 20 * 1000000L};
    int visit = atomic_fetch_add(&visits, 1);

    (void)closure;
    if (visit == 0) {
        assert_int_equal(pthread_create(&unloader, NULL, unload_now, NULL), 0);
        for (int i = 0; i < 250 && !atomic_load(&unloaded); i++)
            nanosleep(&pause, NULL);
        assert_int_equal(atomic_load(&unloaded), 1); /* the unload does not wait */
    }
    /* and the traversal goes on with the names it had: the ones the
     * traversal before the unload gave, in the same order */
    if (visit < nrecorded && strcmp(recorded[visit], name) == 0)
        atomic_fetch_add(&intact, 1);
}

static void record_name(const char *name, void *closure)
{
    (void)closure;
    assert_true(nrecorded < 64 && strlen(name) < sizeof(recorded[0]));
    strcpy(recorded[nrecorded++], name);
}

/* Runs first, while the process has one thread.  A thread started from a
 * traversal's callback unloads the namespace: the unload does not wait
 * for the traversal, which keeps its namespace by a reference of its own
 * and goes on to visit every name (under AddressSanitizer, a traversal
 * reading the freed namespace fails here); then nothing is loaded, and a
 * load works again. */
static void unload_during_traversal(void **state)
{
    int n;

    (void)state;
#if PMKIT_HAVE_SINGLE_THREADED
    assert_true(pmkit_single_threaded());
#endif
    assert_int_equal(pmLoadASCIINameSpace(good, 1), 0);
    n = pmTraversePMNS_r("", record_name, NULL);
    assert_true(n >= 5 && n == nrecorded);
    assert_int_equal(pmTraversePMNS_r("", start_unloader, NULL), n);
    assert_int_equal(atomic_load(&visits), n);
    assert_int_equal(atomic_load(&intact), n);
    assert_int_equal(pthread_join(unloader, NULL), 0);
    nothing_loaded();
    assert_int_equal(pmLoadASCIINameSpace(good, 1), 0); /* and loads again */
    pmUnloadNameSpace();
}

/* A failed load leaves nothing installed: no phantom namespace, no
 * PM_ERR_DUPPMNS on the next load (PCP keeps the half-built tree). */
static void failed_load_leaves_nothing(void **state)
{
    (void)state;
    nothing_loaded();
    assert_int_equal(pmLoadASCIINameSpace(dupfile, 0), PM_ERR_PMNS);
    nothing_loaded();
    assert_int_equal(pmLoadASCIINameSpace(noroot, 1), PM_ERR_PMNS);
    nothing_loaded();
    assert_int_equal(pmLoadASCIINameSpace("/nonexistent/pmns", 1), -ENOENT);
    nothing_loaded();
    /* pmLoadNameSpace does not preprocess: "#define" is a bad line marker */
    assert_int_equal(pmLoadNameSpace(good), PM_ERR_PMNS);
    nothing_loaded();
    /* the same duplicate loads when duplicates are allowed */
    assert_int_equal(pmLoadASCIINameSpace(dupfile, 1), 0);
    assert_int_equal(pmGetPMNSLocation(), PMNS_LOCAL);
    assert_int_equal(pmLoadASCIINameSpace(good, 1), PM_ERR_DUPPMNS);
    pmUnloadNameSpace();
    pmUnloadNameSpace(); /* a second unload is harmless */
    nothing_loaded();
}

static void batch_lookup_counts(void **state)
{
    const char *names[4];
    pmID ids[4];

    (void)state;
    assert_int_equal(pmLoadASCIINameSpace(good, 1), 0);

    names[0] = "a";
    names[1] = "grp.y";
    names[2] = "dyn.anything.below";
    assert_int_equal(pmLookupName(3, names, ids), 3);
    assert_int_equal(ids[0], pmID_build(30, 0, 1));
    assert_int_equal(ids[1], pmID_build(30, 1, 2));
    assert_int_equal(ids[2], pmID_build(511, 30, 0)); /* dynamic root */

    /* a derived name counts only when every name resolves */
    names[0] = "a";
    names[1] = "nosuch";
    names[2] = "event.missed";
    assert_int_equal(pmLookupName(3, names, ids), 1);
    assert_int_equal(ids[1], PM_ID_NULL);
    assert_int_equal(ids[2], pmID_build(511, 0, 2));
    names[1] = "event.flags";
    assert_int_equal(pmLookupName(2, names, ids), 2);

    names[0] = "grp";
    assert_int_equal(pmLookupName(1, names, ids), PM_ERR_NONLEAF);
    names[0] = "nosuch";
    assert_int_equal(pmLookupName(1, names, ids), PM_ERR_NAME);
    assert_int_equal(pmLookupName(0, names, ids), PM_ERR_TOOSMALL);
    pmUnloadNameSpace();
}

/* A large text load answers plain leaves from its leaf index and
 * everything else from the image, a small one everything from the image:
 * both must agree with the source.  The expected results were checked
 * against Debian's libpcp 6.0.3. */
static void check_shapes(const char *file)
{
    const struct {
        const char *name;
        int sts;
        pmID pmid;
    } cases[] = {
        {"x", 1, pmID_build(2, 0, 1)},
        {"g.x", 1, pmID_build(2, 0, 2)},
        {"g.h.x", 1, pmID_build(2, 0, 5)},
        {"g.abcdefghijklmnopqrs", 1, pmID_build(2, 0, 3)},  /* 19 bytes */
        {"g.abcdefghijklmnopqrst", 1, pmID_build(2, 0, 4)}, /* 20 bytes */
        {"h.y", 1, pmID_build(2, 0, 6)},
        {"g.abcdefghijklmnopqr", PM_ERR_NAME, PM_ID_NULL}, /* a prefix */
        {"g.abcdefghijklmnopqrstu", PM_ERR_NAME, PM_ID_NULL},
        {"h.x", PM_ERR_NAME, PM_ID_NULL},   /* x, but not below h */
        {"g.h.y", PM_ERR_NAME, PM_ID_NULL}, /* y, but not below g.h */
        {"y", PM_ERR_NAME, PM_ID_NULL},
        {".x", PM_ERR_NAME, PM_ID_NULL},
        {"g..x", PM_ERR_NAME, PM_ID_NULL},
        {"x.x", PM_ERR_NAME, PM_ID_NULL}, /* below a leaf */
        {"g.h", PM_ERR_NONLEAF, PM_ID_NULL},
        {"g.", PM_ERR_NAME, PM_ID_NULL},
    };

    assert_int_equal(pmLoadASCIINameSpace(file, 1), 0);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *name = cases[i].name;
        pmID pmid;
        assert_int_equal(pmLookupName(1, &name, &pmid), cases[i].sts);
        assert_int_equal(pmid, cases[i].pmid);
    }
}

static void lookup_name_shapes(void **state)
{
    (void)state;
    check_shapes(shapes);
    pmUnloadNameSpace();
}

static void lookup_name_shapes_indexed(void **state)
{
    const char *name = "pad.p16399", *other = "pad.x";
    pmID pmid;

    (void)state;
    check_shapes(shapes_big);
    assert_int_equal(pmLookupName(1, &name, &pmid), 1);
    assert_int_equal(pmid, pmID_build(3, 16, 15));
    assert_int_equal(pmLookupName(1, &other, &pmid), PM_ERR_NAME);
    pmUnloadNameSpace();
}

static void children_and_traversal(void **state)
{
    char **kids = NULL;
    int *status = NULL;
    int n;

    (void)state;
    assert_int_equal(pmLoadASCIINameSpace(good, 1), 0);
    n = pmGetChildrenStatus("", &kids, &status);
    assert_int_equal(n, 5); /* a grp dyn alias event(derived) */
    assert_string_equal(kids[0], "a");
    assert_int_equal(status[0], PMNS_LEAF_STATUS);
    assert_string_equal(kids[1], "grp");
    assert_int_equal(status[1], PMNS_NONLEAF_STATUS);
    assert_string_equal(kids[4], "event");
    free(kids);
    free(status);

    assert_int_equal(pmGetChildren("grp.x", &kids), 0);
    assert_int_equal(pmGetChildren("nosuch", &kids), PM_ERR_NAME);
    pmUnloadNameSpace();
}

static int seen;
static void count(const char *name, void *closure)
{
    (void)name;
    (void)closure;
    seen++;
}

static void traversal_and_reverse(void **state)
{
    char **names = NULL;
    char *name = NULL;

    (void)state;
    assert_int_equal(pmLoadASCIINameSpace(good, 1), 0);
    seen = 0;
    /* a grp.x grp.y dyn alias event.flags event.missed */
    assert_int_equal(pmTraversePMNS_r("", count, NULL), 7);
    assert_int_equal(seen, 7);
    seen = 0;
    assert_int_equal(pmTraversePMNS_r("grp", count, NULL), 2);
    assert_int_equal(seen, 2);

    /* two names for one PMID, in reverse order of definition */
    assert_int_equal(pmNameAll(pmID_build(30, 0, 1), &names), 2);
    assert_string_equal(names[0], "alias");
    assert_string_equal(names[1], "a");
    free(names);
    assert_int_equal(pmNameID(pmID_build(30, 1, 1), &name), 0);
    assert_string_equal(name, "grp.x");
    free(name);
    assert_int_equal(pmNameID(pmID_build(30, 9, 9), &name), PM_ERR_PMID);
    pmUnloadNameSpace();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unload_during_traversal),    cmocka_unit_test(failed_load_leaves_nothing),
        cmocka_unit_test(batch_lookup_counts),        cmocka_unit_test(lookup_name_shapes),
        cmocka_unit_test(lookup_name_shapes_indexed), cmocka_unit_test(children_and_traversal),
        cmocka_unit_test(traversal_and_reverse),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
