/*
 * desc.c - metadata from the agents of the current context: descriptors,
 * help text and instance domains.
 *
 * Each call finds the agent of the identifier's domain (PM_ERR_NOAGENT
 * when there is none, as in PCP's local contexts), calls its method with
 * the library lock held and copies the answer into memory the caller
 * owns with PCP's layouts: pmGetInDom's names are one block (pointers then
 * strings; pmdaInstance's answer already is, and is handed over as it is),
 * text is strdup'd.  The help -> one-line fallback and the
 * PM_TEXT_DIRECT rule are PCP's (tests/oracle/probe_local.c compares them).
 *
 * Derived metrics (libpcp/derived) answer for their own PMIDs: their
 * descriptors (binding them in the context at their first use, as PCP
 * does) and help; a PMID of domain 511 that is no derived metric goes on
 * to the source, which answers as PCP's does (PM_ERR_NOAGENT locally).
 *
 * In a host context pmcd answers instead of an agent (host_api.c); the
 * fallbacks above (derived metrics, help -> one-line) are the same.
 */
#include "derived.h"
#include "archive_ctx.h"
#include "host.h"
#include "names.h"
#include "values.h"

#include <stdlib.h>
#include <string.h>

/* Runs with the lock held: the agent for a domain in the current context. */
static int agent_of(unsigned int domain, __pmDSO **dso)
{
    pmkit_ctx *ctx = pmkit_ctx_current();

    if (ctx == NULL)
        return PM_ERR_NOCONTEXT;
    if ((*dso = pmkit_dso_for(domain, ctx)) == NULL)
        return PM_ERR_NOAGENT;
    return 0;
}

/* A derived metric's descriptor: 0, an error, or PM_ERR_PMID when pmid
 * is no derived metric (then the source answers). */
static int derived_desc(pmID pmid, pmDesc *desc)
{
    if (!pmkit_is_derived(pmid))
        return PM_ERR_PMID;
    if (pmkit_ctx_type_current() == PM_CONTEXT_UNDEF)
        return PM_ERR_NOCONTEXT;
    return pmkit_derived_desc(pmid, desc);
}

int pmLookupDesc(pmID pmid, pmDesc *desc)
{
    __pmDSO *dso;
    int sts;

    if ((sts = derived_desc(pmid, desc)) != PM_ERR_PMID)
        return sts;
    if (pmkit_ctx_type_current() == PM_CONTEXT_HOST) {
        sts = pmkit_host_desc(pmid, desc);
    } else if (pmkit_ctx_type_current() == PM_CONTEXT_ARCHIVE) {
        sts = pmkit_archive_desc(pmid, desc);
    } else {
        pmkit_lock();
        if ((sts = agent_of(pmID_domain(pmid), &dso)) == 0)
            sts = dso->dispatch.version.any.desc(pmid, desc, dso->dispatch.version.any.ext);
        pmkit_unlock();
    }
    return sts < 0 ? sts : 0;
}

/* pmcd's descriptors in one exchange, then the derived metrics' for the
 * PMIDs pmcd does not know (a single unknown PMID is pmcd's error). */
static int host_descs(int numpmid, pmID *pmidlist, pmDesc *desclist)
{
    int found = pmkit_host_descs(numpmid, pmidlist, desclist);

    if (found < 0)
        return numpmid == 1 && derived_desc(pmidlist[0], desclist) == 0 ? 1 : found;
    for (int i = 0; i < numpmid; i++) {
        if (desclist[i].pmid != PM_ID_NULL || !pmkit_is_derived(pmidlist[i]))
            continue;
        if (derived_desc(pmidlist[i], &desclist[i]) == 0)
            found++;
        else
            desclist[i].pmid = PM_ID_NULL;
    }
    return found;
}

int pmLookupDescs(int numpmid, pmID *pmidlist, pmDesc *desclist)
{
    int found = 0;

    if (numpmid < 1)
        return PM_ERR_TOOSMALL;
    if (pmkit_ctx_type_current() == PM_CONTEXT_HOST)
        return host_descs(numpmid, pmidlist, desclist);
    for (int i = 0; i < numpmid; i++) {
        int sts = pmLookupDesc(pmidlist[i], &desclist[i]);
        if (sts == PM_ERR_NOCONTEXT)
            return sts;
        if (sts < 0)
            desclist[i].pmid = PM_ID_NULL; /* PCP leaves the other fields alone */
        else
            found++;
    }
    return found;
}

static int text_once(unsigned int domain, int ident, int type, char **buffer)
{
    __pmDSO *dso;
    char *text = NULL;
    int sts;

    if (pmkit_ctx_type_current() == PM_CONTEXT_HOST) {
        sts = pmkit_host_text(ident, type, buffer);
        return sts < 0 ? sts : 0;
    }
    if (pmkit_ctx_type_current() == PM_CONTEXT_ARCHIVE)
        return pmkit_archive_text(ident, type, buffer);
    pmkit_lock();
    if ((sts = agent_of(domain, &dso)) == 0) {
        sts = dso->dispatch.version.any.text(ident, type, &text, dso->dispatch.version.any.ext);
        if (sts >= 0 && text == NULL)
            sts = PM_ERR_TEXT;
        if (sts >= 0 && (*buffer = strdup(text)) == NULL)
            sts = -ENOMEM;
    }
    pmkit_unlock();
    return sts < 0 ? sts : 0;
}

