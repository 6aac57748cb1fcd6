/*
 * loglabel.c - the label calls of PCP's internal archive interface
 * (<pcp/libpcp.h>): __pmLogLoadLabel, __pmLogChkLabel, __pmLogWriteLabel,
 * __pmLogFreeLabel, __pmLogLabelSize, __pmLogVersion, and the archive's
 * files found and opened as PCP's __pmLogFindOpen and __pmLogChangeVol
 * do it, with __pmLogBaseName, __pmLogFeaturesStr and __pmLogMetaTypeStr.
 *
 * As Debian's PCP 6.0.3 (tests/oracle/probe_pmfile.c, probe_findopen.c):
 * a label is read from the start of the file in three reads (length and
 * magic, the fields, the trailing length); a file shorter than the first
 * is PM_ERR_NODATA, any other fault PM_ERR_LABEL, with the fields read
 * so far left in the label; strings are copied at their field's full
 * width.  The magic's high bits are checked by __pmLogChkLabel, not by
 * the load.  __pmLogFindOpen only finds the files and opens the metadata
 * and index; __pmLogChangeVol opens a data volume and checks its label.
 *
 * Not here: reading records (pmkit's own reader, archive.h, is what
 * contexts use), writing archives beyond the label.
 */
#include "arch_int.h"
#include "pdu.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pcp/libpcp.h>

#define LABEL2_LEN 132
#define LABEL3_LEN 808

static size_t label_len(int version)
{
    return version == PM_LOG_VERS02 ? LABEL2_LEN : version == PM_LOG_VERS03 ? LABEL3_LEN : 0;
}

void __pmLogFreeLabel(__pmLogLabel *lp)
{
    free(lp->hostname);
    free(lp->timezone);
    free(lp->zoneinfo);
    lp->hostname = lp->timezone = lp->zoneinfo = NULL;
}

/* The fields after magic (body holds the record from offset 8). */
static void decode_fields(const uint8_t *body, int version, __pmLogLabel *lp)
{
    struct timespec t;

    lp->pid = (int)arch_be32(body);
    if (version == PM_LOG_VERS02) {
        arch_stamp2(body + 4, &t);
        lp->vol = (int)arch_be32(body + 12);
        lp->features = 0;
    } else {
        arch_stamp3(body + 4, &t);
        lp->vol = (int)arch_be32(body + 16);
        lp->features = arch_be32(body + 20);
    }
    lp->start.sec = (int64_t)t.tv_sec;
    lp->start.nsec = (int32_t)t.tv_nsec;
}

/* The strings, each at most its field's width less one (PCP ends every
 * field with a NUL of its own). */
static int decode_strings(const uint8_t *body, int version, __pmLogLabel *lp)
{
    if (version == PM_LOG_VERS02) {
        lp->hostname = strndup((const char *)body + 16, PM_LOG_MAXHOSTLEN - 1);
        lp->timezone = strndup((const char *)body + 80, PM_TZ_MAXLEN - 1);
        return lp->hostname != NULL && lp->timezone != NULL ? 0 : -ENOMEM;
    }
    lp->hostname = strndup((const char *)body + 28, PM_MAX_HOSTNAMELEN - 1);
    lp->timezone = strndup((const char *)body + 284, PM_MAX_TIMEZONELEN - 1);
    lp->zoneinfo = strndup((const char *)body + 540, PM_MAX_ZONEINFOLEN - 1);
    return lp->hostname != NULL && lp->timezone != NULL && lp->zoneinfo != NULL ? 0 : -ENOMEM;
}

