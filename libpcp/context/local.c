/*
 * local.c - the agents (DSO PMDAs) of local contexts.
 *
 * The table is built lazily from pmcd.conf ($PCP_PMCDCONF_PATH) the way
 * PCP builds it (tests/oracle/local_diff.sh): dso lines only, the pmcd line
 * skipped, a linux line always loaded as $PCP_PMDAS_DIR/linux/pmda_linux.so
 * with linux_init.  pmSpecLocalPMDA edits it with PCP's add/del/clear
 * specs and error strings.  Agents are loaded with dlopen(RTLD_NOW) at
 * each new local context, handed PCP's interface challenge, checked and
 * kept; a failure is a warning through pmprintf and the domain simply has
 * no agent.  Every function here runs with the library lock held.
 *
 * Each new local context (and copy of one) hands its credentials to the
 * agents that ask for them, as pmcd hands a client's to its agents.
 *
 * As in PCP, the end-of-context callbacks of interface 5+ agents run from
 * an atexit handler, but pmDestroyContext does not call them.
 */
#include "context.h"

#include <ctype.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    __pmDSO d;
    int disabled;      /* removed by a del spec or a failed load */
    unsigned prof_gen; /* generation of ctx_last_prof's profile it holds */
} agent;

static agent *agents;
static int nagents;
static int built;
static int atexit_done;

static void agent_unload(agent *a)
{
    if (a->d.handle != NULL)
        dlclose(a->d.handle);
    a->d.handle = NULL;
    a->d.ctx_last_prof = -1;
}

static int agent_add(int domain, const char *path, const char *init)
{
    agent *t = realloc(agents, (size_t)(nagents + 1) * sizeof(*t));

    if (t == NULL)
        return -ENOMEM;
    agents = t;
    t = &agents[nagents];
    memset(t, 0, sizeof(*t));
    t->d.domain = domain;
    t->d.ctx_last_prof = -1;
    t->d.name = strdup(path);
    t->d.init = strdup(init);
    if (t->d.name == NULL || t->d.init == NULL) {
        free(t->d.name);
        free(t->d.init);
        return -ENOMEM;
    }
    nagents++;
    return 0;
}

/* Next white-space separated field of a pmcd.conf line, or NULL. */
static char *field(char **p)
{
    char *s = *p, *start;

    while (*s != '\0' && isspace((unsigned char)*s))
        s++;
    if (*s == '\0')
        return NULL;
    start = s;
    while (*s != '\0' && !isspace((unsigned char)*s))
        s++;
    if (*s != '\0')
        *s++ = '\0';
    *p = s;
    return start;
}

static void conf_line(char *line)
{
    char *p = line, *name, *dom, *type, *init, *path, *end;
    long domain;

    if (line[0] == '#' || strncmp(line, "pmcd", 4) == 0)
        return;
    if (strncmp(line, "linux", 5) == 0) {
        char so[MAXPATHLEN];
        pmsprintf(so, sizeof(so), "%s/linux/pmda_linux.so", pmGetConfig("PCP_PMDAS_DIR"));
        agent_add(60, so, "linux_init");
        return;
    }
    if ((name = field(&p)) == NULL || (dom = field(&p)) == NULL || (type = field(&p)) == NULL ||
        strcmp(type, "dso") != 0 || (init = field(&p)) == NULL || (path = field(&p)) == NULL)
        return;
    domain = strtol(dom, &end, 10);
    if (*end != '\0' || domain < 0 || domain > 510)
        return;
    agent_add((int)domain, path, init);
}

/* Read pmcd.conf; -errno when it cannot be opened. */
static int build_table(void)
{
    const char *conf = pmGetOptionalConfig("PCP_PMCDCONF_PATH");
    char *line = NULL;
    size_t cap = 0;
    FILE *fp;

    if (conf == NULL)
        conf = "/etc/pcp/pmcd/pmcd.conf";
    if ((fp = fopen(conf, "r")) == NULL)
        return -errno;
    while (getline(&line, &cap, fp) != -1) {
        line[strcspn(line, "\n")] = '\0';
        if (line[0] == '[') /* the access control section ends the agents */
            break;
        conf_line(line);
    }
    free(line);
    fclose(fp);
    return 0;
}

