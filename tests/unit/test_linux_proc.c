/*
 * test_linux_proc.c - the linux agent's /proc readers and parsers
 * (pmdas/linux/proc*.c), fed from strings.
 *
 * Expected values are what Debian's PCP 6.0.3 linux agent reports for the
 * same file contents (observed with $LINUX_STATSPATH pointing at a tree
 * holding them); tests/oracle/linux_pmda_diff.sh compares the two agents
 * end to end.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"

#define MAX64 UINT64_MAX

static void scan_u64_skips_junk_and_saturates(void **state)
{
    const char s[] = "  12 x-7y 0x10 99999999999999999999999 ";
    const char *p = s, *end = s + sizeof s - 1;
    uint64_t v = 0;

    (void)state;
    assert_true(proc_scan_u64(&p, end, &v));
    assert_int_equal(v, 12);
    assert_true(proc_scan_u64(&p, end, &v)); /* "x-7y": the digits, rest of word dropped */
    assert_int_equal(v, 7);
    assert_true(proc_scan_u64(&p, end, &v)); /* "0x10" is 0 */
    assert_int_equal(v, 0);
    assert_true(proc_scan_u64(&p, end, &v));
    assert_true(v == MAX64);
    assert_false(proc_scan_u64(&p, end, &v));
}

static void scan_ull_reads_like_sscanf(void **state)
{
    const char s[] = " -1 +5 18446744073709551616 7x 8";
    const char *p = s, *end = s + sizeof s - 1;
    uint64_t v = 0;

    (void)state;
    assert_true(proc_scan_ull(&p, end, &v));
    assert_true(v == MAX64); /* -1 */
    assert_true(proc_scan_ull(&p, end, &v));
    assert_int_equal(v, 5);
    assert_true(proc_scan_ull(&p, end, &v));
    assert_true(v == MAX64);
    assert_true(proc_scan_ull(&p, end, &v));
    assert_int_equal(v, 7);
    assert_false(proc_scan_ull(&p, end, &v)); /* stops at the 'x' */
    assert_int_equal(*p, 'x');
}

static void scan_ull_stays_on_its_line(void **state)
{
    const char s[] = "1\n2";
    const char *p = s + 1, *end = s + sizeof s - 1;
    uint64_t v = 0;

    (void)state;
    assert_false(proc_scan_ull(&p, end, &v));
}

static void lines_and_words(void **state)
{
    const char s[] = "a b\n\nlast";
    const char *p = s, *end = s + sizeof s - 1, *line, *eol, *w;
    size_t wl;

    (void)state;
    assert_true(proc_next_line(&p, end, &line, &eol));
    assert_int_equal(eol - line, 3);
    assert_true(proc_next_word(&line, eol, &w, &wl));
    assert_int_equal(wl, 1);
    assert_true(proc_next_word(&line, eol, &w, &wl));
    assert_memory_equal(w, "b", 1);
    assert_false(proc_next_word(&line, eol, &w, &wl));
    assert_true(proc_next_line(&p, end, &line, &eol));
    assert_int_equal(eol - line, 0);
    assert_true(proc_next_line(&p, end, &line, &eol));
    assert_int_equal(eol - line, 4);
    assert_false(proc_next_line(&p, end, &line, &eol));
}

static void read_missing_and_long_files(void **state)
{
    char dir[] = "/tmp/test_linux_proc.XXXXXX", path[64];
    proc_buf b = {0};
    FILE *fp;

    (void)state;
    assert_int_equal(proc_read(&b, "/nonexistent", "/proc/stat"), -ENOENT);
    assert_non_null(b.data);
    assert_int_equal(b.len, 0);
    assert_string_equal(b.data, "");

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/big", dir);
    assert_non_null(fp = fopen(path, "w"));
    for (int i = 0; i < 100000; i++)
        fputs("0123456789", fp);
    fclose(fp);
    assert_int_equal(proc_read(&b, dir, "/big"), 0);
    assert_int_equal(b.len, 1000000);
    assert_int_equal(b.data[b.len], '\0');
    assert_int_equal(b.data[999999], '9');
    proc_buf_free(&b);
    unlink(path);
    rmdir(dir);
}

