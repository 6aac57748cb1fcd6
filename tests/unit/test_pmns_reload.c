/*
 * Unit tests for reloading a text namespace (pmLoadNameSpace after
 * pmUnloadNameSpace, libpcp/front/pmns_mem.c): a process that loads and
 * unloads a namespace of the default root's size 1000 times ends with the
 * heap and the mappings it had after the first few cycles, faults in no
 * new pages for the loads after those, and gets the same answers
 * throughout.
 *
 * A load whose image is larger than what pmns_mem keeps (a namespace of
 * 100 000 leaves) leaves no more resident heap than the heap has in use:
 * the load's freed arrays are given back (pmns_mem_trim).
 *
 * The counts are of memory, never of time.  Under AddressSanitizer, whose
 * allocator holds freed memory back on purpose, only the answers and the
 * mappings are checked, over 200 cycles.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

#define GROUPS 300 /* of LEAVES each under root's children: 3000 leaves */
#define LEAVES 10
#define CYCLES (UNDER_ASAN ? 200 : 1000) /* the sanitizer's allocator is slow */
#define WARMUP 2

static char path[64];

/* A text namespace of GROUPS * LEAVES leaves: root { gG } and
 * gG { mL G:G:L } (domain G % 500 + 1, cluster G, item L). */
static int setup(void **state)
{
    int fd;
    FILE *f;

    (void)state;
    snprintf(path, sizeof(path), "/tmp/pmns_reload.XXXXXX");
    if ((fd = mkstemp(path)) < 0 || (f = fdopen(fd, "w")) == NULL)
        return -1;
    fprintf(f, "root {\n");
    for (int g = 0; g < GROUPS; g++)
        fprintf(f, "\tgroup%d\n", g);
    fprintf(f, "}\n\n");
    for (int g = 0; g < GROUPS; g++) {
        fprintf(f, "group%d {\n", g);
        for (int l = 0; l < LEAVES; l++)
            fprintf(f, "\tmetric_number_%d\t%d:%d:%d\n", l, g % 500 + 1, g, l);
        fprintf(f, "}\n\n");
    }
    return fclose(f) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

/* Lines of /proc/self/maps: one per mapping. */
static long mappings(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    long n = 0;
    int c;

    if (f == NULL)
        return -1;
    while ((c = getc(f)) != EOF)
        n += c == '\n';
    fclose(f);
    return n;
}

static long minor_faults(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* One cycle: load, a lookup and a reverse lookup checked, unload. */
static void cycle(int i)
{
    char name[64], *back = NULL;
    const char *np = name;
    int g = i % GROUPS, l = i % LEAVES;
    pmID pmid = PM_ID_NULL;

    assert_int_equal(pmLoadNameSpace(path), 0);
    snprintf(name, sizeof(name), "group%d.metric_number_%d", g, l);
    assert_int_equal(pmLookupName(1, &np, &pmid), 1);
    assert_int_equal(pmid, pmID_build((unsigned)(g % 500 + 1), (unsigned)g, (unsigned)l));
    assert_int_equal(pmNameID(pmid, &back), 0);
    assert_string_equal(back, name);
    free(back);
    pmUnloadNameSpace();
}

static void reload_keeps_memory(void **state)
{
    struct mallinfo2 before, after;
    long maps, faults;

    (void)state;
    for (int i = 0; i < WARMUP; i++)
        cycle(i);
    before = mallinfo2();
    maps = mappings();
    faults = minor_faults();
    for (int i = 0; i < CYCLES; i++)
        cycle(i);
    faults = minor_faults() - faults;
    after = mallinfo2();
    print_message("heap %zu -> %zu bytes, mapped %zu -> %zu, mappings %ld -> %ld, "
                  "%ld minor faults in %d loads\n",
                  before.arena, after.arena, before.hblkhd, after.hblkhd, maps, mappings(), faults,
                  CYCLES);
    assert_int_equal(mappings(), maps);
    if (UNDER_ASAN)
        return;
    assert_int_equal(after.arena, before.arena);
    assert_int_equal(after.hblkhd, before.hblkhd);
    /* each load faulted in about 90 pages when its memory was given back */
    assert_true(faults < CYCLES / 10);
}

/* The resident KiB of the heap's mapping ([heap] in /proc/self/smaps). */
static long heap_rss_kib(void)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    char line[512];
    long kib = -1;
    int in_heap = 0;

    if (f == NULL)
        return -1;
    while (fgets(line, sizeof(line), f) != NULL) {
        if (strchr(line, ':') == NULL || strstr(line, " [heap]") != NULL)
            in_heap = strstr(line, " [heap]") != NULL; /* a mapping's first line */
        else if (in_heap && sscanf(line, "Rss: %ld", &kib) == 1)
            break;
    }
    fclose(f);
    return kib;
}

#define BIG_GROUPS 1000 /* of 100 leaves: an image of about 4.6 MB */

static void large_load_gives_heap_back(void **state)
{
    char big[64], name[64];
    const char *np = name;
    struct mallinfo2 mi;
    pmID pmid = PM_ID_NULL;
    long kib;
    int fd;
    FILE *f;

    (void)state;
    snprintf(big, sizeof(big), "/tmp/pmns_big.XXXXXX");
    assert_true((fd = mkstemp(big)) >= 0 && (f = fdopen(fd, "w")) != NULL);
    fprintf(f, "root {\n");
    for (int g = 0; g < BIG_GROUPS; g++)
        fprintf(f, "\tgroup%d\n", g);
    fprintf(f, "}\n");
    for (int g = 0; g < BIG_GROUPS; g++) {
        fprintf(f, "group%d {\n", g);
        for (int l = 0; l < 100; l++)
            fprintf(f, "\tmetric_number_%d\t%d:%d:%d\n", l, g % 500 + 1, g, l);
        fprintf(f, "}\n");
    }
    assert_int_equal(fclose(f), 0);
    assert_int_equal(pmLoadNameSpace(big), 0);
    unlink(big);
    mi = mallinfo2();
    kib = heap_rss_kib();
    print_message("heap resident %ld KiB, in use %zu KiB\n", kib, mi.uordblks / 1024);
    snprintf(name, sizeof(name), "group%d.metric_number_%d", BIG_GROUPS - 1, 99);
    assert_int_equal(pmLookupName(1, &np, &pmid), 1);
    assert_int_equal(pmid, pmID_build((BIG_GROUPS - 1) % 500 + 1, BIG_GROUPS - 1, 99));
    pmUnloadNameSpace();
    if (UNDER_ASAN)
        return;
    /* the load's arrays (3.5 MiB here) stayed resident when not given back */
    assert_true(kib >= 0);
    assert_true((size_t)kib * 1024 <= mi.uordblks + (512u << 10));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(large_load_gives_heap_back),
        cmocka_unit_test(reload_keeps_memory),
    };

    setenv("PCP_DERIVED_CONFIG", "", 1);
    return cmocka_run_group_tests(tests, setup, teardown);
}
