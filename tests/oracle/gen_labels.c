/*
 * gen_labels.c - copies an archive's metadata file and appends label
 * records to the copy, for the label sets' table test
 * (debian_archive_readers.sh): records of one class and identifier
 * repeated at one time, older than, newer than and between those already
 * there, equal or not, with no sets, which no archive of the testsuite
 * holds.
 *
 *   gen_labels IN.meta OUT.meta RECORD...
 *
 * RECORD is SEC.NSEC:TYPE:IDENT:SETS, SETS none or more INST=JSON joined
 * by ';', JSON a flat object of names and string or number values, led by
 * '?' to mark its labels optional.  Records are written in the file's
 * version (v2: TYPE_LABEL_V2, microseconds NSEC / 1000; v3: TYPE_LABEL),
 * each label's flags the class, and PM_LABEL_OPTIONAL when asked.  Not a
 * JSON parser: no nesting, no escapes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct out {
    unsigned char b[65536];
    size_t n;
} out;

static void put32(out *o, uint32_t v)
{
    if (o->n + 4 <= sizeof(o->b)) {
        for (int i = 3; i >= 0; i--)
            o->b[o->n++] = (unsigned char)(v >> (8 * i));
    }
}

static void put8(out *o, unsigned v)
{
    if (o->n < sizeof(o->b))
        o->b[o->n++] = (unsigned char)v;
}

/* The labels of a flat object: name and value offsets and lengths. */
static int put_labels(out *o, const char *js, unsigned flags)
{
    unsigned char lab[256 * 8];
    int n = 0;
    size_t i = 1, len = strlen(js);

    while (i < len && js[i] == '"' && n < 256) {
        size_t name = i + 1, vlen;
        const char *q = strchr(js + name, '"');
        if (q == NULL || q[1] != ':')
            return -1;
        size_t value = (size_t)(q - js) + 2;
        vlen = js[value] == '"' ? (size_t)(strchr(js + value + 1, '"') - js) + 1 - value
                                : strcspn(js + value, ",}");
        unsigned char *l = lab + 8 * n++;
        l[0] = (unsigned char)(name >> 8), l[1] = (unsigned char)name;
        l[2] = (unsigned char)(q - js - (long)name), l[3] = (unsigned char)flags;
        l[4] = (unsigned char)(value >> 8), l[5] = (unsigned char)value;
        l[6] = (unsigned char)(vlen >> 8), l[7] = (unsigned char)vlen;
        i = value + vlen + 1;
    }
    put32(o, (uint32_t)n);
    for (int k = 0; k < 8 * n; k++)
        put8(o, lab[k]);
    return 0;
}

/* One RECORD (see above) as a whole record; -1 if it cannot be read. */
static int put_record(out *o, char *spec, int version)
{
    char *f[4], *p = spec;
    size_t start = o->n, count;
    long long sec;
    long nsec;

    for (int i = 0; i < 4; i++) {
        f[i] = p;
        if (i < 3 && (p = strchr(p, ':')) == NULL)
            return -1;
        if (i < 3)
            *p++ = '\0';
    }
    if (sscanf(f[0], "%lld.%ld", &sec, &nsec) != 2)
        return -1;
    put32(o, 0);
    put32(o, version == 2 ? 3 : 7);
    put32(o, (uint32_t)sec);
    if (version == 2) {
        put32(o, (uint32_t)(nsec / 1000));
    } else {
        put32(o, 0);
        put32(o, (uint32_t)nsec);
    }
    unsigned type = (unsigned)strtoul(f[1], NULL, 0);
    put32(o, type);
    put32(o, (uint32_t)strtoll(f[2], NULL, 0));
    count = *f[3] != '\0';
    for (char *c = f[3]; *c != '\0'; c++)
        count += *c == ';';
    put32(o, (uint32_t)count);
    for (char *set = strtok(f[3], ";"); set != NULL; set = strtok(NULL, ";")) {
        char *js = strchr(set, '=');
        unsigned flags = type;
        if (js == NULL)
            return -1;
        *js++ = '\0';
        if (*js == '?')
            js++, flags |= 0x80;
        put32(o, (uint32_t)strtol(set, NULL, 0));
        put32(o, (uint32_t)strlen(js));
        for (const char *c = js; *c != '\0'; c++)
            put8(o, (unsigned char)*c);
        if (*js != '\0' && put_labels(o, js, flags) < 0)
            return -1;
        if (*js == '\0')
            put32(o, 0);
    }
    put32(o, (uint32_t)(o->n - start + 4));
    for (int i = 0; i < 4; i++)
        o->b[start + (size_t)i] = o->b[o->n - 4 + (size_t)i];
    return o->n < sizeof(o->b) ? 0 : -1;
}

int main(int argc, char **argv)
{
    static out o;
    unsigned char head[8];
    FILE *in, *w;
    int c, version;

    if (argc < 3 || (in = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "Usage: gen_labels IN.meta OUT.meta RECORD...\n");
        return 2;
    }
    if (fread(head, 1, 8, in) != 8 || (w = fopen(argv[2], "wb")) == NULL)
        return 1;
    version = head[7];
    fwrite(head, 1, 8, w);
    while ((c = getc(in)) != EOF)
        putc(c, w);
    fclose(in);
    for (int i = 3; i < argc; i++) {
        if (put_record(&o, argv[i], version) < 0) {
            fprintf(stderr, "gen_labels: cannot read record %s\n", argv[i]);
            return 2;
        }
    }
    fwrite(o.b, 1, o.n, w);
    return fclose(w) == 0 ? 0 : 1;
}
