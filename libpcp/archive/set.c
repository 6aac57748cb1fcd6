/*
 * set.c - opening an archive set: names to archives, archives to files,
 * labels checked, metadata and indexes loaded.
 *
 * A name is an archive's base name, or any file of one (BASE.meta,
 * BASE.index or BASE.N, each maybe with a compression suffix), or a
 * directory (each archive whose .meta it holds), or a comma separated list
 * of those (an empty last element is ignored, as PCP does).  An archive's
 * files are found by reading its directory once: BASE.meta and BASE.index
 * (either may be compressed), BASE.N for the data volumes.  Every label
 * must be valid and agree with the .meta's (the volume number excepted,
 * which must be the file's); a missing .meta, or no data volume, is
 * -ENOENT as in PCP.  Archives of a set are sorted by start time and must
 * share a host name (PM_ERR_LOGHOST).
 *
 * Volume files are opened when first read and at most SET_OPEN_VOLS of
 * them stay open, least recently used closed first.
 */
#include "arch_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SET_OPEN_VOLS 8

/* The directory and last component of path (malloc'd, both). */
static int split_path(const char *path, char **dir, char **base)
{
    const char *slash = strrchr(path, '/');

    if (slash == NULL) {
        *dir = strdup(".");
        *base = strdup(path);
    } else {
        *dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
        *base = strdup(slash + 1);
    }
    if (*dir == NULL || *base == NULL) {
        free(*dir);
        free(*base);
        *dir = *base = NULL;
        return -ENOMEM;
    }
    return 0;
}

/* What a file name is to base (len bytes): -1 the .meta, -2 the .index,
 * N >= 0 volume N, INT_MIN not one of its files; *kind its compression. */
static int file_role(const char *name, const char *base, size_t len, int *kind)
{
    size_t slen, n;
    const char *rest;
    char *end;
    long vol;

    if (strncmp(name, base, len) != 0 || name[len] != '.')
        return INT_MIN;
    rest = name + len + 1;
    *kind = afile_suffix(rest, &slen);
    n = strlen(rest) - slen;
    if (n == 4 && strncmp(rest, "meta", 4) == 0)
        return PM_LOG_VOL_META;
    if (n == 5 && strncmp(rest, "index", 5) == 0)
        return PM_LOG_VOL_TI;
    if (n == 0 || rest[0] < '0' || rest[0] > '9')
        return INT_MIN;
    errno = 0;
    vol = strtol(rest, &end, 10);
    if ((size_t)(end - rest) != n || errno != 0 || vol > INT_MAX)
        return INT_MIN;
    return (int)vol;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);

    if (p != NULL)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

static int add_vol(arch_one *a, int num, char *path, int kind)
{
    arch_vol *v;
    int at;

    for (at = 0; at < a->nvols; at++) {
        if (a->vols[at].num == num) {
            free(path); /* NAME.0 and NAME.0.xz: the first found stays */
            return 0;
        }
        if (a->vols[at].num > num)
            break;
    }
    if ((v = realloc(a->vols, (size_t)(a->nvols + 1) * sizeof(*v))) == NULL) {
        free(path);
        return -ENOMEM;
    }
    a->vols = v;
    memmove(v + at + 1, v + at, (size_t)(a->nvols - at) * sizeof(*v));
    v[at] = (arch_vol){num, path, kind, {.fd = -1, .tmp = -1}, 0};
    a->nvols++;
    return 0;
}

/* The files of archive dir/base: meta and index paths, volumes into a. */
typedef struct found {
    char *meta, *index;
    int meta_kind, index_kind;
} found;

static int find_files(const char *dir, const char *base, arch_one *a, found *fd)
{
    size_t len = strlen(base), slen;
    DIR *d = opendir(dir);
    struct dirent *e;
    int sts = 0;

    if (d == NULL)
        return -errno;
    while (sts == 0 && (e = readdir(d)) != NULL) {
        int kind, role = file_role(e->d_name, base, len, &kind);
        char *path, **slot = NULL;
        if (role == INT_MIN)
            continue;
        if ((path = join(dir, e->d_name)) == NULL) {
            sts = -ENOMEM;
            break;
        }
        if (role >= 0) {
            sts = add_vol(a, role, path, kind);
            continue;
        }
        slot = role == PM_LOG_VOL_META ? &fd->meta : &fd->index;
        if (*slot == NULL || (kind == AF_RAW && afile_suffix(*slot, &slen) != AF_RAW)) {
            free(*slot); /* the uncompressed file wins, as in PCP */
            *slot = path;
            if (role == PM_LOG_VOL_META)
                fd->meta_kind = kind;
            else
                fd->index_kind = kind;
        } else {
            free(path);
        }
    }
    closedir(d);
    return sts;
}