static void call_end_context(void)
{
    int ctx = pmWhichContext();

    pmkit_lock();
    for (int i = 0; i < nagents; i++) {
        pmdaInterface *dp = &agents[i].d.dispatch;
        if (agents[i].d.handle == NULL || dp->comm.pmda_interface < PMDA_INTERFACE_5)
            continue;
        if (dp->version.four.ext != NULL && dp->version.four.ext->e_endCallBack != NULL)
            dp->version.four.ext->e_endCallBack(ctx);
    }
    pmkit_unlock();
}

/* PCP's search: NAME, then NAME.so, each as given and then under
 * $PCP_PMDAS_DIR when relative. */
static int find_file(const char *name, char *path, size_t len)
{
    struct stat st;
    const char *dir = pmGetConfig("PCP_PMDAS_DIR");

    for (int so = 0; so < 2; so++) {
        const char *ext = so ? ".so" : "";
        pmsprintf(path, len, "%s%s", name, ext);
        if (stat(path, &st) == 0)
            return 0;
        if (name[0] == '/')
            continue;
        pmsprintf(path, len, "%s/%s%s", dir, name, ext);
        if (stat(path, &st) == 0)
            return 0;
    }
    pmprintf("__pmConnectLocal: Warning: cannot find DSO at \"%s.so\" or \"%s\"\n", name, name);
    pmflush();
    return -1;
}

static void agent_load(agent *a)
{
    char path[MAXPATHLEN];
    void (*init)(pmdaInterface *);
    pmdaInterface *dp = &a->d.dispatch;

    if (find_file(a->d.name, path, sizeof(path)) < 0) {
        a->disabled = 1;
        return;
    }
    if ((a->d.handle = dlopen(path, RTLD_NOW)) == NULL) {
        pmprintf("__pmConnectLocal: Warning: error attaching DSO \"%s\"\n%s\n\n", path, dlerror());
        pmflush();
        a->disabled = 1;
        return;
    }
    *(void **)&init = dlsym(a->d.handle, a->d.init);
    if (init == NULL) {
        pmprintf("__pmConnectLocal: Warning: couldn't find init function \"%s\" in DSO \"%s\"\n",
                 a->d.init, path);
        goto fail;
    }
    memset(dp, 0, sizeof(*dp));
    dp->domain = a->d.domain;
    dp->comm.pmda_interface = 0xff; /* the challenge: the agent says what it speaks */
    dp->comm.pmapi_version = PMAPI_VERSION_2;
    init(dp);
    if (dp->status != 0) {
        pmprintf("__pmConnectLocal: Warning: initialization routine \"%s\" failed in DSO "
                 "\"%s\": %s\n",
                 a->d.init, path, pmErrStr(dp->status));
        goto fail;
    }
    if (dp->comm.pmda_interface < PMDA_INTERFACE_2 ||
        dp->comm.pmda_interface > PMDA_INTERFACE_LATEST) {
        pmprintf("__pmConnectLocal: Error: Unknown PMDA interface version %d in \"%s\" DSO\n",
                 dp->comm.pmda_interface, path);
        goto fail;
    }
    if (dp->comm.pmapi_version != PMAPI_VERSION_2 && dp->comm.pmapi_version != 3) {
        pmprintf("__pmConnectLocal: Error: Unknown PMAPI version %d in \"%s\" DSO\n",
                 dp->comm.pmapi_version, path);
        goto fail;
    }
    if (dp->comm.pmda_interface >= PMDA_INTERFACE_5 && !atexit_done) {
        atexit(call_end_context);
        atexit_done = 1;
    }
    return;
fail:
    pmflush();
    agent_unload(a);
    a->disabled = 1;
}