int __pmLogLoadLabel(__pmFILE *f, __pmLogLabel *lp)
{
    uint8_t head[8], body[LABEL3_LEN], tail[4];
    size_t len;
    int version;

    __pmLogFreeLabel(lp);
    __pmFseek(f, 0, SEEK_SET);
    if (__pmFread(head, 1, sizeof(head), f) != sizeof(head)) {
        __pmClearerr(f);
        return PM_ERR_NODATA;
    }
    lp->magic = (int)arch_be32(head + 4);
    version = lp->magic & 0xff;
    len = label_len(version);
    if (len == 0 || arch_be32(head) != len)
        return PM_ERR_LABEL;
    if (__pmFread(body, 1, len - 12, f) != len - 12)
        return PM_ERR_LABEL;
    decode_fields(body, version, lp);
    if (__pmFread(tail, 1, sizeof(tail), f) != sizeof(tail) || arch_be32(tail) != len)
        return PM_ERR_LABEL;
    if (decode_strings(body, version, lp) < 0) {
        __pmLogFreeLabel(lp);
        return -ENOMEM;
    }
    return 0;
}

int __pmLogVersion(const __pmLogCtl *lcp)
{
    return lcp->label.magic & 0xff;
}

size_t __pmLogLabelSize(const __pmLogCtl *lcp)
{
    return __pmLogVersion(lcp) == PM_LOG_VERS02 ? LABEL2_LEN : LABEL3_LEN;
}

/* Room in lcp->seen for vol (entries beyond the old end are 0). */
static int seen_room(__pmLogCtl *lcp, int vol)
{
    int *seen;

    if (vol < lcp->numseen)
        return 0;
    if ((seen = realloc(lcp->seen, ((size_t)vol + 1) * sizeof(int))) == NULL)
        return -ENOMEM;
    memset(seen + lcp->numseen, 0, ((size_t)vol + 1 - (size_t)lcp->numseen) * sizeof(int));
    lcp->seen = seen;
    lcp->numseen = vol + 1;
    return 0;
}

int __pmLogChkLabel(__pmArchCtl *acp, __pmFILE *f, __pmLogLabel *lp, int vol)
{
    __pmLogCtl *lcp = acp->ac_log;
    struct stat st;
    int sts, version;

    if (vol >= 0 && (sts = seen_room(lcp, vol)) < 0)
        return sts;
    if ((sts = __pmLogLoadLabel(f, lp)) < 0)
        return sts;
    if (((unsigned)lp->magic & 0xffffff00u) != PM_LOG_MAGIC || lp->vol != vol)
        return PM_ERR_LABEL;
    version = lp->magic & 0xff;
    if (__pmFstat(f, &st) == 0 && (size_t)st.st_size == label_len(version))
        return PM_ERR_NODATA;
    if (vol >= 0)
        lcp->seen[vol] = 1;
    return version;
}

/* A string into a field of width bytes, zero-filled, cut to leave the
 * field's last byte NUL. */
static void put_field(uint8_t *p, const char *s, size_t width)
{
    size_t n = s == NULL ? 0 : strnlen(s, width - 1);

    memcpy(p, s == NULL ? "" : s, n);
    memset(p + n, 0, width - n);
}

int __pmLogWriteLabel(__pmFILE *f, const __pmLogLabel *lp)
{
    uint8_t rec[LABEL3_LEN];
    int version = lp->magic & 0xff;
    size_t len = version == PM_LOG_VERS02 ? LABEL2_LEN : LABEL3_LEN;
    uint64_t sec = (uint64_t)lp->start.sec;

    memset(rec, 0, sizeof(rec));
    pdu_put32(rec, (uint32_t)len);
    pdu_put32(rec + 4, (uint32_t)lp->magic);
    pdu_put32(rec + 8, (uint32_t)lp->pid);
    if (len == LABEL2_LEN) {
        pdu_put32(rec + 12, (uint32_t)sec);
        pdu_put32(rec + 16, (uint32_t)(lp->start.nsec / 1000));
        pdu_put32(rec + 20, (uint32_t)lp->vol);
        put_field(rec + 24, lp->hostname, PM_LOG_MAXHOSTLEN);
        put_field(rec + 88, lp->timezone, PM_TZ_MAXLEN);
    } else {
        pdu_put32(rec + 12, (uint32_t)sec);
        pdu_put32(rec + 16, (uint32_t)(sec >> 32));
        pdu_put32(rec + 20, (uint32_t)lp->start.nsec);
        pdu_put32(rec + 24, (uint32_t)lp->vol);
        pdu_put32(rec + 28, lp->features);
        put_field(rec + 36, lp->hostname, PM_MAX_HOSTNAMELEN);
        put_field(rec + 292, lp->timezone, PM_MAX_TIMEZONELEN);
        put_field(rec + 548, lp->zoneinfo, PM_MAX_ZONEINFOLEN);
    }
    pdu_put32(rec + len - 4, (uint32_t)len);
    if (__pmFwrite(rec, 1, len, f) != len)
        return -(errno != 0 ? errno : EIO);
    return 0;
}

