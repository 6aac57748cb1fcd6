/*
 * timestate.c - the time control loop of a simple client (pmtime(3)'s
 * pmTimeState* calls, which pmval uses): connect, wait for each step,
 * acknowledge it, and tell the client through its callbacks when time
 * stops, resumes, runs backwards, jumps, changes pace or zone, or runs off
 * the end of an archive.
 *
 * The client's state (where the last message left it) lives in its
 * pmTimeControls (the padding field), not in the library: Debian's keeps
 * one for the process.  Steps backwards are acknowledged without a fetch,
 * as in PCP; a step forward after any change sets an archive context's
 * mode (PM_MODE_INTERP at the new position and step) before the client
 * fetches.  The default callbacks print what PCP's print, and, as PCP's
 * API defines, the calls end the program when the server cannot be had
 * or goes away.
 *
 * Not here: the server.
 */
#include <pcp/pmapi.h>
#include <pcp/libpcp.h>

#include "pmtime.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the client is, as its last messages left it (controls->padding). */
enum {
    AT_START = -1, /* connected, no step yet */
    AT_STOP = 0,   /* the server stopped */
    AT_STEP = 1,   /* stepping forward */
    AT_BACK = 2,   /* stepping backward */
    AT_DRAG = 3,   /* the slider is moving */
    AT_MOVED = 4,  /* play again, or repositioned */
    AT_END = 5,    /* past an archive's end */
};

/* ------------------------------------------------ default callbacks */

static void said_nothing(struct timeval tv)
{
    (void)tv;
}

static void said_exited(void)
{
    fprintf(stderr, "\n%s: Time Control dialog exited, goodbye.\n", pmGetProgname());
}

static void said_rewind(void)
{
    puts("\n[Time Control] Rewind/Reverse ...");
}

static void said_position(struct timeval tv)
{
    (void)tv;
    puts("\n[Time Control] Repositioned in archive ...");
}

static void said_resume(void)
{
    puts("\n[Time Control] Resume ...");
}

static void said_boundary(void)
{
    puts("\n[Time Control] End of Archive ...");
}

static void said_interval(struct timeval tv)
{
    printf("new interval:  %1.2f sec\n", pmtimevalToReal(&tv));
}

static void said_newzone(char *tz, char *label)
{
    int sts = pmNewZone(tz);

    if (sts < 0)
        fprintf(stderr, "%s: Warning: cannot set timezone to \"%s\": %s\n", pmGetProgname(), tz,
                pmErrStr(sts));
    else
        printf("new timezone: %s (%s)\n", tz, label);
}

/* ------------------------------------------------------------ setup */

static void setup_fail(const char *what, const char *why)
{
    fprintf(stderr, "%s: pmTimeConnect: %s%s\n", pmGetProgname(), what, why);
    exit(1);
}

/* The first message: the source, the step, where to start, the archive's
 * bounds, then zone and label; exits when memory runs out. */
static pmTime *first_message(int ctxtype, struct timeval delta, struct timeval position,
                             struct timeval start, struct timeval end, const char *tz,
                             const char *label)
{
    size_t tzlen = strlen(tz) + 1, lablen = strlen(label) + 1;
    pmTime *m = calloc(1, sizeof(pmTime) + tzlen + lablen);

    if (m == NULL)
        setup_fail("malloc: ", strerror(errno));
    m->magic = PMTIME_MAGIC;
    m->length = (unsigned)(sizeof(pmTime) + tzlen + lablen);
    m->command = PM_TCTL_SET;
    m->delta = delta;
    if (ctxtype == PM_CONTEXT_ARCHIVE) {
        m->source = PM_SOURCE_ARCHIVE;
        m->position = position;
        m->start = start;
        m->end = end;
    } else {
        m->source = PM_SOURCE_HOST;
        pmtimevalNow(&m->position);
    }
    memcpy(m->data, tz, tzlen);
    memcpy(m->data + tzlen, label, lablen);
    return m;
}

pmTime *pmTimeStateSetup(pmTimeControls *controls, int ctxtype, int port, struct timeval delta,
                         struct timeval position, struct timeval start, struct timeval end,
                         char *tz, char *label)
{
    char zone[40];
    pmTime *m, *small;
    int fd, sts;

    if (tz == NULL) {
        tz = __pmTimezone_r(zone, (int)sizeof(zone));
        if (ctxtype == PM_CONTEXT_ARCHIVE && (sts = pmNewZone(tz)) < 0) {
            fprintf(stderr, "%s: pmTimeConnect: Cannot set timezone to \"%s\": %s\n",
                    pmGetProgname(), tz, pmErrStr(sts));
            exit(1);
        }
    }
    m = first_message(ctxtype, delta, position, start, end, tz,
                      label != NULL ? label : "localhost");
    if ((fd = pmTimeConnect(port, m)) < 0)
        setup_fail("", pmErrStr(fd));
    m->length = (unsigned)sizeof(pmTime);
    if ((small = realloc(m, sizeof(pmTime))) != NULL)
        m = small;
    controls->resume = said_resume;
    controls->rewind = said_rewind;
    controls->exited = said_exited;
    controls->boundary = said_boundary;
    controls->position = said_position;
    controls->interval = said_interval;
    controls->stepped = said_nothing;
    controls->newzone = said_newzone;
    controls->delta = delta;
    controls->fd = fd;
    controls->showgui = 1;
    controls->context = ctxtype;
    controls->padding = AT_START;
    return m;
}