static void ticks_to_msec_in_double(void **state)
{
    (void)state;
    assert_int_equal(proc_ticks_to_msec(876195, 100), 8761950);
    assert_int_equal(proc_ticks_to_msec(7, 300), 23);
    assert_true(proc_ticks_to_msec(4611686018427387904ULL, 300) == 15372286728091293696ULL);
    assert_int_equal(proc_ticks_to_msec(MAX64, 300), 0); /* 2^64 and over */
    assert_true(proc_ticks_to_msec(MAX64, 2000) == 9223372036854775808ULL);
    assert_true(proc_ticks_to_msec(9007199254740993ULL, 100) == 90071992547409920ULL);
}

static int parse_stat(proc_stat *s, const char *text, unsigned maxcpu)
{
    return proc_stat_parse(s, text, strlen(text), maxcpu);
}

static void stat_typical(void **state)
{
    proc_stat s = {0};

    (void)state;
    assert_int_equal(parse_stat(&s,
                                "cpu  876195 0 303435 553396 7278 0 3773 43398 0 0\n"
                                "cpu0 419948 0 144589 304485 2725 0 163 22056 0 0\n"
                                "cpu1 456247 1 158846 248910 4552 0 3610 21341 5 6\n"
                                "intr 8233597 0 0 0 1\nctxt 24025086\nbtime 1795309727\n"
                                "processes 1171711\nprocs_running 4\nprocs_blocked 2\n"
                                "softirq 1 2 3\n",
                                2),
                     0);
    assert_int_equal(s.all.ticks[CPU_USER], 876195);
    assert_int_equal(s.all.ticks[CPU_STEAL], 43398);
    assert_int_equal(s.ncpu, 2);
    assert_true(s.seen[0] && s.seen[1]);
    assert_int_equal(s.cpu[1].ticks[CPU_NICE], 1);
    assert_int_equal(s.cpu[1].ticks[CPU_GUEST_NICE], 6);
    assert_int_equal(s.intr, 8233597);
    assert_int_equal(s.ctxt, 24025086);
    assert_int_equal(s.btime, 1795309727);
    assert_int_equal(s.processes, 1171711);
    assert_int_equal(s.procs_running, 4);
    assert_int_equal(s.procs_blocked, 2);
    proc_stat_free(&s);
}

/* What Debian's agent makes of odd /proc/stat files. */
static void stat_odd_lines(void **state)
{
    proc_stat s = {0};

    (void)state;
    /* processors beyond the configured count are dropped; gaps stay gaps */
    assert_int_equal(parse_stat(&s,
                                "cpu  100 2 300 400 5 6 7 8 9 10\ncpu3 1\ncpu1 2\n"
                                "cpu0x 98 0\ncpu-1 97\n cpu4 8\ncpu1 11\n",
                                3),
                     0);
    assert_int_equal(s.ncpu, 2);
    assert_true(s.seen[0] && s.seen[1] && (s.nslots < 4 || !s.seen[3]));
    assert_int_equal(s.cpu[0].ticks[CPU_USER], 0);  /* "cpu0x": processor 0, nothing read */
    assert_int_equal(s.cpu[1].ticks[CPU_USER], 11); /* the last line wins */
    /* the totals are the first line, whatever processor it names */
    assert_int_equal(parse_stat(&s, "cpu0 1 2 3\ncpu 7 8 9\n", 2), 0);
    assert_int_equal(s.all.ticks[CPU_USER], 0);
    assert_int_equal(s.all.ticks[CPU_NICE], 1);
    assert_int_equal(s.ncpu, 1);
    assert_int_equal(s.cpu[0].ticks[CPU_USER], 1);
    assert_int_equal(parse_stat(&s, "intr 5\ncpu 1 2 3\n", 2), 0);
    assert_int_equal(s.all.ticks[CPU_USER], 0);
    assert_int_equal(s.intr, 5);
    /* keywords: the first wins, an empty one is 0 */
    assert_int_equal(parse_stat(&s, "ctxt 5\nctxt 6\nintr\nbtime 7\n", 2), 0);
    assert_int_equal(s.ctxt, 5);
    assert_int_equal(s.intr, 0);
    assert_int_equal(s.btime, 7);
    proc_stat_free(&s);
}