/* Ask for the text; help that is missing or empty falls back to one-line. */
static int text_lookup(unsigned int domain, int ident, int level, int kind, char **buffer)
{
    int type = (level & (PM_TEXT_ONELINE | PM_TEXT_HELP)) | kind;
    int sts = text_once(domain, ident, type, buffer);

    if ((level & PM_TEXT_DIRECT) || !(level & PM_TEXT_HELP))
        return sts;
    if (sts == 0 && (*buffer)[0] != '\0')
        return 0;
    if (sts == PM_ERR_NOAGENT || sts == PM_ERR_NOCONTEXT)
        return sts;
    if (sts == 0)
        free(*buffer);
    return text_once(domain, ident, PM_TEXT_ONELINE | kind, buffer);
}

int pmLookupText(pmID pmid, int level, char **buffer)
{
    if (pmkit_is_derived(pmid)) {
        int sts = pmkit_derived_text(pmid, level, buffer);
        if (sts != PM_ERR_PMID)
            return sts;
    }
    return text_lookup(pmID_domain(pmid), (int)pmid, level, PM_TEXT_PMID, buffer);
}

int pmLookupInDomText(pmInDom indom, int level, char **buffer)
{
    return text_lookup(pmInDom_domain(indom), (int)indom, level, PM_TEXT_INDOM, buffer);
}

/* Ask the agent of indom's domain about instances; *res is the agent's answer. */
static int instance_call(pmInDom indom, int inst, const char *name, pmInResult **res)
{
    __pmDSO *dso;
    int sts;

    *res = NULL;
    if (indom == PM_INDOM_NULL)
        return PM_ERR_INDOM;
    if (pmkit_ctx_type_current() == PM_CONTEXT_HOST) {
        sts = pmkit_host_instance(indom, inst, name, res);
    } else if (pmkit_ctx_type_current() == PM_CONTEXT_ARCHIVE) {
        sts = pmkit_archive_instance(indom, inst, name, res);
    } else {
        pmkit_lock();
        if ((sts = agent_of(pmInDom_domain(indom), &dso)) == 0)
            sts = dso->dispatch.version.any.instance(indom, inst, (char *)name, res,
                                                     dso->dispatch.version.any.ext);
        pmkit_unlock();
    }
    if (sts >= 0 && *res == NULL)
        sts = PM_ERR_INST;
    if (sts < 0) {
        __pmFreeInResult(*res);
        *res = NULL;
    }
    return sts < 0 ? sts : 0;
}

/* One malloc block: n pointers then the strings they point at. */
static char **pack_names(char *const *names, int n)
{
    size_t len = (size_t)n * sizeof(char *);
    char **block, *p;

    for (int i = 0; i < n; i++)
        len += strlen(names[i] != NULL ? names[i] : "") + 1;
    if ((block = malloc(len)) == NULL)
        return NULL;
    p = (char *)(block + n);
    for (int i = 0; i < n; i++) {
        size_t l = strlen(names[i] != NULL ? names[i] : "") + 1;
        memcpy(p, names[i] != NULL ? names[i] : "", l);
        block[i] = p;
        p += l;
    }
    return block;
}

/* Is every name inside the namelist block itself? */
static int names_packed(char *const *names, int n)
{
    size_t size = pmkit_block_size(names);

    for (int i = 0; i < n; i++)
        if (names[i] == NULL || !pmkit_in_block(names, size, names[i]))
            return 0;
    return 1;
}

int pmGetInDom(pmInDom indom, int **instlist, char ***namelist)
{
    pmInResult *res;
    int sts = instance_call(indom, PM_IN_NULL, NULL, &res);
    int n;

    *instlist = NULL;
    *namelist = NULL;
    if (sts < 0)
        return sts;
    if ((n = res->numinst) <= 0) {
        __pmFreeInResult(res);
        return n < 0 ? n : 0;
    }
    if (res->instlist == NULL || res->namelist == NULL) {
        __pmFreeInResult(res);
        return PM_ERR_INST;
    }
    if (names_packed(res->namelist, n)) {
        /* pmdaInstance's layout is already the caller's: hand both over */
        *instlist = res->instlist;
        *namelist = res->namelist;
        res->instlist = NULL;
        res->namelist = NULL;
        __pmFreeInResult(res);
        return n;
    }
    *instlist = malloc((size_t)n * sizeof(int));
    *namelist = pack_names(res->namelist, n);
    if (*instlist == NULL || *namelist == NULL) {
        free(*instlist);
        free(*namelist);
        *instlist = NULL;
        *namelist = NULL;
        n = -ENOMEM;
    } else {
        memcpy(*instlist, res->instlist, (size_t)n * sizeof(int));
    }
    __pmFreeInResult(res);
    return n;
}

int pmLookupInDom(pmInDom indom, const char *name)
{
    pmInResult *res;
    int sts;

    if (name == NULL || name[0] == '\0')
        return indom == PM_INDOM_NULL ? PM_ERR_INDOM : PM_ERR_INST;
    if ((sts = instance_call(indom, PM_IN_NULL, name, &res)) < 0)
        return sts;
    sts = res->numinst >= 1 && res->instlist != NULL ? res->instlist[0] : PM_ERR_INST;
    __pmFreeInResult(res);
    return sts;
}

int pmNameInDom(pmInDom indom, int inst, char **name)
{
    pmInResult *res;
    int sts;

    if ((sts = instance_call(indom, inst, NULL, &res)) < 0)
        return sts;
    if (res->numinst >= 1 && res->namelist != NULL && res->namelist[0] != NULL)
        sts = (*name = strdup(res->namelist[0])) != NULL ? 0 : -ENOMEM;
    else
        sts = PM_ERR_INST;
    __pmFreeInResult(res);
    return sts;
}
