/*
 * config.c - pmGetConfig / pmGetOptionalConfig: PCP's installation
 * settings (PCP_VAR_DIR, PCP_PMDAS_DIR, ...) from pcp.conf and the
 * environment.
 *
 * The first call reads $PCP_CONF, else $PCP_DIR/etc/pcp.conf, else the
 * built-in default path, once per process.  Every NAME=value line is
 * exported to the environment unless NAME is already set there (the
 * environment wins); quotes around a value are dropped; '#' lines and
 * blank lines are skipped.  Lookups then read the environment.
 *
 * __pmConfig walks the same file for PCP's pmconfig and its kind, and
 * __pmNativeConfig is the callback that exports a variable as PCP's does.
 *
 * Difference from PCP (docs/compat.md): when no file was named and the
 * default pcp.conf does not exist, pmkit uses built-in Debian-layout
 * defaults instead of exiting; a file that was named and cannot be read is
 * still fatal, with PCP's message.
 */
#include "support.h"

#include <pcp/libpcp.h>

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#ifndef PMKIT_PCP_CONF
#define PMKIT_PCP_CONF "/etc/pcp.conf"
#endif

/* Used only when no pcp.conf exists at all. */
static const char *const builtin[] = {
    "PCP_ETC_DIR=/etc",
    "PCP_SYSCONF_DIR=/etc/pcp",
    "PCP_BIN_DIR=/usr/bin",
    "PCP_BINADM_DIR=/usr/lib/pcp/bin",
    "PCP_LIB_DIR=/usr/lib",
    "PCP_SHARE_DIR=/usr/share/pcp",
    "PCP_INC_DIR=/usr/include/pcp",
    "PCP_MAN_DIR=/usr/share/man",
    "PCP_VAR_DIR=/var/lib/pcp",
    "PCP_PMCDCONF_PATH=/etc/pcp/pmcd/pmcd.conf",
    "PCP_PMDAS_DIR=/var/lib/pcp/pmdas",
    "PCP_PMDASADM_DIR=/usr/lib/pcp/pmdas",
    "PCP_RUN_DIR=/run/pcp",
    "PCP_LOG_DIR=/var/log/pcp",
    "PCP_ARCHIVE_DIR=/var/log/pcp/pmlogger",
    "PCP_TMP_DIR=/var/lib/pcp/tmp",
    "PCP_TMPFILE_DIR=/var/tmp",
    "PCP_PLATFORM=linux",
    "PCP_VERSION=6.0.3",
    "PCP_USER=pcp",
    "PCP_GROUP=pcp",
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool loaded; /* the first lookup has read (or failed to read) the file */

/* Export NAME=value from one line unless NAME is already in the environment. */
static void export_line(char *line)
{
    char *eq, *value, *end;

    line[strcspn(line, "\r\n")] = '\0';
    if (line[0] == '#' || (eq = strchr(line, '=')) == NULL || eq == line)
        return;
    *eq = '\0';
    value = eq + 1;
    end = value + strlen(value);
    if (end - value >= 2 && (*value == '"' || *value == '\'') && end[-1] == *value) {
        value++;
        end[-1] = '\0';
    }
    setenv(line, value, 0); /* the environment wins */
}

/* Read the configuration once.  Only the first lookup can fail, and only
 * pmGetConfig treats a missing named file as fatal (as PCP does). */
static void load_config(bool fatal)
{
    const char *conf = getenv("PCP_CONF");
    const char *dir = getenv("PCP_DIR");
    char path[MAXPATHLEN];
    int named = 1;
    FILE *fp;
    char *line = NULL;
    size_t cap = 0;

    if (conf == NULL && dir != NULL) {
        pmsprintf(path, sizeof(path), "%s/etc/pcp.conf", dir);
        conf = path;
    } else if (conf == NULL) {
        conf = PMKIT_PCP_CONF;
        named = 0;
    }
    if ((fp = fopen(conf, "r")) == NULL) {
        if (named && fatal) {
            fprintf(stderr,
                    "FATAL PCP ERROR: could not open config file \"%s\" : %s\n"
                    "You may need to set PCP_CONF or PCP_DIR in your environment.\n",
                    conf, strerror(errno));
            exit(1);
        }
        if (named)
            return;
        for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
            char buf[128];
            pmkit_copy(buf, (int)sizeof(buf), builtin[i]);
            export_line(buf);
        }
        return;
    }
    while (getline(&line, &cap, fp) != -1)
        export_line(line);
    free(line);
    fclose(fp);
}

static char *lookup(const char *name, bool fatal)
{
    pthread_mutex_lock(&lock);
    if (!loaded) {
        loaded = true;
        load_config(fatal);
    }
    pthread_mutex_unlock(&lock);
    return getenv(name);
}

char *pmGetOptionalConfig(const char *name)
{
    return lookup(name, false);
}

char *pmGetConfig(const char *name)
{
    char *value = lookup(name, true);

    return value != NULL ? value : (char *)"";
}

/* pcp.conf's lines as __pmConfig hands them on (PCP's rules, seen with
 * tests/oracle/probe_internal.c and Debian's pmconfig): only the newline
 * is cut (a CR stays), a line starting '#' or without '=' is skipped, the
 * name is everything before the first '=' (blanks included, or nothing),
 * and a name already in the environment is passed over. */
static void config_line(char *line, __pmConfigCallback formatter)
{
    char *eq;

    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '#' || (eq = strchr(line, '=')) == NULL)
        return;
    *eq = '\0';
    if (getenv(line) == NULL)
        formatter(line, NULL, eq + 1);
}

/* Every variable of pcp.conf (found as pmGetConfig finds it, fatal in the
 * same way when a named file cannot be read; pmkit's built-in defaults
 * when the default one does not exist) not already in the environment,
 * as formatter(name, NULL, raw value). */
void __pmConfig(__pmConfigCallback formatter)
{
    const char *conf = getenv("PCP_CONF"), *dir = getenv("PCP_DIR");
    char path[MAXPATHLEN], *line = NULL;
    size_t cap = 0;
    FILE *fp;

    if (conf == NULL && dir != NULL) {
        pmsprintf(path, sizeof(path), "%s/etc/pcp.conf", dir);
        conf = path;
    }
    if ((fp = fopen(conf != NULL ? conf : PMKIT_PCP_CONF, "r")) == NULL) {
        if (conf != NULL) {
            fprintf(stderr,
                    "FATAL PCP ERROR: could not open config file \"%s\" : %s\n"
                    "You may need to set PCP_CONF or PCP_DIR in your environment.\n",
                    conf, strerror(errno));
            exit(1);
        }
        for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
            char buf[128];
            pmkit_copy(buf, (int)sizeof(buf), builtin[i]);
            config_line(buf, formatter);
        }
        return;
    }
    while (getline(&line, &cap, fp) != -1)
        config_line(line, formatter);
    free(line);
    fclose(fp);
}

/* Export name=value, a value quoted at both ends with the same quote
 * losing its quotes (a lone quote becomes empty); the prefix is not used. */
static void native_config(char *var, char *prefix, char *val)
{
    size_t n = strlen(val);
    char *copy;

    (void)prefix;
    if (n > 0 && val[0] == val[n - 1] && (val[0] == '\'' || val[0] == '"')) {
        if ((copy = strdup(n > 1 ? val + 1 : "")) == NULL)
            return;
        if (n > 1)
            copy[n - 2] = '\0';
        setenv(var, copy, 1);
        free(copy);
        return;
    }
    setenv(var, val, 1);
}

const __pmConfigCallback __pmNativeConfig = native_config;