static void stat_single_processor(void **state)
{
    proc_stat s = {0};

    (void)state;
    /* processor 0 is the totals line; cpuN lines are ignored */
    assert_int_equal(parse_stat(&s, "cpu 7001 11\ncpu0 6000 10\ncpu1 1000 1\n", 1), 0);
    assert_int_equal(s.ncpu, 1);
    assert_int_equal(s.cpu[0].ticks[CPU_USER], 7001);
    /* even with no lines at all */
    assert_int_equal(proc_stat_parse(&s, "", 0, 1), 0);
    assert_int_equal(s.ncpu, 1);
    assert_int_equal(s.cpu[0].ticks[CPU_USER], 0);
    /* MAXCPU 0: no processors */
    assert_int_equal(parse_stat(&s, "cpu 1\ncpu0 1\n", 0), 0);
    assert_int_equal(s.ncpu, 0);
    proc_stat_free(&s);
}

static void meminfo_keys_sorted_and_complete(void **state)
{
    char line[64];
    proc_meminfo m;

    (void)state;
    for (int k = 0; k < MI_NKEYS; k++) {
        assert_non_null(proc_meminfo_key(k));
        snprintf(line, sizeof line, "%s:  %d kB\n", proc_meminfo_key(k), 1000 + k);
        proc_meminfo_parse(&m, line, strlen(line));
        for (int j = 0; j < MI_NKEYS; j++)
            assert_true(m.v[j] == (j == k ? (uint64_t)(1000 + k) : PROC_ABSENT));
    }
    assert_string_equal(proc_meminfo_key(MI_ACTIVE_ANON), "Active(anon)");
    assert_string_equal(proc_meminfo_key(MI_HARDWARECORRUPTED), "HardwareCorrupted");
}

static void meminfo_lines(void **state)
{
    const char text[] = "MemTotal:       24682416 kB\nMemFree:18446744073709551615 kB\n"
                        "Active(anon):       1560 kB\n Buffers: 100 kB\nDirty:\n"
                        "SwapFree: 1 kB\nSwapFree: 2 kB\nHugePages_Total:      64\n"
                        "Inactive(file)  33 kB\nUnknown: 5 kB";
    proc_meminfo m;

    (void)state;
    proc_meminfo_parse(&m, text, sizeof text - 1);
    assert_int_equal(m.v[MI_MEMTOTAL], 24682416);
    assert_true(m.v[MI_MEMFREE] == PROC_ABSENT); /* 2^64-1 is PCP's "absent" */
    assert_int_equal(m.v[MI_ACTIVE_ANON], 1560);
    assert_true(m.v[MI_BUFFERS] == PROC_ABSENT); /* indented */
    assert_true(m.v[MI_DIRTY] == PROC_ABSENT);   /* no number */
    assert_int_equal(m.v[MI_SWAPFREE], 2);       /* the last line wins */
    assert_int_equal(m.v[MI_HUGEPAGES_TOTAL], 64);
    assert_true(m.v[MI_INACTIVE_FILE] == PROC_ABSENT); /* no ':' */
    assert_true(m.v[MI_CACHED] == PROC_ABSENT);
}

