/*
 * daemon.c - what a daemon agent's main() calls: option parsing
 * (pmdaGetOptions, pmdaGetOpt, pmdaUsageMessage), pmdaOpenLog, and the
 * connection to pmcd (pmdaConnect, pmdaMain, __pmdaMainPDU, pmdaSendError;
 * tests/oracle/daemon_diff.sh runs it under Debian's dbpmda).
 *
 * Option parsing is PCP's (tests/unit/test_pmda.c) on top of pmgetopt_r: the
 * agent's pmdaOptions is copied into a pmOptions (their leading fields are
 * the same), scanned, and copied back.
 *
 * The connection: pmcd's pipes (stdin/stdout) by default, or a socket the
 * agent listens on (-i port, -6 port, -u path) until pmcd connects; the
 * agent speaks first with CREDS and takes pmcd's version from its answer.
 * Then each PDU from pmcd is decoded (libpcp/wire/pdu.c), handed to the method of the
 * pmdaInterface its type calls for, and answered with exactly one PDU,
 * except PROFILE, ATTR, ERROR and CONTROL_REQ, which get none.  State kept
 * between PDUs (buffers, the last profile) hangs off pmda_priv.
 *
 * Not done: HIGHRES_FETCH and DESC_IDS, which pmcd never sends an agent
 * (it asks for one FETCH or DESC_REQ at a time), are logged as unknown
 * like any other type; no timeout on reads (pmcd times agents out, not
 * the reverse).
 */
#include "pmda_int.h"
#include "pdu.h"

#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* pmdaOptions is pmOptions's first fields, up to errors, then username:
 * the scanner runs on a pmOptions and the prefix is copied each way. */
_Static_assert(offsetof(pmdaOptions, override) == offsetof(pmOptions, override) &&
                   offsetof(pmdaOptions, __nextchar) == offsetof(pmOptions, __nextchar) &&
                   offsetof(pmdaOptions, errors) == offsetof(pmOptions, errors),
               "pmdaOptions starts with pmOptions's fields");

static void to_pmoptions(const pmdaOptions *o, pmOptions *p)
{
    memset(p, 0, sizeof(*p));
    memcpy(p, o, offsetof(pmdaOptions, username));
}

static void from_pmoptions(const pmOptions *p, pmdaOptions *o)
{
    memcpy(o, p, offsetof(pmdaOptions, username));
}

/* Apply one agent option; returns 0, or 1 when the caller should see it. */
static int agent_option(int c, const char *arg, pmdaOptions *opts, pmdaInterface *dp)
{
    pmdaExt *pmda = dp->version.any.ext;
    char *end;
    long v;

    switch (c) {
    case 'd':
        v = strtol(arg, &end, 10);
        if (*arg == '\0' || *end != '\0' || v < 0 || v > 510) {
            pmprintf("%s: -d requires numeric domain number\n", pmGetProgname());
            opts->errors++;
            return 0;
        }
        dp->domain = pmda->e_domain = (int)v;
        return 0;
    case 'D':
        if (pmSetDebug(arg) < 0) {
            pmprintf("%s: unrecognized debug options specification (%s)\n", pmGetProgname(), arg);
            opts->errors++;
        }
        return 0;
    case 'h':
        pmda->e_helptext = (char *)arg;
        return 0;
    case 'l':
        pmda->e_logfile = arg;
        return 0;
    case 'U':
        opts->username = (char *)arg;
        return 0;
    case 'i':
    case '6':
    case 'p':
    case 'u':
        if (pmda->e_io != pmdaUnknown) {
            static const char letter[] = {'p', 'i', 'u', '?', '6'};
            pmprintf("%s: -%c option clashes with -%c option\n", pmGetProgname(), c,
                     letter[pmda->e_io]);
            opts->errors++;
            return 0;
        }
        pmda->e_io = c == 'p' ? pmdaPipe : c == 'u' ? pmdaUnix : c == '6' ? pmdaIPv6 : pmdaInet;
        if (c == 'u') {
            pmda->e_sockname = (char *)arg;
        } else if (c != 'p') {
            v = strtol(arg, &end, 10);
            if (*end == '\0' && *arg != '\0')
                pmda->e_port = (int)v;
            else
                pmda->e_sockname = (char *)arg;
        }
        return 0;
    case '?':
        opts->errors++;
        return 0;
    default:
        return 1;
    }
}