/* ------------------------------------------------------------------ names */

static int compressed_suffix(const char *s)
{
    static const char *const sfx[] = {".xz", ".lzma", ".bz2", ".bz", ".gz", ".Z", ".z"};

    for (size_t i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++)
        if (strcmp(s, sfx[i]) == 0)
            return 1;
    return 0;
}

/* A volume number as PCP takes it: what strtol reads, to the end. */
static int volume_suffix(const char *s, long *vol)
{
    char *end;

    errno = 0;
    *vol = strtol(s, &end, 10);
    return end != s && *end == '\0';
}

char *__pmLogBaseName(char *name)
{
    char *dot = strrchr(name, '.');
    long vol;

    if (dot == NULL)
        return NULL;
    if (compressed_suffix(dot)) {
        *dot = '\0';
        if ((dot = strrchr(name, '.')) == NULL) {
            name[strlen(name)] = '.';
            return NULL;
        }
    }
    if (strcmp(dot + 1, "meta") == 0 || strcmp(dot + 1, "index") == 0 ||
        volume_suffix(dot + 1, &vol)) {
        *dot = '\0';
        return name;
    }
    return NULL;
}

char *__pmLogFeaturesStr(uint32_t features)
{
    char buf[32 * 7 + 1];
    size_t at = 0;

    buf[0] = '\0';
    for (int bit = 31; bit >= 0; bit--) {
        if ((features & (1u << bit)) == 0)
            continue;
        if (bit == 31)
            at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%sQA", at ? " " : "");
        else
            at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%sbit_%02d", at ? " " : "", bit);
    }
    return strdup(buf);
}

static const char *const meta_types[] = {"DESC",  "INDOM_V2",    "LABEL_V2", "TEXT",
                                         "INDOM", "INDOM_DELTA", "LABEL"};

char *__pmLogMetaTypeStr_r(int type, char *buf, int buflen)
{
    const char *s = type >= TYPE_DESC && type <= TYPE_MAX ? meta_types[type - 1] : "???";

    if (buf != NULL && buflen > 0)
        snprintf(buf, (size_t)buflen, "%s", s);
    return buf;
}

const char *__pmLogMetaTypeStr(int type)
{
    return type >= TYPE_DESC && type <= TYPE_MAX ? meta_types[type - 1] : "???";
}

/* ------------------------------------------------------------------ files */

/* The kind of entry ent is of the archive base (the part after "base."):
 * 1 a data volume (*vol), 2 the metadata, 3 the index, 0 none. */
static int entry_kind(const char *ent, const char *base, long *vol)
{
    size_t n = strlen(base);
    char rest[256], *dot;

    if (strncmp(ent, base, n) != 0 || ent[n] != '.')
        return 0;
    if ((size_t)snprintf(rest, sizeof(rest), "%s", ent + n + 1) >= sizeof(rest))
        return 0;
    if ((dot = strrchr(rest, '.')) != NULL && compressed_suffix(dot))
        *dot = '\0';
    if (strcmp(rest, "meta") == 0)
        return 2;
    if (strcmp(rest, "index") == 0)
        return 3;
    return volume_suffix(rest, vol) && *vol >= 0 && *vol <= 0x7fffffff ? 1 : 0;
}

