/*
 * proc_net.c - /proc/net/dev: one line per network interface, "name:"
 * then eight receive and eight transmit counters.
 *
 * Any line with a ':' is an interface line (the two header lines have
 * none); the name is what precedes the first ':' (leading blanks
 * dropped, so any character but ':' may appear in it), and the counters
 * are the numbers that follow, 0 when the line is short.
 */
#include "proc.h"

#include <string.h>

int proc_net_dev_parse(const char *text, size_t len, proc_line_fn fn, void *arg)
{
    const char *p = text, *end = text + len, *line, *eol;

    while (proc_next_line(&p, end, &line, &eol)) {
        const char *colon = memchr(line, ':', (size_t)(eol - line)), *q;
        uint64_t col[ND_NCOLUMNS] = {0};
        int err;

        if (colon == NULL)
            continue;
        while (line < colon && (*line == ' ' || *line == '\t'))
            line++;
        if (line == colon)
            continue;
        q = colon + 1;
        for (int i = 0; i < ND_NCOLUMNS; i++)
            if (!proc_scan_u64(&q, eol, &col[i]))
                break;
        if ((err = fn(arg, line, (size_t)(colon - line), col)) < 0)
            return err;
    }
    return 0;
}