int pmkit_dso_load_all(void)
{
    int sts;

    PMKIT_CHECK(pmkit_lock_held());
    if (!built) {
        if ((sts = build_table()) < 0)
            return sts; /* PCP: no pmcd.conf and no -K spec, no local context */
        built = 1;
    }
    for (int i = 0; i < nagents; i++)
        if (!agents[i].disabled && agents[i].d.handle == NULL)
            agent_load(&agents[i]);
    return 0;
}

/* One attribute to an agent: value as a string, its NUL counted. */
static void agent_attribute(pmdaInterface *dp, int handle, int attr, const char *value)
{
    dp->version.six.attribute(handle, attr, value, (int)strlen(value) + 1, dp->version.six.ext);
}

/* What Debian's libpcp hands an agent of interface 6 or later that set
 * PMDA_FLAG_AUTHORIZE (the attribute callback's answers ignored): this
 * process's ID, group and user, and $PCP_CONTAINER when it is set (empty
 * or not), in that order; seen with tests/oracle/probe_system_creds.c. */
void pmkit_dso_credentials(int handle)
{
    const char *container = getenv("PCP_CONTAINER");
    char num[3][24];

    PMKIT_CHECK(pmkit_lock_held());
    pmsprintf(num[0], sizeof(num[0]), "%d", (int)getpid());
    pmsprintf(num[1], sizeof(num[1]), "%d", (int)getgid());
    pmsprintf(num[2], sizeof(num[2]), "%d", (int)getuid());
    for (int i = 0; i < nagents; i++) {
        pmdaInterface *dp = &agents[i].d.dispatch;
        if (agents[i].disabled || agents[i].d.handle == NULL ||
            dp->comm.pmda_interface < PMDA_INTERFACE_6 || !(dp->comm.flags & PMDA_FLAG_AUTHORIZE) ||
            dp->version.six.attribute == NULL)
            continue;
        agent_attribute(dp, handle, PMDA_ATTR_PROCESSID, num[0]);
        agent_attribute(dp, handle, PMDA_ATTR_GROUPID, num[1]);
        agent_attribute(dp, handle, PMDA_ATTR_USERID, num[2]);
        if (container != NULL)
            agent_attribute(dp, handle, PMDA_ATTR_CONTAINER, container);
    }
}

__pmDSO *pmkit_dso_for(unsigned int domain, const pmkit_ctx *ctx)
{
    PMKIT_CHECK(pmkit_lock_held());
    for (int i = 0; i < nagents; i++) {
        agent *a = &agents[i];
        if (a->disabled || a->d.handle == NULL || (unsigned)a->d.domain != domain)
            continue;
        if (a->d.dispatch.comm.pmda_interface >= PMDA_INTERFACE_5 && ctx != NULL &&
            a->d.dispatch.version.four.ext != NULL)
            a->d.dispatch.version.four.ext->e_context = ctx->handle;
        return &a->d;
    }
    return NULL;
}

int pmkit_dso_profile(__pmDSO *dso, pmkit_ctx *ctx)
{
    agent *a = (agent *)dso; /* d is the first member */
    pmProfile *prof = pmkit_ctx_profile(ctx, 1);
    int sts;

    PMKIT_CHECK(pmkit_lock_held());
    if (dso->ctx_last_prof == ctx->handle && a->prof_gen == ctx->prof_gen)
        return 0;
    if (prof == NULL)
        return -ENOMEM;
    sts = dso->dispatch.version.any.profile(prof, dso->dispatch.version.any.ext);
    if (sts >= 0) {
        dso->ctx_last_prof = ctx->handle;
        a->prof_gen = ctx->prof_gen;
    }
    return sts;
}

/* ---- pmSpecLocalPMDA ---- */

static char *spec_clear(const char *rest)
{
    if (*rest != '\0')
        return "unexpected text after clear op in spec";
    for (int i = 0; i < nagents; i++) {
        agent_unload(&agents[i]);
        free(agents[i].d.name);
        free(agents[i].d.init);
    }
    free(agents);
    agents = NULL;
    nagents = 0;
    return NULL;
}