/* The directory and last component of the archive's base name. */
static int split_base(const char *name, char *dir, size_t dirlen, char *base, size_t baselen)
{
    char copy[4096], *slash;
    struct stat st;

    if ((size_t)snprintf(copy, sizeof(copy), "%s", name) >= sizeof(copy))
        return -ENAMETOOLONG;
    if (stat(copy, &st) == 0 && S_ISREG(st.st_mode) && __pmLogBaseName(copy) == NULL)
        return -ENOENT;
    if ((slash = strrchr(copy, '/')) == NULL) {
        snprintf(dir, dirlen, ".");
        snprintf(base, baselen, "%s", copy);
    } else {
        *slash = '\0';
        snprintf(dir, dirlen, "%s", slash == copy ? "/" : copy);
        snprintf(base, baselen, "%s", slash + 1);
    }
    return base[0] == '\0' ? -ENOENT : 0;
}

/* The volumes, metadata and index of base in dir: PCP's answers for
 * none of them (-ENOENT) and for no metadata or no data (PM_ERR_LOGFILE). */
static int scan_dir(const char *dir, const char *base, __pmLogCtl *lcp, int *meta, int *index)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int found = 0;
    long vol;

    if (d == NULL)
        return -ENOENT;
    *meta = *index = 0;
    while ((e = readdir(d)) != NULL) {
        switch (entry_kind(e->d_name, base, &vol)) {
        case 1:
            if (lcp->minvol < 0 || vol < lcp->minvol)
                lcp->minvol = (int)vol;
            if (found == 0 || vol > lcp->maxvol)
                lcp->maxvol = (int)vol;
            found |= 1;
            break;
        case 2:
            *meta = found |= 2;
            break;
        case 3:
            *index = found |= 4;
            break;
        }
    }
    closedir(d);
    if (found == 0)
        return -ENOENT;
    return (found & 1) && *meta ? 0 : PM_ERR_LOGFILE;
}

int __pmLogFindOpen(__pmArchCtl *acp, const char *name)
{
    __pmLogCtl *lcp = acp->ac_log;
    char dir[4096], base[4096], path[8192];
    int meta, index, sts;
    size_t n;

    lcp->minvol = -1;
    if ((sts = split_base(name, dir, sizeof(dir), base, sizeof(base))) < 0)
        return sts;
    if ((sts = scan_dir(dir, base, lcp, &meta, &index)) < 0)
        return sts;
    n = strlen(dir) + strlen(base) + 2;
    if ((lcp->name = malloc(n)) == NULL)
        return -ENOMEM;
    snprintf(lcp->name, n, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", base);
    snprintf(path, sizeof(path), "%s.meta", lcp->name);
    if ((lcp->mdfp = __pmFopen(path, "r")) == NULL) {
        sts = -(errno != 0 ? errno : ENOENT);
        free(lcp->name);
        lcp->name = NULL;
        return sts;
    }
    snprintf(path, sizeof(path), "%s.index", lcp->name);
    if (index)
        lcp->tifp = __pmFopen(path, "r");
    return 0;
}

int __pmLogChangeVol(__pmArchCtl *acp, int vol)
{
    __pmLogCtl *lcp = acp->ac_log;
    char path[8192];
    int sts;

    if (vol == acp->ac_curvol)
        return 0;
    if (acp->ac_mfp != NULL) {
        __pmFclose(acp->ac_mfp);
        acp->ac_mfp = NULL;
    }
    snprintf(path, sizeof(path), "%s.%d", lcp->name, vol);
    errno = 0;
    if ((acp->ac_mfp = __pmFopen(path, "r")) == NULL)
        return -(errno != 0 ? errno : ENOENT);
    if ((sts = __pmLogChkLabel(acp, acp->ac_mfp, &lcp->label, vol)) < 0)
        return sts;
    acp->ac_curvol = vol;
    return sts;
}
