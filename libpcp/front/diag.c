/*
 * diag.c - rendering and delivery of front-end diagnostics (see diag.h).
 *
 * Tabs in the quoted source line are kept and mirrored in the caret line so
 * the caret lines up in a terminal; other control characters are shown as
 * they are.  No colour, no localisation.
 */
#include "diag.h"

void diag_print(FILE *fp, const diag_msg *d)
{
    const char *kind = d->severity == DIAG_ERROR ? "error" : "warning";

    if (d->line == 0)
        fprintf(fp, "%s: %s: %s\n", d->file, kind, d->message);
    else if (d->col == 0)
        fprintf(fp, "%s:%lu: %s: %s\n", d->file, d->line, kind, d->message);
    else
        fprintf(fp, "%s:%lu:%u: %s: %s\n", d->file, d->line, d->col, kind, d->message);
    if (d->source == NULL || d->line == 0)
        return;
    int width = snprintf(NULL, 0, "%lu", d->line);

    if (width < 5)
        width = 5; /* GCC's margin: five columns, wider for longer numbers */
    fprintf(fp, "%*lu | %.*s\n", width, d->line, (int)d->source_len, d->source);
    if (d->col == 0)
        return;
    fprintf(fp, "%*s| ", width + 1, "");
    for (size_t i = 0; i + 1 < d->col && i < d->source_len; i++)
        fputc(d->source[i] == '\t' ? '\t' : ' ', fp);
    fputs("^\n", fp);
}

void diag_emit(diag_fn fn, void *ctx, const diag_msg *d)
{
    if (fn != NULL)
        fn(ctx, d);
    else
        diag_print(stderr, d);
}
