/*
 * diag.c - the two renderings of front-end diagnostics and the choice
 * between them (see diag.h).
 *
 * Rich: tabs in the quoted source line are kept and mirrored in the caret
 * line so the caret lines up in a terminal; other control characters are
 * shown as they are.  PCP's: each dialect's layout, with the texts and
 * echo lines the front end worked out (PCP's words, its echo of the line);
 * nothing here knows a message.  No colour, no localisation.
 */
#include "diag.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

diag_form diag_form_resolve(diag_form f)
{
    const char *env;

    if (f != DIAG_FORM_AUTO)
        return f;
    env = getenv("PMKIT_DIAGNOSTICS");
    if (env != NULL && strcmp(env, "pcp") == 0)
        return DIAG_FORM_PCP;
    if (env != NULL && strcmp(env, "rich") == 0)
        return DIAG_FORM_RICH;
    return isatty(STDERR_FILENO) ? DIAG_FORM_RICH : DIAG_FORM_PCP;
}

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

void diag_print_pcp(FILE *fp, const diag_msg *d)
{
    const char *msg = d->pcp_message != NULL ? d->pcp_message : d->message;
    const char *file = d->pcp_file != NULL ? d->pcp_file : d->file;
    unsigned long line = d->pcp_line == 0 ? d->line : d->pcp_line == DIAG_NO_LINE ? 0 : d->pcp_line;

    switch (d->dialect) {
    case DIAG_PCP_NONE:
        diag_print(fp, d);
        return;
    case DIAG_PCP_CPP:
        if (d->severity == DIAG_WARNING)
            fprintf(fp, "Warning: %s\n", msg);
        else if (line == 0 || d->source == NULL)
            fprintf(fp, "pmcpp: %s:\npmcpp: Error: %s\n", file, msg);
        else
            fprintf(fp, "pmcpp: %s[%lu]: %.*s\npmcpp: Error: %s\n", file, line, (int)d->source_len,
                    d->source, msg);
        return;
    case DIAG_PCP_PMNS:
        if (line == 0)
            fprintf(fp, "%s\n", msg);
        else
            fprintf(fp, "[%s:%lu] %s\n", file, line, msg);
        if (d->pcp_echo != NULL)
            fputs(d->pcp_echo, fp);
        return;
    case DIAG_PCP_HELP:
        if (line == 0)
            fprintf(fp, "%s: %s\n", d->prog != NULL ? d->prog : "newhelp", msg);
        else
            fprintf(fp, "%s: [%s:%lu] %s\n", d->prog != NULL ? d->prog : "newhelp", file, line,
                    msg);
        return;
    case DIAG_PCP_GENMAP:
        fprintf(fp, "[%s:%lu] %s\n", file, line, msg);
        return;
    }
}

void diag_print_as(FILE *fp, const diag_msg *d, diag_form f)
{
    if (diag_form_resolve(f) == DIAG_FORM_PCP)
        diag_print_pcp(fp, d);
    else
        diag_print(fp, d);
}

void diag_emit(diag_fn fn, void *ctx, const diag_msg *d, diag_form f)
{
    if (fn != NULL)
        fn(ctx, d);
    else
        diag_print_as(stderr, d, f);
}