/* Does f hold anything after its label (len bytes)? */
static int has_data(arch_file *f, uint32_t len)
{
    uint8_t byte;

    return afile_read(f, len, &byte, 1) > 0;
}

/* Check the label of one file of a against the archive's. */
static int check_label(arch_one *a, const char *path, int kind, int vol, arch_file *keep,
                       uint32_t *labellen)
{
    arch_file f;
    arch_label lab;
    uint32_t len;
    int sts;

    if ((sts = afile_open(&f, path, kind)) < 0)
        return sts;
    if ((sts = label_read(&f, &lab, &len)) == 0) {
        if (lab.vol != vol || !label_same(&lab, &a->label))
            sts = PM_ERR_LABEL;
        else if (vol >= 0 && vol == a->vols[0].num && !has_data(&f, len))
            sts = PM_ERR_NODATA; /* a first volume of a label only, as PCP */
    }
    if (sts == 0 && keep != NULL) {
        *keep = f;
        if (labellen != NULL)
            *labellen = len;
    } else {
        afile_close(&f);
    }
    return sts;
}

static void one_free(arch_one *a)
{
    for (int i = 0; i < a->nvols; i++) {
        free(a->vols[i].path);
        if (a->vols[i].file.fd >= 0)
            afile_close(&a->vols[i].file);
    }
    free(a->vols);
    if (a->index.fd >= 0)
        afile_close(&a->index);
    free(a->tibuf);
    free(a->base);
}

/* Archive dir/base: its files, labels, index; the metadata into s. */
static int one_open(arch_set *s, const char *dir, const char *base, arch_one *a)
{
    found fd = {0};
    arch_file meta = {.fd = -1, .tmp = -1};
    uint32_t metalen;
    int sts;

    memset(a, 0, sizeof(*a));
    a->index.fd = a->index.tmp = -1;
    if ((a->base = join(dir, base)) == NULL)
        return -ENOMEM;
    if ((sts = find_files(dir, base, a, &fd)) < 0)
        goto out;
    if (fd.meta == NULL || a->nvols == 0) {
        sts = -ENOENT;
        goto out;
    }
    if ((sts = afile_open(&meta, fd.meta, fd.meta_kind)) < 0 ||
        (sts = label_read(&meta, &a->label, &metalen)) < 0)
        goto out;
    if (a->label.vol != PM_LOG_VOL_META) {
        sts = PM_ERR_LABEL;
        goto out;
    }
    if (a->label.version == PM_LOG_VERS03 && !(s->flags & ARCH_OPEN_NO_FEATURE_CHECK) &&
        (a->label.features & ~(uint32_t)PM_LOG_FEATURES) != 0) {
        sts = PM_ERR_FEATURE;
        goto out;
    }
    a->labellen = metalen;
    if ((sts = check_label(a, a->vols[0].path, a->vols[0].kind, a->vols[0].num, NULL, NULL)) < 0)
        goto out;
    if (fd.index != NULL &&
        (sts = check_label(a, fd.index, fd.index_kind, PM_LOG_VOL_TI, &a->index, &a->tistart)) < 0)
        goto out;
    if (a->index.fd >= 0 && (sts = index_open(a)) < 0)
        goto out;
    sts = meta_load(&s->meta, &meta, metalen);
out:
    afile_close(&meta);
    free(fd.meta);
    free(fd.index);
    if (sts < 0)
        one_free(a);
    return sts;
}

/* ------------------------------------------------------------------ */
/* Names to archives. */

/* Is name an existing file of an archive?  Then its base (malloc'd). */
static char *base_of_file(const char *name)
{
    const char *slash = strrchr(name, '/'), *last = slash != NULL ? slash + 1 : name;
    size_t slen, n = strlen(name);
    struct stat st;
    char *copy, *dot;

    if (stat(name, &st) < 0 || !S_ISREG(st.st_mode))
        return NULL;
    (void)afile_suffix(last, &slen);
    if ((copy = strndup(name, n - slen)) == NULL)
        return NULL;
    if ((dot = strrchr(copy, '.')) != NULL && dot > copy + (last - name)) {
        int kind;
        char save = dot[0];
        dot[0] = '\0';
        if (file_role(name + (last - name), copy + (last - name), strlen(copy + (last - name)),
                      &kind) != INT_MIN)
            return copy;
        dot[0] = save;
    }
    free(copy);
    return NULL;
}

