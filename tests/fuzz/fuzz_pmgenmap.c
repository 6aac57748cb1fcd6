/*
 * fuzz_pmgenmap.c - libFuzzer target for the pmgenmap map-spec translator
 * (libpcp/front/genmap.c).
 *
 * The first byte picks whether metric names go through a check callback
 * (which rejects names holding an 'x', so the error path with a message
 * from the caller runs too); the rest is the specification.  Checked after
 * each run: the error count equals the diagnostics delivered, every
 * diagnostic's line and column lie within the input, the callback saw
 * NUL-terminated names of the stated length, and a run without errors
 * wrote a body whose every line ends with a newline.
 */
#include "genmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct seen {
    long diags;          /* diagnostics received */
    unsigned long lines; /* lines in the input (upper bound) */
} seen;

static void count(void *ctx, const diag_msg *d)
{
    seen *s = ctx;

    if (d->line == 0 || d->line > s->lines || d->col == 0 || d->col > d->source_len + 1)
        abort(); /* a location outside the input */
    s->diags++;
}

static const char *no_x(void *ctx, const char *name, size_t len)
{
    (void)ctx;
    if (name[len] != '\0')
        abort(); /* the name must be terminated */
    return memchr(name, 'x', len) != NULL ? "Unknown metric name" : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    genmap_opts o = {.file = "<fuzz>", .diag = count, .form = DIAG_FORM_RICH};
    genmap_buf out = {0};
    seen s = {0, 1};
    long errors;

    if (size == 0)
        return 0;
    for (size_t i = 1; i < size; i++)
        s.lines += data[i] == '\n' || data[i] == '\r';
    o.diag_ctx = &s;
    if (data[0] & 1)
        o.check = no_x;
    errors = genmap_translate(&o, (const char *)data + 1, size - 1, &out);
    if (errors >= 0 && errors != s.diags)
        abort(); /* every error is reported, once */
    if (errors == 0 && out.len > 0 && out.data[out.len - 1] != '\n')
        abort(); /* the body is whole lines */
    genmap_buf_free(&out);
    return 0;
}