int pmdaGetOptions(int argc, char *const *argv, pmdaOptions *opts, pmdaInterface *dp)
{
    pmOptions p;
    int c;

    if (dp->status != 0 || !pmda_version_ok(dp->comm.pmda_interface) ||
        dp->version.any.ext == NULL) {
        opts->errors++;
        return EOF;
    }
    opts->version = 0;
    for (;;) {
        to_pmoptions(opts, &p);
        c = pmgetopt_r(argc, argv, &p);
        from_pmoptions(&p, opts);
        if (c == EOF)
            break;
        if (opts->override != NULL && opts->override(c, opts) != 0)
            continue;
        if (agent_option(c, opts->optarg, opts, dp))
            break;
    }
    pmflush();
    return c;
}

int pmdaGetOpt(int argc, char *const *argv, const char *optstring, pmdaInterface *dp, int *err)
{
    static pmdaOptions opts;
    int c;

    if (opts.short_options != optstring) {
        memset(&opts, 0, sizeof(opts));
        opts.short_options = optstring;
        opts.flags = PM_OPTFLAG_POSIX;
    }
    for (;;) {
        pmOptions p;
        to_pmoptions(&opts, &p);
        c = pmgetopt_r(argc, argv, &p);
        from_pmoptions(&p, &opts);
        if (c == EOF || c == 'U' || agent_option(c, opts.optarg, &opts, dp))
            break;
    }
    optind = opts.optind;
    optarg = opts.optarg;
    optopt = opts.optopt;
    *err += opts.errors;
    opts.errors = 0;
    pmflush();
    return c;
}

void pmdaUsageMessage(pmdaOptions *opts)
{
    pmOptions p;

    to_pmoptions(opts, &p);
    pmUsageMessage(&p);
}

void pmdaOpenLog(pmdaInterface *dp)
{
    pmdaExt *pmda = dp->version.any.ext;
    int sts;

    if (dp->status < 0 || pmda == NULL)
        return;
    pmOpenLog(pmda->e_name, pmda->e_logfile, stderr, &sts);
}

/* ------------------------------------------------------------------ */
/* The connection to pmcd */

/* What a daemon agent keeps between PDUs (pmda_priv.daemon). */
struct pmda_daemon {
    unsigned char *in; /* the PDU being handled */
    size_t incap;      /* bytes allocated at in */
    pdu_buf out;       /* the answer being built */
    pmProfile *prof;   /* the last profile, which the agent's e_prof may name */
};

static struct pmda_daemon *daemon_of(pmdaExt *pmda)
{
    pmda_priv *priv = pmda_priv_of(pmda);

    if (priv->daemon == NULL)
        priv->daemon = calloc(1, sizeof(*priv->daemon));
    return priv->daemon;
}

static void daemon_release(pmdaExt *pmda)
{
    pmda_priv *priv = pmda_priv_of(pmda);
    struct pmda_daemon *d = priv->daemon;

    if (d == NULL)
        return;
    if (pmda->e_prof == d->prof)
        pmda->e_prof = NULL;
    free(d->prof);
    free(d->in);
    pdu_buf_free(&d->out);
    free(d);
    priv->daemon = NULL;
}

/* The port of -i: the number, or the service named instead; -1 if none. */
static int inet_port(const pmdaExt *pmda)
{
    struct servent *s;

    if (pmda->e_port >= 0)
        return pmda->e_port;
    if (pmda->e_sockname != NULL && (s = getservbyname(pmda->e_sockname, "tcp")) != NULL)
        return ntohs((uint16_t)s->s_port);
    return -1;
}

