/*
 * fuzz_pdu.c - libFuzzer target for the pmcd protocol's PDUs
 * (libpcp/wire/pdu.c: the agent's and the client's decoders) and the
 * agent's dispatch (libpcp/pmda/daemon.c): hostile bytes must be refused
 * or handled, never read outside the PDU or crash.
 *
 * Input: a PDU stream as pmcd would send it.  Each decoder is run on the
 * input taken as one PDU (its length field made true, so the decoders get
 * past the first check, and left as it came); then the whole input is
 * written into a pipe and read by __pmdaMainPDU, one PDU after another,
 * for an agent with metrics, an instance domain and the default methods,
 * whose answers go to /dev/null.
 */
#include "pdu.h"
#include "pmda_int.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static pmdaInstid insts[] = {{0, "zero"}, {1, "one two"}};
static pmdaIndom indoms[] = {{0, 2, insts}};
static pmdaMetric metrics[] = {
    {NULL,
     {PMDA_PMID(0, 0), PM_TYPE_U32, PM_INDOM_NULL, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL, {PMDA_PMID(0, 1), PM_TYPE_STRING, 0, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
    {NULL, {PMDA_PMID(0, 2), PM_TYPE_DOUBLE, 0, PM_SEM_INSTANT, PMDA_PMUNITS(0, 0, 0, 0, 0, 0)}},
};

static int fetch_cb(pmdaMetric *m, unsigned int inst, pmAtomValue *a)
{
    switch (pmID_item(m->m_desc.pmid)) {
    case 0:
        a->ul = inst;
        break;
    case 1:
        a->cp = "text";
        break;
    default:
        a->d = 0.5;
        break;
    }
    return PMDA_FETCH_STATIC;
}

static void decoders(const unsigned char *p, size_t n)
{
    int a, b, c;
    pmDesc d;
    pmID pmid, *ids = NULL;
    char *s = NULL, **names = NULL;
    int *st = NULL;
    pmInResult *ir = NULL;
    pmResult *r = NULL;
    pmLabelSet *ls = NULL;
    pmProfile *prof = NULL;
    pmInDom indom;
    pmHighResResult *hr;
    pmDesc descs[4];
    uint32_t greeting;

    pdu_dec_error(p, n, &a);
    pdu_dec_creds(p, n, &a, &b);
    pdu_dec_desc(p, n, &d);
    pdu_dec_desc_req(p, n, &pmid);
    pdu_dec_text_req(p, n, &a, &b);
    if (pdu_dec_text(p, n, &s) == 0)
        free(s);
    if (pdu_dec_attr(p, n, &a, &s, &b) == 0)
        free(s);
    if (pdu_dec_instance_req(p, n, &indom, &a, &s) == 0)
        free(s);
    if (pdu_dec_name_req(p, n, &a, &s) == 0)
        free(s);
    if (pdu_dec_instance(p, n, &ir) == 0)
        __pmFreeInResult(ir);
    if (pdu_dec_result(p, n, &r) == 0)
        pdu_free_result(r);
    pdu_dec_pmns_ids(p, n, &a, &b, &ids);
    free(ids);
    pdu_dec_fetch(p, n, &a, &b, &ids);
    free(ids);
    if (pdu_dec_pmns_names(p, n, &a, &names, &st) == 0) {
        free(names);
        free(st);
    }
    if (pdu_dec_label(p, n, &a, &b, &ls, &c) == 0)
        pmFreeLabelSets(ls, c);
    if (pdu_dec_profile(p, n, &a, &prof) == 0)
        free(prof);
    /* the client's side: pmcd's greeting and the answers only clients get */
    pdu_dec_greeting(p, n, &a, &greeting);
    if (pdu_dec_highres_result(p, n, &hr) == 0)
        pmFreeHighResResult(hr);
    for (int k = 0; k <= 4; k++)
        pdu_dec_descs(p, n, k, descs);
}

static void dispatch(const uint8_t *data, size_t size)
{
    static pmdaInterface dp;
    static int ready;
    int fd[2], out;

    if (!ready) {
        pmdaDaemon(&dp, PMDA_INTERFACE_7, "fuzz", 30, NULL, NULL);
        pmdaSetFetchCallBack(&dp, fetch_cb);
        pmdaInit(&dp, indoms, 1, metrics, 3);
        ready = 1;
    }
    /* one pipe's worth: the writer must not block */
    if (size > 60000 || pipe(fd) < 0)
        return;
    if ((out = open("/dev/null", O_WRONLY)) < 0) {
        close(fd[0]);
        close(fd[1]);
        return;
    }
    if (write(fd[1], data, size) != (ssize_t)size)
        abort();
    close(fd[1]);
    dp.version.any.ext->e_infd = fd[0];
    dp.version.any.ext->e_outfd = out;
    while (__pmdaMainPDU(&dp) >= 0)
        ;
    close(fd[0]);
    close(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *p = malloc(size > 0 ? size : 1);

    memcpy(p, data, size);
    decoders(p, size);
    if (size >= PDU_HDR_LEN) {
        p[0] = (unsigned char)(size >> 24);
        p[1] = (unsigned char)(size >> 16);
        p[2] = (unsigned char)(size >> 8);
        p[3] = (unsigned char)size;
        decoders(p, size);
    }
    free(p);
    dispatch(data, size);
    return 0;
}
