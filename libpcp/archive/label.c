/*
 * label.c - the label record that starts every file of an archive.
 *
 * Version 2: magic, pid, start (seconds, microseconds), volume, host name
 * (64 bytes), time zone (40 bytes): a record of 132 bytes.  Version 3:
 * magic, pid, start (seconds in two words, low first, then nanoseconds),
 * volume, feature bits, a reserved word, host name, time zone and zone
 * information (256 bytes each): 808 bytes.  The record's two length words
 * must both be the version's length; the strings are copied up to their
 * field's end and always NUL-terminated, whatever the file holds.
 *
 * Not here: whether the labels of an archive's files agree, and the
 * volume each should carry (the set's code compares them).
 */
#include "arch_int.h"

#include <string.h>

#define LABEL2_LEN 132
#define LABEL3_LEN 808

/* A string field of width bytes into dst (room for width + 1). */
static void copy_field(char *dst, size_t room, const uint8_t *src, size_t width)
{
    size_t n = 0;

    while (n < width && n + 1 < room && src[n] != '\0')
        n++;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static void decode2(const uint8_t *p, arch_label *lab)
{
    lab->pid = (int)arch_be32(p + 8);
    arch_stamp2(p + 12, &lab->start);
    lab->vol = (int)arch_be32(p + 20);
    lab->features = 0;
    copy_field(lab->hostname, sizeof(lab->hostname), p + 24, PM_LOG_MAXHOSTLEN);
    copy_field(lab->timezone, sizeof(lab->timezone), p + 88, PM_TZ_MAXLEN);
    lab->zoneinfo[0] = '\0';
}

static void decode3(const uint8_t *p, arch_label *lab)
{
    lab->pid = (int)arch_be32(p + 8);
    arch_stamp3(p + 12, &lab->start);
    lab->vol = (int)arch_be32(p + 24);
    lab->features = arch_be32(p + 28);
    copy_field(lab->hostname, sizeof(lab->hostname), p + 36, PM_MAX_HOSTNAMELEN);
    copy_field(lab->timezone, sizeof(lab->timezone), p + 292, PM_MAX_TIMEZONELEN);
    copy_field(lab->zoneinfo, sizeof(lab->zoneinfo), p + 548, PM_MAX_ZONEINFOLEN);
}

int label_read(arch_file *f, arch_label *lab, uint32_t *len)
{
    uint8_t p[LABEL3_LEN];
    ssize_t got = afile_read(f, 0, p, sizeof(p));
    uint32_t n, magic;

    memset(lab, 0, sizeof(*lab));
    if (got < 0)
        return (int)got;
    if (got < 4)
        return PM_ERR_NODATA;
    if (got < 8)
        return PM_ERR_LABEL;
    n = arch_be32(p);
    magic = arch_be32(p + 4);
    if ((magic & 0xffffff00u) != PM_LOG_MAGIC)
        return PM_ERR_LABEL;
    lab->version = (int)(magic & 0xff);
    lab->magic = (int)magic;
    if (!((lab->version == PM_LOG_VERS02 && n == LABEL2_LEN) ||
          (lab->version == PM_LOG_VERS03 && n == LABEL3_LEN)))
        return PM_ERR_LABEL;
    if ((size_t)got < n || arch_be32(p + n - 4) != n)
        return PM_ERR_LABEL;
    if (lab->version == PM_LOG_VERS02)
        decode2(p, lab);
    else
        decode3(p, lab);
    *len = n;
    return 0;
}

int label_same(const arch_label *a, const arch_label *b)
{
    return a->magic == b->magic && a->pid == b->pid && arch_cmp(&a->start, &b->start) == 0 &&
           a->features == b->features && strcmp(a->hostname, b->hostname) == 0 &&
           strcmp(a->timezone, b->timezone) == 0 && strcmp(a->zoneinfo, b->zoneinfo) == 0;
}