static void loadavg_and_uptime(void **state)
{
    proc_loadavg l;
    proc_uptime u;

    (void)state;
    proc_loadavg_parse(&l, "0.14 1.17 1.60 3/96 3163\n");
    assert_true(l.load[0] == 0.14f && l.load[2] == 1.60f);
    assert_int_equal(l.runnable, 3);
    assert_int_equal(l.nprocs, 96);
    assert_int_equal(l.lastpid, 3163);
    proc_loadavg_parse(&l, "0.5 0.6\n");
    assert_true(l.load[1] == 0.6f && l.load[2] == 0);
    assert_int_equal(l.lastpid, 0);
    proc_loadavg_parse(&l, "0.01 0.02 0.03 4294967297/4294967298 4294967299\n");
    assert_int_equal(l.runnable, 1);
    assert_int_equal(l.lastpid, 3);
    proc_loadavg_parse(&l, "");
    assert_int_equal(l.nprocs, 0);
    proc_uptime_parse(&u, "8915.80 5533.95\n");
    assert_true(u.uptime == 8915.80 && u.idletime == 5533.95);
    proc_uptime_parse(&u, "abc");
    assert_true(u.uptime == 0 && u.idletime == 0);
}

/* Names Debian's agent counts as disks (1) or not (0). */
static void disk_names(void **state)
{
    static const struct {
        const char *name;
        int disk;
    } cases[] = {
        {"sda", 1},
        {"sda1", 0},
        {"sda10", 0},
        {"sdaa", 1},
        {"sda2a", 1},
        {"hda", 1},
        {"vda", 1},
        {"xvda1", 0},
        {"nvme0n1", 1},
        {"nvme0n1p1", 0},
        {"nvme0n1p", 1},
        {"nvme0c0n1", 1},
        {"nvme3p6n4", 0},
        {"nvme0n1p1a", 1},
        {"mmcblk0", 1},
        {"mmcblk0p1", 0},
        {"mmcblk0boot0", 1},
        {"mmcblk1rpmb", 1},
        {"nbd0", 1},
        {"nbd0p1", 0},
        {"nbd-1", 1},
        {"nbd0p-1", 0},
        {"rbd12", 1},
        {"rbd0p1", 0},
        {"dm-0", 0},
        {"dm", 1},
        {"md0", 0},
        {"md", 0},
        {"mdx", 0},
        {"loop0", 0},
        {"loopx", 0},
        {"ram0", 0},
        {"zram0", 0},
        {"sr0", 0},
        {"sr", 1},
        {"sr-1a", 1},
        {"sr995b", 0},
        {"sr0/1", 0},
        {"fd0", 0},
        {"cciss/c0d0", 1},
        {"cciss/c0d0p1", 0},
        {"cciss/c0d0p", 0},
        {"ida/c0d0", 1},
        {"i2o/hda", 0},
        {"i2o/hda1", 1},
        {"a/xp1y2", 1},
        {"a/p/1", 1},
        {"a/p01", 0},
        {"a/p+1", 1},
        {"a/1p", 0},
        {"ida/mb3p-9", 1},
        {"emcpowera", 1},
        {"", 0},
    };

    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (proc_disk_is_disk(cases[i].name) != cases[i].disk)
            fail_msg("%s: expected %d", cases[i].name, cases[i].disk);
    }
}

struct seen_devices {
    int ncol; /* columns per line: DS_NCOLUMNS or ND_NCOLUMNS */
    int n;
    char names[8][16];
    uint64_t col[8][DS_NCOLUMNS];
};

static int remember_disk(void *arg, const char *name, size_t len, const uint64_t *col)
{
    struct seen_devices *s = arg;

    if (s->n == 8 || len >= 16)
        return -1;
    memcpy(s->names[s->n], name, len);
    s->names[s->n][len] = '\0';
    memcpy(s->col[s->n++], col, (size_t)s->ncol * sizeof *col);
    return 0;
}

