/*
 * interp_common.h - what bench_interp.c (timed) and interp_callgrind.c
 * (counted) share: the archive opened with its names sorted and looked
 * up, and the first time and mode of a direction and step.  Define
 * INTERP_PROG (the program's name, for messages) before including it.
 */
#ifndef BENCH_INTERP_COMMON_H
#define BENCH_INTERP_COMMON_H

#include <pcp/pmapi.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char **names;
static int nnames, room;
static pmID *ids;              /* the names' PMIDs, in sorted order */
static struct timeval t_first; /* where the mode starts */
static int delta_ms;           /* the step, negative backwards */
static int pass;               /* passes over the archive begun since set_mode */
static int want;               /* how many of ids a fetch asks for */

/* Each pass over the archive starts PASS_SHIFT_MS further in than the one
 * before, so that a long step's passes do not fetch at the same times
 * again (the library would find the records it read a pass before). */
#define PASS_SHIFT_MS 1300

static void die(const char *what, int sts)
{
    fprintf(stderr, INTERP_PROG ": %s: %s\n", what, pmErrStr(sts));
    exit(1);
}

static void add_name(const char *name)
{
    if (nnames == room) {
        room = room ? 2 * room : 1024;
        if ((names = realloc(names, (size_t)room * sizeof(*names))) == NULL)
            die("realloc", -ENOMEM);
    }
    if ((names[nnames++] = strdup(name)) == NULL)
        die("strdup", -ENOMEM);
}

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The archive at path as the current context, its names sorted into
 * names and their PMIDs into ids (one spare slot after them). */
static void open_archive(const char *path)
{
    int sts;

    if ((sts = pmNewContext(PM_CONTEXT_ARCHIVE, path)) < 0)
        die(path, sts);
    if ((sts = pmTraversePMNS("", add_name)) < 0)
        die("pmTraversePMNS", sts);
    qsort(names, (size_t)nnames, sizeof(*names), cmp_names);
    if ((ids = calloc((size_t)nnames + 1, sizeof(*ids))) == NULL)
        die("calloc", -ENOMEM);
    if ((sts = pmLookupName(nnames, (const char **)names, ids)) != nnames)
        die("pmLookupName", sts < 0 ? sts : PM_ERR_NAME);
}

/* The mode at the first time of pass k over the archive, in the current
 * direction and step. */
static void set_mode_pass(int k)
{
    long long us = (long long)t_first.tv_sec * 1000000 + t_first.tv_usec;
    struct timeval at;
    int sts;

    us += (delta_ms > 0 ? 1 : -1) * (long long)k * PASS_SHIFT_MS * 1000;
    at.tv_sec = (time_t)(us / 1000000);
    at.tv_usec = (suseconds_t)(us % 1000000);
    if ((sts = pmSetMode(PM_MODE_INTERP, &at, delta_ms)) < 0)
        die("pmSetMode", sts);
    pass = k;
}

/* The mode at the first time of the current direction and step. */
static void set_mode(void)
{
    set_mode_pass(0);
}

/* The first time, 0.37 s after the archive's start forwards or before its
 * end backwards, and the mode set there with the step. */
static void start(int forwards, int step_ms)
{
    pmLogLabel label;
    struct timeval end;
    int sts;

    if ((sts = pmGetArchiveLabel(&label)) < 0)
        die("pmGetArchiveLabel", sts);
    if ((sts = pmGetArchiveEnd(&end)) < 0)
        die("pmGetArchiveEnd", sts);
    t_first = forwards ? label.ll_start : end;
    t_first.tv_usec += forwards ? 370000 : -370000;
    if (t_first.tv_usec >= 1000000) {
        t_first.tv_sec++;
        t_first.tv_usec -= 1000000;
    } else if (t_first.tv_usec < 0) {
        t_first.tv_sec--;
        t_first.tv_usec += 1000000;
    }
    delta_ms = forwards ? step_ms : -step_ms;
    set_mode();
}

/* One pmFetch of want ids; at the archive's end (PM_ERR_EOL) the mode is
 * set again near the first time (the next pass's) and the fetch made
 * again, as a tool looping over an archive does. */
static pmResult *fetch_one(void)
{
    pmResult *r;
    int sts = pmFetch(want, ids, &r);

    if (sts == PM_ERR_EOL) {
        set_mode_pass(pass + 1);
        sts = pmFetch(want, ids, &r);
    }
    if (sts < 0)
        die("pmFetch", sts);
    return r;
}

#endif