/* Bind a listening socket on the loopback address of family (pmcd runs on
 * this host), wait for pmcd, and return the connection (or -errno). */
static int accept_inet(const pmdaExt *pmda, int family)
{
    struct sockaddr_in in4;
    struct sockaddr_in6 in6;
    int port = inet_port(pmda), one = 1, fd, conn;
    int ok;

    if (port < 0 || port > 65535)
        return -EINVAL;
    if ((fd = socket(family, SOCK_STREAM, 0)) < 0)
        return -errno;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    if (family == AF_INET) {
        memset(&in4, 0, sizeof(in4));
        in4.sin_family = AF_INET;
        in4.sin_port = htons((uint16_t)port);
        in4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ok = bind(fd, (struct sockaddr *)&in4, sizeof(in4)) == 0;
    } else {
        memset(&in6, 0, sizeof(in6));
        in6.sin6_family = AF_INET6;
        in6.sin6_port = htons((uint16_t)port);
        in6.sin6_addr = in6addr_loopback;
        ok = bind(fd, (struct sockaddr *)&in6, sizeof(in6)) == 0;
    }
    /* one connection ever comes: pmcd's */
    if (!ok || listen(fd, 1) < 0 || (conn = accept(fd, NULL, NULL)) < 0) {
        int e = -errno;
        close(fd);
        return e;
    }
    close(fd);
    setsockopt(conn, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    return conn;
}

/* The same on a unix socket at e_sockname, replacing a stale one. */
static int accept_unix(const pmdaExt *pmda)
{
    struct sockaddr_un un;
    const char *path = pmda->e_sockname;
    int fd, conn;

    if (path == NULL || strlen(path) >= sizeof(un.sun_path))
        return -EINVAL;
    memset(&un, 0, sizeof(un));
    un.sun_family = AF_UNIX;
    memcpy(un.sun_path, path, strlen(path));
    if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
        return -errno;
    if (unlink(path) == 0)
        pmNotifyErr(LOG_WARNING, "pmdaConnect: PMDA %s: removed the old socket %s", pmda->e_name,
                    path);
    if (bind(fd, (struct sockaddr *)&un, sizeof(un)) < 0 || chmod(path, 0660) < 0 ||
        listen(fd, 5) < 0 || (conn = accept(fd, NULL, NULL)) < 0) {
        int e = -errno;
        close(fd);
        return e;
    }
    close(fd);
    return conn;
}

/* Send CREDS and take pmcd's answer: 0, or why not. */
static int exchange_creds(pmdaInterface *dp, struct pmda_daemon *d)
{
    pmdaExt *pmda = dp->version.any.ext;
    int sts, version, flags;

    pdu_enc_creds(&d->out, (int)getpid(), PDU_VERSION, (int)dp->comm.flags);
    if ((sts = pdu_write(pmda->e_outfd, &d->out)) < 0)
        return sts;
    if ((sts = pdu_read(pmda->e_infd, &d->in, &d->incap)) < 0)
        return sts;
    if (pdu_type(d->in) == PDU_ERROR && pdu_dec_error(d->in, (size_t)sts, &version) == 0)
        return version < 0 ? version : PM_ERR_IPC;
    if (pdu_type(d->in) != PDU_CREDS || pdu_dec_creds(d->in, (size_t)sts, &version, &flags) < 0)
        return PM_ERR_IPC;
    dp->comm.pmapi_version = (unsigned)version & 0xff;
    return 0;
}

void pmdaConnect(pmdaInterface *dp)
{
    pmdaExt *pmda = dp->version.any.ext;
    struct pmda_daemon *d;
    int fd = 0, sts;

    if (pmda == NULL || !(pmda->e_flags & PMDA_EXT_SETUPDONE)) {
        pmNotifyErr(LOG_CRIT, "pmdaConnect: need to call pmdaDaemon() or pmdaDSO() first");
        dp->status = PM_ERR_GENERIC;
        return;
    }
    if (pmda->e_flags & PMDA_EXT_CONNECTED) {
        pmNotifyErr(LOG_CRIT, "pmdaConnect: called more than once");
        dp->status = PM_ERR_GENERIC;
        return;
    }
    if ((d = daemon_of(pmda)) == NULL) {
        dp->status = -ENOMEM;
        return;
    }
    /* pmcd may close the connection while an answer is on its way: the
     * write then fails with EPIPE and pmdaMain ends normally, rather than
     * the signal killing the agent (Debian's agents ignore it too) */
    signal(SIGPIPE, SIG_IGN);
    switch (pmda->e_io) {
    case pmdaInet:
        fd = accept_inet(pmda, AF_INET);
        break;
    case pmdaIPv6:
        fd = accept_inet(pmda, AF_INET6);
        break;
    case pmdaUnix:
        fd = accept_unix(pmda);
        break;
    default: /* pipes: pmcd made our stdin and stdout */
        pmda->e_io = pmdaPipe;
        pmda->e_infd = 0;
        pmda->e_outfd = 1;
        break;
    }
    if (fd < 0) {
        pmNotifyErr(LOG_CRIT, "pmdaConnect: PMDA %s: cannot accept pmcd's connection: %s",
                    pmda->e_name, pmErrStr(fd));
        dp->status = fd;
        return;
    }
    if (pmda->e_io != pmdaPipe)
        pmda->e_infd = pmda->e_outfd = fd;
    if ((sts = exchange_creds(dp, d)) < 0) {
        pmNotifyErr(LOG_CRIT, "pmdaConnect: PMDA %s: version exchange with pmcd failed: %s",
                    pmda->e_name, pmErrStr(sts));
        if (pmda->e_io != pmdaPipe) { /* the connection accepted is of no use */
            close(fd);
            pmda->e_infd = pmda->e_outfd = -1;
        }
        dp->status = sts;
        return;
    }
    pmda->e_flags |= PMDA_EXT_CONNECTED;
}

/* ------------------------------------------------------------------ */
/* One request, one answer */

/* Send d->out; an answer that could not be built goes as ERROR(why). */
static int reply(pmdaExt *pmda, struct pmda_daemon *d)
{
    int sts;

    if (d->out.err != 0)
        pdu_enc_error(&d->out, d->out.err);
    if ((sts = pdu_write(pmda->e_outfd, &d->out)) < 0)
        pmNotifyErr(LOG_ERR, "PMDA %s: cannot send to pmcd: %s", pmda->e_name, pmErrStr(sts));
    return sts;
}

static int reply_error(pmdaExt *pmda, struct pmda_daemon *d, int code)
{
    pdu_enc_error(&d->out, code);
    return reply(pmda, d);
}

/* A request that does not decode gets an error rather than silence, so
 * that pmcd is not left waiting. */
static int bad_request(pmdaExt *pmda, struct pmda_daemon *d, int sts)
{
    pmNotifyErr(LOG_ERR, "PMDA %s: bad PDU of type 0x%x from pmcd: %s", pmda->e_name,
                (unsigned)pdu_type(d->in), pmErrStr(sts));
    return reply_error(pmda, d, sts);
}

typedef int (*pdu_handler)(pmdaInterface *dp, struct pmda_daemon *d, size_t len);

static int on_error(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    int code;

    if (pdu_dec_error(d->in, len, &code) < 0)
        return 0;
    if (code == PM_ERR_NOTCONN) { /* the client of e_context went away */
        if (dp->comm.pmda_interface >= PMDA_INTERFACE_5 && pmda->e_endCallBack != NULL)
            pmda->e_endCallBack(pmda->e_context);
    } else {
        pmNotifyErr(LOG_INFO, "PMDA %s: error PDU from pmcd: %s", pmda->e_name, pmErrStr(code));
    }
    return 0;
}

/* The profile stays ours until the next one: the agent may keep a pointer. */
static int on_profile(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    pmProfile *p;
    int ctx, sts = pdu_dec_profile(d->in, len, &ctx, &p);

    if (sts < 0) {
        pmNotifyErr(LOG_ERR, "PMDA %s: bad profile PDU: %s", pmda->e_name, pmErrStr(sts));
        return 0;
    }
    if (dp->version.any.profile(p, pmda) < 0) {
        if (pmda->e_prof == p) /* taken (pmdaProfile), then refused */
            pmda->e_prof = d->prof;
        free(p);
        return 0;
    }
    free(d->prof);
    d->prof = p;
    return 0;
}

static int on_fetch(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    pmResult *res = NULL;
    pmID *pmids;
    int ctx, n, sts = pdu_dec_fetch(d->in, len, &ctx, &n, &pmids);

    if (sts < 0) {
        free(pmids);
        return bad_request(pmda, d, sts);
    }
    sts = dp->version.any.fetch(n, pmids, &res, pmda);
    free(pmids);
    if (sts < 0 || res == NULL)
        return reply_error(pmda, d, sts < 0 ? sts : PM_ERR_GENERIC);
    pdu_enc_result(&d->out, res);
    sts = reply(pmda, d);
    if (pmda->e_resultCallBack != NULL)
        pmda->e_resultCallBack(res);
    return sts;
}

static int on_desc(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    pmDesc desc;
    pmID pmid;
    int sts = pdu_dec_desc_req(d->in, len, &pmid);

    if (sts < 0)
        return bad_request(pmda, d, sts);
    if ((sts = dp->version.any.desc(pmid, &desc, pmda)) < 0)
        return reply_error(pmda, d, sts);
    pdu_enc_desc(&d->out, &desc);
    return reply(pmda, d);
}

static int on_instance(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    pmInResult *res = NULL;
    pmInDom indom;
    char *name;
    int inst, sts = pdu_dec_instance_req(d->in, len, &indom, &inst, &name);

    if (sts < 0)
        return bad_request(pmda, d, sts);
    sts = dp->version.any.instance(indom, inst, name, &res, pmda);
    free(name);
    if (sts < 0 || res == NULL)
        return reply_error(pmda, d, sts < 0 ? sts : PM_ERR_INDOM);
    pdu_enc_instance(&d->out, res);
    __pmFreeInResult(res);
    return reply(pmda, d);
}

static int on_text(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    char *text = NULL;
    int ident, type, sts = pdu_dec_text_req(d->in, len, &ident, &type);

    if (sts < 0)
        return bad_request(pmda, d, sts);
    sts = dp->version.any.text(ident, type, &text, pmda);
    if (sts < 0 || text == NULL)
        return reply_error(pmda, d, sts < 0 ? sts : PM_ERR_TEXT);
    pdu_enc_text(&d->out, ident, text); /* the agent keeps the text */
    return reply(pmda, d);
}

static int on_store(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    pmResult *res;
    int sts = pdu_dec_result(d->in, len, &res);

    if (sts < 0)
        return bad_request(pmda, d, sts);
    sts = dp->version.any.store(res, pmda);
    pdu_free_result(res);
    return reply_error(pmda, d, sts < 0 ? sts : 0);
}

/* Name -> PMID.  pmcd asks for one name; for several, each gets an id
 * (PM_ID_NULL when unknown) and the status is the number found. */
static int on_pmns_names(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    char **names;
    int *statuses, n, found = 0, sts;
    pmID *ids;

    if (dp->comm.pmda_interface < PMDA_INTERFACE_4)
        return reply_error(pmda, d, PM_ERR_NAME);
    if ((sts = pdu_dec_pmns_names(d->in, len, &n, &names, &statuses)) < 0 || n < 1) {
        free(names);
        free(statuses);
        return bad_request(pmda, d, sts < 0 ? sts : PM_ERR_IPC);
    }
    free(statuses);
    if ((ids = malloc((size_t)n * sizeof(pmID))) == NULL) {
        free(names);
        return reply_error(pmda, d, -ENOMEM);
    }
    for (int i = 0; i < n; i++) {
        sts = dp->version.four.pmid(names[i], &ids[i], pmda);
        if (sts < 0)
            ids[i] = PM_ID_NULL;
        else
            found++;
    }
    free(names);
    if (n == 1 && sts < 0)
        sts = reply_error(pmda, d, sts);
    else {
        pdu_enc_pmns_ids(&d->out, n == 1 ? sts : found, n, ids);
        sts = reply(pmda, d);
    }
    free(ids);
    return sts;
}

/* Children (with their leaf/non-leaf status when asked) or, for
 * PMNS_TRAVERSE, every name below. */
static int on_children(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    int traverse = pdu_type(d->in) == PDU_PMNS_TRAVERSE;
    char *name, **kids = NULL;
    int subtype, *statuses = NULL, sts;

    if (dp->comm.pmda_interface < PMDA_INTERFACE_4)
        return reply_error(pmda, d, PM_ERR_NAME);
    if ((sts = pdu_dec_name_req(d->in, len, &subtype, &name)) < 0)
        return bad_request(pmda, d, sts);
    sts = dp->version.four.children(name, traverse, &kids, &statuses, pmda);
    free(name);
    if (sts < 0) {
        sts = reply_error(pmda, d, sts);
    } else {
        int with = !traverse && subtype == 1 && statuses != NULL;
        pdu_enc_pmns_names(&d->out, sts, kids, with ? statuses : NULL);
        sts = reply(pmda, d);
    }
    free(kids);
    free(statuses);
    return sts;
}

/* PMID -> its names. */
static int on_pmns_ids(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    char **names = NULL;
    pmID *ids;
    int dummy, n, sts;

    if (dp->comm.pmda_interface < PMDA_INTERFACE_4)
        return reply_error(pmda, d, PM_ERR_PMID);
    if ((sts = pdu_dec_pmns_ids(d->in, len, &dummy, &n, &ids)) < 0 || n < 1) {
        free(ids);
        return bad_request(pmda, d, sts < 0 ? sts : PM_ERR_IPC);
    }
    sts = dp->version.four.name(ids[0], &names, pmda);
    free(ids);
    if (sts < 0) {
        sts = reply_error(pmda, d, sts);
    } else {
        pdu_enc_pmns_names(&d->out, sts, names, NULL);
        sts = reply(pmda, d);
    }
    free(names);
    return sts;
}

static int on_label(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    pmLabelSet *sets = NULL;
    int ident, type, sts;

    if ((sts = pdu_dec_label_req(d->in, len, &ident, &type)) < 0)
        return bad_request(pmda, d, sts);
    /* agents older than labels have none: an empty answer, not an error */
    sts = dp->comm.pmda_interface >= PMDA_INTERFACE_7
              ? dp->version.seven.label(ident, type, &sets, pmda)
              : 0;
    if (sts < 0) {
        pmFreeLabelSets(sets, sets != NULL ? 1 : 0);
        return reply_error(pmda, d, sts);
    }
    /* a method's lone set may come with 0: it is one set all the same */
    pdu_enc_label(&d->out, ident, type, sets, sts);
    pmFreeLabelSets(sets, sts > 0 ? sts : sets != NULL ? 1 : 0);
    return reply(pmda, d);
}

static int on_attr(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    pmdaExt *pmda = dp->version.any.ext;
    char *value;
    int attr, vlen;

    if (pdu_dec_attr(d->in, len, &attr, &value, &vlen) < 0)
        return 0;
    if (dp->comm.pmda_interface >= PMDA_INTERFACE_6)
        dp->version.six.attribute(pmda->e_context, attr, value, vlen, pmda);
    free(value);
    return 0;
}

static int on_control(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    (void)dp;
    (void)d;
    (void)len;
    return 0;
}

static const struct {
    int type;
    pdu_handler fn;
} handlers[] = {
    {PDU_ERROR, on_error},
    {PDU_PROFILE, on_profile},
    {PDU_FETCH, on_fetch},
    {PDU_DESC_REQ, on_desc},
    {PDU_INSTANCE_REQ, on_instance},
    {PDU_TEXT_REQ, on_text},
    {PDU_RESULT, on_store},
    {PDU_PMNS_NAMES, on_pmns_names},
    {PDU_PMNS_CHILD, on_children},
    {PDU_PMNS_TRAVERSE, on_children},
    {PDU_PMNS_IDS, on_pmns_ids},
    {PDU_LABEL_REQ, on_label},
    {PDU_ATTR, on_attr},
    {PDU_CONTROL_REQ, on_control},
};

static int dispatch_pdu(pmdaInterface *dp, struct pmda_daemon *d, size_t len)
{
    int type = pdu_type(d->in);

    for (size_t i = 0; i < sizeof(handlers) / sizeof(handlers[0]); i++)
        if (handlers[i].type == type)
            return handlers[i].fn(dp, d, len);
    pmNotifyErr(LOG_ERR, "PMDA %s: Unrecognised pdu type: 0x%x", dp->version.any.ext->e_name,
                (unsigned)type);
    return 0;
}

int __pmdaMainPDU(pmdaInterface *dp)
{
    pmdaExt *pmda = dp->version.any.ext;
    struct pmda_daemon *d;
    int len, sts;

    if (dp->status != 0 || pmda == NULL) {
        pmNotifyErr(LOG_ERR, "PMDA Initialisation Failed");
        return -1;
    }
    if ((d = daemon_of(pmda)) == NULL)
        return -ENOMEM;
    if ((len = pdu_read(pmda->e_infd, &d->in, &d->incap)) < 0) {
        if (len != PM_ERR_EOF)
            pmNotifyErr(LOG_ERR, "PMDA %s: reading from pmcd: %s", pmda->e_name, pmErrStr(len));
        return len;
    }
    if (dp->comm.pmda_interface >= PMDA_INTERFACE_5)
        pmda->e_context = pdu_from(d->in);
    /* a refusing check callback answers for the agent, and the request
     * is not "done" (Debian's libpcp_pmda skips the done callback too) */
    if (pmda->e_checkCallBack != NULL && (sts = pmda->e_checkCallBack()) < 0) {
        int type = pdu_type(d->in);
        if (type == PDU_PROFILE || type == PDU_ATTR)
            return 0;
        return reply_error(pmda, d, sts) < 0 ? PM_ERR_IPC : 0;
    }
    sts = dispatch_pdu(dp, d, (size_t)len);
    if (pmda->e_doneCallBack != NULL)
        pmda->e_doneCallBack();
    return sts < 0 ? PM_ERR_IPC : 0;
}

/* For an agent's own loop: where pmcd's requests arrive (-1 before
 * pmdaConnect).  PCP's asks only that the interface version be one it
 * serves. */
int __pmdaInFd(pmdaInterface *dp)
{
    if (!pmda_version_ok(dp->comm.pmda_interface)) {
        pmNotifyErr(LOG_CRIT, "PMDA interface version %d not supported", dp->comm.pmda_interface);
        return -1;
    }
    return dp->version.any.ext->e_infd;
}

void pmdaMain(pmdaInterface *dp)
{
    while (__pmdaMainPDU(dp) >= 0)
        ;
    if (dp->version.any.ext != NULL)
        daemon_release(dp->version.any.ext);
}

void pmdaSendError(pmdaInterface *dp, int err)
{
    pmdaExt *pmda = dp->version.any.ext;
    pdu_buf b = {0};
    int sts;

    if (pmda == NULL)
        return;
    /* "not ready" lasts until the agent says it is ready again */
    if (err == PM_ERR_PMDANOTREADY)
        pmda->e_flags |= PMDA_EXT_NOTREADY;
    else if (err == PM_ERR_PMDAREADY)
        pmda->e_flags &= ~(unsigned)PMDA_EXT_NOTREADY;
    pdu_enc_error(&b, err);
    if ((sts = pdu_write(pmda->e_outfd, &b)) < 0)
        pmNotifyErr(LOG_ERR, "pmdaSendError: PMDA %s: %s", pmda->e_name, pmErrStr(sts));
    pdu_buf_free(&b);
}
