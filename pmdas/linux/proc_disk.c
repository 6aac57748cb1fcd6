/*
 * proc_disk.c - block devices: the lines of /proc/diskstats (or, on
 * kernels without it, /proc/partitions) and the rule deciding which
 * devices are whole disks.
 *
 * A device line is "major minor name" followed by up to 17 counters (11
 * before Linux 4.18, 15 before 5.5); /proc/partitions has the size in
 * blocks before the name and usually no counters at all.  Lines whose
 * major and minor numbers are not numbers (headers, blank lines) are
 * skipped.  The disk rule works on the name alone, without /sys: it is
 * the rule PCP's agent applies, worked out by giving it device names.
 */
#include "proc.h"

#include <string.h>

static int all_digits(const char *w, size_t len)
{
    if (len == 0)
        return 0;
    for (size_t i = 0; i < len; i++)
        if (w[i] < '0' || w[i] > '9')
            return 0;
    return 1;
}

int proc_disk_parse(const char *text, size_t len, int partitions, proc_line_fn fn, void *arg)
{
    const char *p = text, *end = text + len, *line, *eol;

    while (proc_next_line(&p, end, &line, &eol)) {
        const char *q = line, *major, *minor, *blocks, *name;
        size_t majl, minl, bl, nl;
        uint64_t col[DS_NCOLUMNS] = {0};
        int err;

        if (!proc_next_word(&q, eol, &major, &majl) || !all_digits(major, majl) ||
            !proc_next_word(&q, eol, &minor, &minl) || !all_digits(minor, minl))
            continue;
        if (partitions && (!proc_next_word(&q, eol, &blocks, &bl) || !all_digits(blocks, bl)))
            continue;
        if (!proc_next_word(&q, eol, &name, &nl))
            continue;
        for (int i = 0; i < DS_NCOLUMNS; i++)
            if (!proc_scan_u64(&q, eol, &col[i]))
                break;
        if ((err = fn(arg, name, nl, col)) < 0)
            return err;
    }
    return 0;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Whether the text after the last 'p' of NAME is a non-empty run of digits. */
static int ends_in_p_number(const char *name)
{
    const char *s = strrchr(name, 'p');

    if (s == NULL || *++s == '\0')
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

int proc_disk_is_disk(const char *name)
{
    /* Devices with metrics of their own (md, dm) or none at all. */
    static const char *const not_disks[] = {"loop", "ram", "zram", "md", "dm-"};
    /* Names ending in a number whose partitions add "pN". */
    static const char *const p_parts[] = {"nvme", "mmcblk", "nbd", "rbd"};
    size_t len = strlen(name);
    int digit_last = len > 0 && name[len - 1] >= '0' && name[len - 1] <= '9';

    if (len == 0)
        return 0;
    for (size_t i = 0; i < sizeof not_disks / sizeof not_disks[0]; i++)
        if (starts_with(name, not_disks[i]))
            return 0;
    /* SCSI CD-ROMs: sr0, sr1, ... */
    if (starts_with(name, "sr") && name[2] >= '0' && name[2] <= '9')
        return 0;
    /* cciss/c0d0, ida/c0d0: a disk ends in its number, a partition has "pN" */
    if (strchr(name, '/') != NULL)
        return digit_last && !ends_in_p_number(name);
    /* nvme0n1, mmcblk0boot0, nbd12: a partition has a 'p' and ends in a digit */
    for (size_t i = 0; i < sizeof p_parts / sizeof p_parts[0]; i++)
        if (starts_with(name, p_parts[i]))
            return !(digit_last && strchr(name, 'p') != NULL);
    /* sda, hdb, vdc, xvdd: partitions are the names ending in a digit */
    return !digit_last;
}
