/*
 * attr.c - connection attributes by name (<pcp/libpcp.h>'s __pmAttrKey):
 * the words a host specification's "?key=value" part and pmcd's
 * attribute PDUs use, and the text an attribute is written out as.
 *
 * As Debian's libpcp answers (tests/oracle/probe_pdu.c, oracle.pdu): a name is looked
 * up with its terminating NUL counted in its size, and only the names in
 * the table below match (no prefixes, no other case); keys that are flags
 * are written without a value, and PCP_ATTR_AUTHNAME, PCP_ATTR_NONE and
 * unknown keys are not written at all (0, the buffer untouched); values
 * are URL-encoded (tests/oracle/probe_hostattrs.c).
 */
#include "support.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pcp/libpcp.h>

/* Each key's name as written, and whether it carries a value. */
static const struct {
    const char *name;
    int valued;
} attr_names[] = {
    [PCP_ATTR_PROTOCOL] = {"protocol", 1},   [PCP_ATTR_SECURE] = {"secure", 1},
    [PCP_ATTR_COMPRESS] = {"compress", 0},   [PCP_ATTR_USERAUTH] = {"userauth", 0},
    [PCP_ATTR_USERNAME] = {"username", 1},   [PCP_ATTR_AUTHNAME] = {"authname", -1},
    [PCP_ATTR_PASSWORD] = {"password", 1},   [PCP_ATTR_METHOD] = {"method", 1},
    [PCP_ATTR_REALM] = {"realm", 1},         [PCP_ATTR_UNIXSOCK] = {"unixsock", 0},
    [PCP_ATTR_USERID] = {"userid", 1},       [PCP_ATTR_GROUPID] = {"groupid", 1},
    [PCP_ATTR_LOCAL] = {"local", 0},         [PCP_ATTR_PROCESSID] = {"processid", 1},
    [PCP_ATTR_CONTAINER] = {"container", 1}, [PCP_ATTR_EXCLUSIVE] = {"exclusive", 0},
};
#define NATTR ((int)(sizeof(attr_names) / sizeof(attr_names[0])))

/* The words a lookup knows: PCP's list, short forms included. */
static const struct {
    const char *word;
    __pmAttrKey key;
} attr_words[] = {
    {"compress", PCP_ATTR_COMPRESS}, {"exclusive", PCP_ATTR_EXCLUSIVE},
    {"userauth", PCP_ATTR_USERAUTH}, {"authorise", PCP_ATTR_USERAUTH},
    {"user", PCP_ATTR_USERNAME},     {"username", PCP_ATTR_USERNAME},
    {"realm", PCP_ATTR_REALM},       {"authmeth", PCP_ATTR_METHOD},
    {"method", PCP_ATTR_METHOD},     {"pass", PCP_ATTR_PASSWORD},
    {"password", PCP_ATTR_PASSWORD}, {"unix", PCP_ATTR_UNIXSOCK},
    {"unixsock", PCP_ATTR_UNIXSOCK}, {"local", PCP_ATTR_LOCAL},
    {"uid", PCP_ATTR_USERID},        {"userid", PCP_ATTR_USERID},
    {"gid", PCP_ATTR_GROUPID},       {"groupid", PCP_ATTR_GROUPID},
    {"pid", PCP_ATTR_PROCESSID},     {"processid", PCP_ATTR_PROCESSID},
    {"secure", PCP_ATTR_SECURE},     {"container", PCP_ATTR_CONTAINER},
};

/* The key named by the size bytes at attr (its NUL counted), or
 * PCP_ATTR_NONE. */
__pmAttrKey __pmLookupAttrKey(const char *attr, size_t size)
{
    size_t i;

    for (i = 0; i < sizeof(attr_words) / sizeof(attr_words[0]); i++) {
        if (size == strlen(attr_words[i].word) + 1 && strncmp(attr, attr_words[i].word, size) == 0)
            return attr_words[i].key;
    }
    return PCP_ATTR_NONE;
}

/* The key's name into string (size bytes): the length written, truncated
 * as pmsprintf truncates; 0 for no such key. */
int __pmAttrKeyStr_r(__pmAttrKey key, char *string, size_t size)
{
    if ((int)key <= PCP_ATTR_NONE || (int)key >= NATTR)
        return 0;
    return pmsprintf(string, size, "%s", attr_names[key].name);
}

/* "name=value" into string, the value URL-encoded as PCP's are (letters,
 * digits and "*-._" as they are, a blank as '+', any other byte as %XX):
 * the length written, truncated as pmsprintf truncates. */
static int encoded(const char *name, const char *value, char *string, size_t size)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t len = strlen(value);
    char *v = malloc(3 * len + 1), *p = v;
    int n;

    if (v == NULL)
        return -ENOMEM;
    for (const unsigned char *c = (const unsigned char *)value; *c != '\0'; c++) {
        if (isalnum(*c) || strchr("*-._", *c) != NULL) {
            *p++ = (char)*c;
        } else if (*c == ' ') {
            *p++ = '+';
        } else {
            *p++ = '%';
            *p++ = hex[*c >> 4];
            *p++ = hex[*c & 15];
        }
    }
    *p = '\0';
    n = pmsprintf(string, size, "%s=%s", name, v);
    free(v);
    return n;
}

/* The attribute as written in a specification: "name=value" (an empty
 * value for NULL), or the name alone for a flag; 0 for a key not
 * written. */
int __pmAttrStr_r(__pmAttrKey key, const char *data, char *string, size_t size)
{
    if ((int)key <= PCP_ATTR_NONE || (int)key >= NATTR || attr_names[key].valued < 0)
        return 0;
    if (!attr_names[key].valued)
        return pmsprintf(string, size, "%s", attr_names[key].name);
    return encoded(attr_names[key].name, data ? data : "", string, size);
}