/* DOMAIN, an empty field or a number 0..510; *dom -1 when empty. */
static char *spec_domain(const char **p, int *dom)
{
    const char *s = *p;
    long v = 0;

    *dom = -1;
    if (*s == ',' || *s == '\0')
        return NULL;
    if (!isdigit((unsigned char)*s))
        return "bad domain in spec";
    while (isdigit((unsigned char)*s)) {
        v = v * 10 + (*s++ - '0');
        if (v > 510)
            return "bad domain in spec";
    }
    if (*s != ',' && *s != '\0')
        return "bad domain in spec";
    *dom = (int)v;
    *p = s;
    return NULL;
}

static char *local_error(int sts)
{
    static _Thread_local char buf[PM_MAXERRMSGLEN + 32]; /* the caller's, as PCP's */
    char msg[PM_MAXERRMSGLEN];

    pmsprintf(buf, sizeof(buf), "__pmLocalPMDA: %s", pmErrStr_r(sts, msg, sizeof(msg)));
    return buf;
}

/* A spec that edits the table reads pmcd.conf first, once; PCP reports a
 * missing file then (and only then), and goes on with an empty table. */
static char *need_table(void)
{
    int sts;

    if (built)
        return NULL;
    built = 1;
    return (sts = build_table()) < 0 ? local_error(sts) : NULL;
}

static char *spec_add(const char *rest)
{
    const char *comma;
    char path[MAXPATHLEN];
    char *err;
    int dom, sts;

    if ((err = spec_domain(&rest, &dom)) != NULL)
        return err;
    if (dom < 0)
        return "missing domain in spec";
    if (*rest != ',' || rest[1] == '\0')
        return "missing dso-path in spec";
    rest++;
    if ((comma = strchr(rest, ',')) == NULL || comma[1] == '\0')
        return "missing init-routine in spec";
    if ((err = need_table()) != NULL)
        return err;
    pmsprintf(path, sizeof(path), "%.*s", (int)(comma - rest), rest);
    if ((sts = agent_add(dom, path, comma + 1)) < 0)
        return local_error(sts);
    return NULL;
}

/* del,DOMAIN or del,,PATH (or both): disable the matching entries. */
static char *spec_del(const char *rest)
{
    const char *path = NULL;
    char *err;
    int dom, found = 0;

    if (*rest == '\0')
        return "missing domain in spec";
    if ((err = spec_domain(&rest, &dom)) != NULL)
        return err;
    if (*rest == ',' && rest[1] != '\0')
        path = rest + 1;
    if (dom < 0 && path == NULL)
        return "missing domain and dso-path in spec";
    if ((err = need_table()) != NULL)
        return err;
    for (int i = 0; i < nagents; i++) {
        agent *a = &agents[i];
        if ((dom >= 0 && a->d.domain != dom) || (path != NULL && strcmp(a->d.name, path) != 0))
            continue;
        agent_unload(a);
        a->disabled = 1;
        a->d.domain = -1; /* PCP's mark: a path still finds it, a domain no more */
        found++;
    }
    if (found == 0)
        return local_error(PM_ERR_INDOM);
    return NULL;
}

char *pmSpecLocalPMDA(const char *spec)
{
    char *err;

    pmkit_lock();
    if (strncmp(spec, "clear", 5) == 0) {
        err = spec_clear(spec + 5);
        built = built || err == NULL; /* nothing left to read pmcd.conf for */
    } else if (strncmp(spec, "add", 3) == 0 || strncmp(spec, "del", 3) == 0)
        err = spec[3] != ','   ? "expected , after op in spec"
              : spec[0] == 'a' ? spec_add(spec + 4)
                               : spec_del(spec + 4);
    else
        err = "bad op in spec";
    pmkit_unlock();
    return err;
}

/* The name pmSpecLocalPMDA had before it became public. */
PMKIT_ALIAS(__pmSpecLocalPMDA, pmSpecLocalPMDA);