/* Is dir/base an archive of s already (named again, maybe otherwise)? */
static int known_archive(const arch_set *s, const char *dir, const char *base)
{
    char *path = join(dir, base), *real, *other;
    int same = 0;

    if (path == NULL)
        return 0;
    real = realpath(dir, NULL);
    for (int i = 0; i < s->narch && !same && real != NULL; i++) {
        char *odir, *obase;
        if (split_path(s->arch[i].base, &odir, &obase) < 0)
            break;
        other = realpath(odir, NULL);
        same = other != NULL && strcmp(other, real) == 0 && strcmp(obase, base) == 0;
        free(other);
        free(odir);
        free(obase);
    }
    free(real);
    free(path);
    return same;
}

/* Archive dir/base into s, unless it is there already (PCP reads an
 * archive named twice once). */
static int add_archive(arch_set *s, const char *dir, const char *base)
{
    arch_one *na;
    int sts;

    if (known_archive(s, dir, base))
        return 0;
    if ((na = realloc(s->arch, (size_t)(s->narch + 1) * sizeof(*na))) == NULL)
        return -ENOMEM;
    s->arch = na;
    if ((sts = one_open(s, dir, base, &s->arch[s->narch])) < 0)
        return sts;
    s->narch++;
    return 0;
}

/* Every archive of directory path (each .meta names one), in name order. */
static int add_directory(arch_set *s, const char *path)
{
    struct dirent **list;
    int n = scandir(path, &list, NULL, alphasort), sts = 0;

    if (n < 0)
        return -errno;
    for (int i = 0; i < n; i++) {
        const char *name = list[i]->d_name;
        size_t slen, len;
        (void)afile_suffix(name, &slen);
        len = strlen(name) - slen;
        if (sts == 0 && len > 5 && strncmp(name + len - 5, ".meta", 5) == 0) {
            char *base = strndup(name, len - 5);
            sts = base == NULL ? -ENOMEM : add_archive(s, path, base);
            free(base);
        }
        free(list[i]);
    }
    free(list);
    return sts;
}

/* One element of the list: a directory, a file of an archive, a base. */
static int add_name(arch_set *s, const char *name)
{
    struct stat st;
    char *base, *dir = NULL, *last = NULL;
    int sts;

    if (stat(name, &st) == 0 && S_ISDIR(st.st_mode))
        return add_directory(s, name);
    base = base_of_file(name);
    if ((sts = split_path(base != NULL ? base : name, &dir, &last)) == 0)
        sts = add_archive(s, dir, last);
    free(base);
    free(dir);
    free(last);
    return sts;
}

static int by_start(const void *a, const void *b)
{
    return arch_cmp(&((const arch_one *)a)->label.start, &((const arch_one *)b)->label.start);
}

void arch_close(arch_set *s)
{
    if (s == NULL)
        return;
    for (int i = 0; i < s->narch; i++)
        one_free(&s->arch[i]);
    free(s->arch);
    meta_free(&s->meta);
    free(s);
}

int arch_open(const char *spec, int flags, arch_set **out)
{
    arch_set *s;
    char *copy, *save = NULL, *elem;
    int sts = 0;

    *out = NULL;
    if (spec == NULL || spec[0] == '\0')
        return PM_ERR_LOGFILE;
    if ((s = calloc(1, sizeof(*s))) == NULL || (copy = strdup(spec)) == NULL) {
        free(s);
        return -ENOMEM;
    }
    s->flags = flags;
    /* "a,,b" and ",a" name an empty archive; a trailing comma does not */
    for (elem = copy; sts == 0 && elem != NULL; elem = save) {
        char *comma = strchr(elem, ',');
        save = comma != NULL ? comma + 1 : NULL;
        if (comma != NULL)
            *comma = '\0';
        if (elem[0] == '\0' && save == NULL && elem != copy)
            break;
        sts = elem[0] == '\0' ? -ENOENT : add_name(s, elem);
    }
    free(copy);
    if (sts == 0 && s->narch == 0)
        sts = -ENOENT;
    if (sts == 0) {
        qsort(s->arch, (size_t)s->narch, sizeof(*s->arch), by_start);
        for (int i = 1; i < s->narch && sts == 0; i++)
            if (strcmp(s->arch[i].label.hostname, s->arch[0].label.hostname) != 0)
                sts = PM_ERR_LOGHOST;
    }
    if (sts < 0) {
        arch_close(s);
        return sts;
    }
    *out = s;
    return 0;
}

