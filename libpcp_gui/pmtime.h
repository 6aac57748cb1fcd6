/*
 * pcp/pmtime.h - the client side of PCP's time control protocol
 * (pmtime(3)), from libpcp_gui.so.2.
 *
 * A time control server (PCP's pmtime, a Qt program) steps its clients
 * through time: it tells each client where to go and how far to step,
 * and each client answers every step once it has fetched its values.
 * Messages are one pmTime each, in host byte order over a TCP connection
 * to the loopback address; a message's length counts the fixed part and
 * any text after it (the time zone and its label).
 *
 * The command bits, enumerations, magic number and struct layout are PCP
 * 6's (pinned by tests/unit/test_pmtime.c); the pmTimeState* calls drive
 * a simple client's loop (pmval's) through the protocol.
 */
#ifndef PCP_PMTIME_H
#define PCP_PMTIME_H

#include <sys/time.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a message asks for; the comment says which way it travels. */
typedef enum pm_tctl_command {
    PM_TCTL_SET = (1 << 0),          /* to the server: where I am */
    PM_TCTL_STEP = (1 << 1),         /* to a client: go to position */
    PM_TCTL_TZ = (1 << 2),           /* to a client: a new time zone */
    PM_TCTL_VCRMODE = (1 << 3),      /* to a client: play/stop changed */
    PM_TCTL_VCRMODE_DRAG = (1 << 4), /* to a client: the slider moves */
    PM_TCTL_GUISHOW = (1 << 5),      /* to the server: show the window */
    PM_TCTL_GUIHIDE = (1 << 6),      /* to the server: hide it */
    PM_TCTL_BOUNDS = (1 << 7),       /* to the server: archive bounds */
    PM_TCTL_ACK = (1 << 8),          /* to the server: step done */
} pm_tctl_command;

/* Which way time runs. */
typedef enum pm_tctl_state {
    PM_STATE_STOP = 0,
    PM_STATE_FORWARD = 1,
    PM_STATE_BACKWARD = 2,
} pm_tctl_state;

/* How it runs. */
typedef enum {
    PM_MODE_STEP = 0,
    PM_MODE_NORMAL = 1,
    PM_MODE_FAST = 2,
} pm_tctl_mode;

/* The kind of source a client reports from. */
typedef enum pm_tctl_source {
    PM_SOURCE_NONE = -1,
    PM_SOURCE_HOST = 0,
    PM_SOURCE_ARCHIVE = 1,
} pm_tctl_source;

#define PMTIME_MAGIC 0x54494D45 /* the bytes "EMIT" on a little-endian wire */

/* One message: 88 bytes on LP64, then length - 88 bytes of text (PCP
 * declares data as a zero-length array; a flexible one has the same
 * layout and is ISO C). */
typedef struct pmTime {
    unsigned int magic;      /* PMTIME_MAGIC */
    unsigned int length;     /* of the whole message */
    pm_tctl_command command; /* one PM_TCTL_* */
    pm_tctl_source source;   /* host or archive */
    pm_tctl_state state;     /* direction */
    pm_tctl_mode mode;       /* pace */
    struct timeval delta;    /* step */
    struct timeval position; /* where */
    struct timeval start;    /* an archive's first time */
    struct timeval end;      /* and last */
    char data[];             /* the zone, a NUL, its label, a NUL */
} pmTime;

/* Connect to the server on port (below 0: start PCP's pmtime, which says
 * its port), handshake with *state; the socket, or below 0. */
extern int pmTimeConnect(int, pmTime *);
/* Close a connection; -1 (errno EINVAL) for a negative descriptor. */
extern int pmTimeDisconnect(int);
/* Acknowledge a step at the given position; send's result. */
extern int pmTimeSendAck(int, struct timeval *);
/* Ask the server to show (non-zero) or hide its window. */
extern int pmTimeShowDialog(int, int);
/* Receive one message into *(pmTime **), which may be reallocated for
 * its text; its command, or below 0. */
extern int pmTimeRecv(int, pmTime **);

/* The calls of a simple client, and the callbacks they make. */
typedef void (*pmTimeStateResume)(void);
typedef void (*pmTimeStateRewind)(void);
typedef void (*pmTimeStateExited)(void);
typedef void (*pmTimeStateBoundary)(void);
typedef void (*pmTimeStatePosition)(struct timeval);
typedef void (*pmTimeStateInterval)(struct timeval);
typedef void (*pmTimeStateStepped)(struct timeval);
typedef void (*pmTimeStateNewZone)(char *, char *);

typedef struct pmTimeControls {
    pmTimeStateResume resume;     /* play again after a stop */
    pmTimeStateRewind rewind;     /* time now runs backwards */
    pmTimeStateExited exited;     /* the server went away */
    pmTimeStateBoundary boundary; /* the archive's end reached */
    pmTimeStatePosition position; /* moved elsewhere in an archive */
    pmTimeStateInterval interval; /* the step changed */
    pmTimeStateStepped stepped;   /* a step after any of the above */
    pmTimeStateNewZone newzone;   /* the zone changed */
    struct timeval delta;         /* the step in force */
    int fd;                       /* the connection */
    int showgui;                  /* ask for the window at the next step */
    int context;                  /* PM_CONTEXT_HOST or _ARCHIVE */
    int padding;
} pmTimeControls;

/* Connect for a context of the given type at port, with the step,
 * position, archive bounds, zone (NULL: the local one) and its label
 * (NULL: "localhost"); fills the controls with default callbacks that
 * print what happens.  Exits the program when the server cannot be had. */
extern pmTime *pmTimeStateSetup(pmTimeControls *, int, int, struct timeval, struct timeval,
                                struct timeval, struct timeval, char *, char *);
/* Acknowledge the step in the message. */
extern void pmTimeStateAck(pmTimeControls *, pmTime *);
/* pmSetMode with the step as milliseconds, or seconds past 24 days. */
extern void pmTimeStateMode(int, struct timeval, struct timeval *);
/* Wait for the next step to fetch at, handling the other messages. */
extern int pmTimeStateVector(pmTimeControls *, pmTime *);
/* Acknowledge a step past an archive's end, and say so once. */
extern void pmTimeStateBounds(pmTimeControls *, pmTime *);

#ifdef __cplusplus
}
#endif

#endif /* PCP_PMTIME_H */