static void diskstats_lines(void **state)
{
    const char text[] = "   8 0 sda 1001 1002 1003 1004 1005 1006 1007 1008 1009 1010 1011 1012 "
                        "1013 1014 1015 1016 1017 1018\n"
                        "\n x y z 1 2\n   8 16 sdb 2001 2002\n8 32\n";
    struct seen_devices s = {.ncol = DS_NCOLUMNS};

    (void)state;
    assert_int_equal(proc_disk_parse(text, sizeof text - 1, 0, remember_disk, &s), 0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.names[0], "sda");
    assert_int_equal(s.col[0][DS_READS], 1001);
    assert_int_equal(s.col[0][DS_FLUSH_TICKS], 1017); /* an 18th column is ignored */
    assert_string_equal(s.names[1], "sdb");
    assert_int_equal(s.col[1][DS_READ_MERGES], 2002);
    assert_int_equal(s.col[1][DS_READ_SECTORS], 0);
}

static void partitions_lines(void **state)
{
    const char text[] = "major minor  #blocks  name     rio rmerge rsect\n\n"
                        "   3     0   39082680 hda 446216 784926 9550688\n"
                        "   8    16    2097152 sdb\n";
    struct seen_devices s = {.ncol = DS_NCOLUMNS};

    (void)state;
    assert_int_equal(proc_disk_parse(text, sizeof text - 1, 1, remember_disk, &s), 0);
    assert_int_equal(s.n, 2);
    assert_string_equal(s.names[0], "hda");
    assert_int_equal(s.col[0][DS_READ_SECTORS], 9550688);
    assert_string_equal(s.names[1], "sdb");
    assert_int_equal(s.col[1][DS_READS], 0);
}

static void net_dev_lines(void **state)
{
    const char text[] = "Inter-|   Receive\n face |bytes    packets\n"
                        "    lo: 8134      90    0    0    0     0          0         0     8134 "
                        "     90    0    0    0     0       0          0\n"
                        "wlan0:601 602\n  sp ace: 1 2\n: 7 7\neth0:1: 5 6\nnocolon 1 2\n";
    struct seen_devices s = {.ncol = ND_NCOLUMNS};

    (void)state;
    assert_int_equal(proc_net_dev_parse(text, sizeof text - 1, remember_disk, &s), 0);
    assert_int_equal(s.n, 4);
    assert_string_equal(s.names[0], "lo");
    assert_int_equal(s.col[0][ND_RX_BYTES], 8134);
    assert_int_equal(s.col[0][ND_TX_PACKETS], 90);
    assert_string_equal(s.names[1], "wlan0");
    assert_int_equal(s.col[1][ND_RX_PACKETS], 602);
    assert_int_equal(s.col[1][ND_RX_ERRS], 0);
    assert_string_equal(s.names[2], "sp ace");
    assert_string_equal(s.names[3], "eth0"); /* name up to the first ':' */
    assert_int_equal(s.col[3][ND_RX_BYTES], 1);
    assert_int_equal(s.col[3][ND_RX_PACKETS], 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(scan_u64_skips_junk_and_saturates),
        cmocka_unit_test(scan_ull_reads_like_sscanf),
        cmocka_unit_test(scan_ull_stays_on_its_line),
        cmocka_unit_test(lines_and_words),
        cmocka_unit_test(read_missing_and_long_files),
        cmocka_unit_test(ticks_to_msec_in_double),
        cmocka_unit_test(stat_typical),
        cmocka_unit_test(stat_odd_lines),
        cmocka_unit_test(stat_single_processor),
        cmocka_unit_test(meminfo_keys_sorted_and_complete),
        cmocka_unit_test(meminfo_lines),
        cmocka_unit_test(loadavg_and_uptime),
        cmocka_unit_test(disk_names),
        cmocka_unit_test(diskstats_lines),
        cmocka_unit_test(partitions_lines),
        cmocka_unit_test(net_dev_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