int arch_count(const arch_set *s)
{
    return s->narch;
}

const char *arch_base_of(const arch_set *s, int i)
{
    return i >= 0 && i < s->narch ? s->arch[i].base : NULL;
}

const arch_label *arch_label_of(const arch_set *s, int i)
{
    return i >= 0 && i < s->narch ? &s->arch[i].label : NULL;
}

/* ------------------------------------------------------------------ */

int arch_vol_file(arch_set *s, int a, int v, arch_file **f)
{
    arch_vol *vol = &s->arch[a].vols[v];
    int nopen = 0, oldest_a = -1, oldest_v = -1, sts;
    uint64_t oldest = UINT64_MAX;
    uint32_t labellen;

    vol->used = ++s->clock;
    if (vol->file.fd >= 0) {
        *f = &vol->file;
        return 0;
    }
    for (int i = 0; i < s->narch; i++) {
        for (int j = 0; j < s->arch[i].nvols; j++) {
            arch_vol *o = &s->arch[i].vols[j];
            if (o->file.fd < 0 || o->file.kind == AF_MEM)
                continue;
            nopen++;
            if (o->used < oldest) {
                oldest = o->used;
                oldest_a = i;
                oldest_v = j;
            }
        }
    }
    if (nopen >= SET_OPEN_VOLS && oldest_a >= 0)
        afile_close(&s->arch[oldest_a].vols[oldest_v].file);
    sts = check_label(&s->arch[a], vol->path, vol->kind, vol->num, &vol->file, &labellen);
    if (sts < 0)
        return sts;
    *f = &vol->file;
    return 0;
}

/* ------------------------------------------------------------------ */

/*
 * One archive from bytes in memory (.meta, .index (none when indexlen is
 * 0) and volume 0), read as files are: for the fuzz targets and unit
 * tests, which need no files.  The bytes must outlive the set.
 */
int arch_open_mem(const uint8_t *meta, size_t metalen, const uint8_t *index, size_t indexlen,
                  const uint8_t *vol, size_t vollen, int flags, arch_set **out)
{
    arch_set *s = calloc(1, sizeof(*s));
    arch_one *a;
    arch_file mf, f;
    uint32_t len = 0, vlen;
    arch_label lab;
    int sts;

    *out = NULL;
    if (s == NULL || (s->arch = calloc(1, sizeof(*s->arch))) == NULL ||
        (s->arch[0].vols = calloc(1, sizeof(arch_vol))) == NULL) {
        arch_close(s);
        return -ENOMEM;
    }
    s->flags = flags;
    a = &s->arch[0];
    a->index.fd = a->index.tmp = -1;
    a->vols[0].file.fd = -1;
    s->narch = 1;
    a->nvols = 1;
    afile_open_mem(&mf, meta, metalen);
    if ((sts = label_read(&mf, &a->label, &len)) == 0 && a->label.vol != PM_LOG_VOL_META)
        sts = PM_ERR_LABEL;
    if (sts == 0 && a->label.version == PM_LOG_VERS03 && !(flags & ARCH_OPEN_NO_FEATURE_CHECK) &&
        (a->label.features & ~(uint32_t)PM_LOG_FEATURES) != 0)
        sts = PM_ERR_FEATURE;
    a->labellen = len;
    afile_open_mem(&f, vol, vollen);
    if (sts == 0 && (sts = label_read(&f, &lab, &vlen)) == 0 &&
        (lab.vol != 0 || !label_same(&lab, &a->label)))
        sts = PM_ERR_LABEL;
    if (sts == 0 && !has_data(&f, vlen))
        sts = PM_ERR_NODATA;
    a->vols[0] = (arch_vol){0, NULL, AF_MEM, f, 0};
    if (sts == 0 && indexlen > 0) {
        afile_open_mem(&a->index, index, indexlen);
        if ((sts = label_read(&a->index, &lab, &a->tistart)) == 0 &&
            (lab.vol != PM_LOG_VOL_TI || !label_same(&lab, &a->label)))
            sts = PM_ERR_LABEL;
        if (sts == 0)
            sts = index_open(a);
    }
    if (sts == 0)
        sts = meta_load(&s->meta, &mf, len);
    if (sts < 0) {
        arch_close(s);
        return sts;
    }
    *out = s;
    return 0;
}