/* ------------------------------------------------------------ steps */

void pmTimeStateMode(int mode, struct timeval delta, struct timeval *position)
{
    int sts;

    if (delta.tv_sec > 24 * 24 * 3600) /* milliseconds would overflow an int */
        sts = pmSetMode(mode | PM_XTB_SET(PM_TIME_SEC), position, (int)delta.tv_sec);
    else
        sts = pmSetMode(mode | PM_XTB_SET(PM_TIME_MSEC), position,
                        (int)(delta.tv_usec / 1000.0 + delta.tv_sec * 1000.0));
    if (sts < 0) {
        fprintf(stderr, "%s: pmSetMode: %s\n", pmGetProgname(), pmErrStr(sts));
        exit(1);
    }
}

void pmTimeStateAck(pmTimeControls *controls, pmTime *msg)
{
    int sts = pmTimeSendAck(controls->fd, &msg->position);

    if (sts >= 0)
        return;
    if (sts == -EPIPE) {
        controls->exited();
        exit(1);
    }
    fprintf(stderr, "\n%s: pmTimeSendAck: %s\n", pmGetProgname(), pmErrStr(sts));
    exit(1);
}

void pmTimeStateBounds(pmTimeControls *controls, pmTime *msg)
{
    pmTimeStateAck(controls, msg);
    if (controls->padding != AT_END)
        controls->boundary();
    controls->padding = AT_END;
}

/* A step forward from any state but AT_STEP and AT_END: say what changed,
 * set an archive's mode, take the step. */
static void step_after_change(pmTimeControls *controls, pmTime *msg)
{
    int was = controls->padding;
    int archive = controls->context == PM_CONTEXT_ARCHIVE;

    if (archive && was == AT_STOP)
        controls->resume();
    else if (archive && was != AT_START)
        controls->position(msg->position);
    else if (!archive && was != AT_START)
        controls->resume();
    if (was != AT_START && (msg->delta.tv_sec != controls->delta.tv_sec ||
                            msg->delta.tv_usec != controls->delta.tv_usec))
        controls->interval(msg->delta);
    if (archive)
        pmTimeStateMode(PM_MODE_INTERP, msg->delta, &msg->position);
    controls->delta = msg->delta;
    controls->stepped(msg->position);
    controls->padding = AT_STEP;
}

/* One message; 1 when it is a step to fetch at. */
static int vector_one(pmTimeControls *controls, pmTime *msg, int cmd)
{
    switch (cmd) {
    case PM_TCTL_SET:
        if (controls->padding == AT_END)
            controls->padding = AT_STOP;
        else if (controls->padding == AT_STEP)
            controls->padding = AT_MOVED;
        return 0;
    case PM_TCTL_STEP:
        if (msg->state == PM_STATE_BACKWARD) {
            if (controls->padding != AT_BACK)
                controls->rewind();
            controls->padding = AT_BACK;
            pmTimeStateAck(controls, msg);
            return 0;
        }
        if (controls->padding == AT_STEP)
            return 1;
        if (controls->padding == AT_END) {
            pmTimeStateAck(controls, msg);
            return 0;
        }
        step_after_change(controls, msg);
        return 1;
    case PM_TCTL_TZ:
        controls->newzone(msg->data, msg->data + strlen(msg->data) + 1);
        return 0;
    case PM_TCTL_VCRMODE:
        controls->padding = msg->state == PM_STATE_STOP ? AT_STOP : AT_MOVED;
        return 0;
    case PM_TCTL_VCRMODE_DRAG:
        controls->padding = AT_DRAG;
        return 0;
    case PM_TCTL_GUISHOW:
    case PM_TCTL_GUIHIDE:
    case PM_TCTL_BOUNDS:
    case PM_TCTL_ACK:
        return 0;
    default:
        if (pmDebugOptions.timecontrol)
            fprintf(stderr, "pmTimeRecv: cmd %x?\n", (unsigned)cmd);
        return 0;
    }
}

/* Messages are received into a buffer of the library's own (a zone's text
 * may need it to grow) and each one's fixed part copied to the caller's, so
 * that pmTime stays valid; PCP's receives into the caller's, which its
 * growth can free. */
int pmTimeStateVector(pmTimeControls *controls, pmTime *msg)
{
    pmTime *buf = malloc(sizeof(pmTime));
    int cmd, fetch = 0;

    if (controls->showgui) {
        pmTimeShowDialog(controls->fd, 1);
        controls->showgui = 0;
    }
    while (!fetch) {
        if (buf == NULL || (cmd = pmTimeRecv(controls->fd, &buf)) < 0) {
            controls->exited();
            exit(1);
        }
        memcpy(msg, buf, sizeof(pmTime));
        fetch = vector_one(controls, buf, cmd);
    }
    memcpy(msg, buf, sizeof(pmTime));
    free(buf);
    return 0;
}
