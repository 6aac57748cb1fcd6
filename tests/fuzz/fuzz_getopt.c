/*
 * fuzz_getopt.c - libFuzzer target for pmGetOptions (libpcp/cmdline/options.c)
 * over the scanner of getopt.c.
 *
 * Input: two bytes of pmOptions flags (the low 14 bits), one byte choosing
 * the short options (a full set, one without any ':', or empty), then the
 * arguments, separated by NUL bytes (at most 32).  The options that reach
 * outside the process (-n/-N load files, -H and --archive-folio open them,
 * -K loads libraries, -D sets debugging, --container and --derived) are
 * claimed by the override, so they come back to the caller untouched.
 * Checked after the run: -1 came back within as many calls as there are
 * argument bytes,
 * optind is within argv, the counts agree with the arrays, every host and
 * archive is a string, and DONE is set unless the caller set it first.
 * What the library allocated is freed here: the archives, and the hosts
 * that do not point into argv.
 */
#include <pcp/pmapi.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pcp_environ.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXARGS 32

static pmLongOptions longopts[] = {
    PMAPI_GENERAL_OPTIONS,
    PMOPT_HOSTSFILE,
    PMOPT_SPECLOCAL,
    PMOPT_LOCALPMDA,
    PMOPT_UNIQNAMES,
    PMOPT_ARCHIVE_LIST,
    PMOPT_ARCHIVE_FOLIO,
    PMOPT_HOST_LIST,
    PMOPT_CONTAINER,
    PMOPT_DERIVED,
    {"ex", 1, 'x', "ARG", "the tool's own"},
    {"why", 2, 'y', "ARG", "the tool's own, optional argument"},
    PMAPI_OPTIONS_END,
};

static const char *const shorts[] = {
    "A:a:D:gh:H:K:Ln:N:O:p:S:s:T:t:VZ:z?x:y::",
    "AaDghHKLnNOpSsTtVZz?xy", /* standard options without their arguments */
    "",
};

static int outside(int c, pmOptions *o)
{
    const char *name;

    if (c == 'n' || c == 'N' || c == 'H' || c == 'K' || c == 'D')
        return 1;
    if (c != 0 || o->index < 0)
        return 0;
    name = o->long_options[o->index].long_opt;
    return name != NULL &&
           (strcmp(name, PMLONGOPT_ARCHIVE_FOLIO) == 0 || strcmp(name, PMLONGOPT_CONTAINER) == 0 ||
            strcmp(name, PMLONGOPT_DERIVED) == 0);
}

/* No PCP_* variables (their options would point into environ, and this
 * harness frees what does not point into the arguments), and pmflush's
 * messages to /dev/null. */
static void clean_environment(void)
{
    static int done;

    if (done++)
        return;
    unset_pcp_environ();
    setenv("PCP_STDERR", "/dev/null", 1);
}

/* Is P inside the argument buffer? */
static int in_args(const char *buf, size_t len, const char *p)
{
    return p >= buf && p < buf + len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MAXARGS + 2], *buf;
    pmOptions o;
    size_t len;
    int argc = 0, c, calls = 0;

    if (size < 3)
        return 0;
    clean_environment();
    memset(&o, 0, sizeof(o));
    o.flags = (data[0] | data[1] << 8) & 0x3fff;
    o.short_options = shorts[data[2] % 3];
    o.long_options = longopts;
    o.override = outside;
    len = size - 3;
    if ((buf = malloc(len + 1)) == NULL)
        return 0;
    memcpy(buf, data + 3, len);
    buf[len] = '\0';
    argv[argc++] = "fuzz";
    for (char *p = buf; p < buf + len && argc <= MAXARGS; p += strlen(p) + 1)
        argv[argc++] = p;
    argv[argc] = NULL;

    while ((c = pmGetOptions(argc, argv, &o)) != -1) {
        if ((size_t)++calls > len + 1)
            abort(); /* each answer takes at least one byte of the arguments */
    }
    if (o.optind < 0 || o.optind > argc)
        abort();
    if (!(data[0] & PM_OPTFLAG_DONE) && !(o.flags & PM_OPTFLAG_DONE))
        abort();
    if (o.nhosts < 0 || o.narchives < 0 || (o.nhosts > 0) != (o.hosts != NULL) ||
        (o.narchives > 0) != (o.archives != NULL))
        abort();
    for (int i = 0; i < o.nhosts; i++) {
        if (o.hosts[i] == NULL)
            abort();
        (void)strlen(o.hosts[i]);
        if (!in_args(buf, len + 1, o.hosts[i]))
            free(o.hosts[i]);
    }
    for (int i = 0; i < o.narchives; i++) {
        if (o.archives[i] == NULL)
            abort();
        free(o.archives[i]);
    }
    pmFreeOptions(&o);
    pmflush();
    free(buf);
    return 0;
}
