/*
 * ABI tests for <pcp/libpcp.h>, <pcp/deprecated.h> and <pcp/pmdaroot.h>:
 * structure sizes and offsets, the words the bit-field types make, enum and
 * macro values.  Every expected number was printed by a probe compiled
 * against Debian's PCP 6.0.3 headers (PCP's libpcp.h as pcp-testsuite
 * ships it) on Linux x86-64; tests/oracle's oracle.header_values compares
 * every macro of those headers with Debian's where the oracle is present.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include <pcp/deprecated.h>
#include <pcp/libpcp.h>
#include <pcp/pmdaroot.h>

static void sizes(void **state)
{
    (void)state;
    assert_int_equal(sizeof(__pmTimestamp), 16);
    assert_int_equal(sizeof(__pmResult), 32);
    assert_int_equal(sizeof(__pmPDUHdr), 12);
    assert_int_equal(sizeof(__pmPDU), 4);
    assert_int_equal(sizeof(__pmPDUInfo), 4);
    assert_int_equal(sizeof(__pmCred), 4);
    assert_int_equal(sizeof(__pmVersionCred), 4);
    assert_int_equal(sizeof(__pmID_int), 4);
    assert_int_equal(sizeof(__pmInDom_int), 4);
    assert_int_equal(sizeof(__pmValue_PDU), 8);
    assert_int_equal(sizeof(__pmValueSet_PDU), 20);
    assert_int_equal(sizeof(__pmHashNode), 24);
    assert_int_equal(sizeof(__pmHashCtl), 32);
    assert_int_equal(sizeof(__pmHostSpec), 24);
    assert_int_equal(sizeof(__pmPMCDCtl), 40);
    assert_int_equal(sizeof(__pmContext), 168);
    assert_int_equal(sizeof(__pmLogCtl), 408);
    assert_int_equal(sizeof(__pmArchCtl), 136);
    assert_int_equal(sizeof(__pmLogInDom), 80);
    assert_int_equal(sizeof(__pmLogLabelSet), 48);
    assert_int_equal(sizeof(__pmLogLabel), 56);
    assert_int_equal(sizeof(__pmLogTI), 40);
    assert_int_equal(sizeof(__pmMultiLogCtl), 48);
    assert_int_equal(sizeof(__pmLoggerStatus), 112);
    assert_int_equal(sizeof(__pmLogPort), 32);
    assert_int_equal(sizeof(optreq_t), 48);
    assert_int_equal(sizeof(pmidctl_t), 40);
    assert_int_equal(sizeof(indomctl_t), 40);
    assert_int_equal(sizeof(fetchctl_t), 48);
    assert_int_equal(sizeof(optcost_t), 24);
    assert_int_equal(sizeof(__pmSecureConfig), 72);
    assert_int_equal(sizeof(__pmnsNode), 48);
    assert_int_equal(sizeof(__pmnsTree), 24);
    assert_int_equal(sizeof(__pmMutex), 40);
    assert_int_equal(sizeof(__pmServerFeature), 4);
    assert_int_equal(sizeof(__pmAttrKey), 4);
    assert_int_equal(sizeof(__pmHashWalkState), 4);
    assert_int_equal(sizeof(__pmFdSet), 128);
    assert_int_equal(sizeof(__pmSockLen), 4);
    assert_int_equal(sizeof(__psint_t), 8);
    assert_int_equal(sizeof(__pmdaRootPDUHdr), 16);
    assert_int_equal(sizeof(__pmdaRootPDUInfo), 24);
    assert_int_equal(sizeof(__pmdaRootPDUContainer), 4120);
    assert_int_equal(sizeof(__pmdaRootPDUStart), 4200);
    assert_int_equal(sizeof(__pmdaRootPDUStop), 32);
}

static void offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(__pmTimestamp, sec), 0);
    assert_int_equal(offsetof(__pmTimestamp, nsec), 8);
    assert_int_equal(offsetof(__pmResult, timestamp), 0);
    assert_int_equal(offsetof(__pmResult, numpmid), 16);
    assert_int_equal(offsetof(__pmResult, vset), 24);
    assert_int_equal(offsetof(__pmValueSet_PDU, vlist), 12);
    assert_int_equal(offsetof(__pmHashNode, key), 8);
    assert_int_equal(offsetof(__pmHashNode, data), 16);
    assert_int_equal(offsetof(__pmHashCtl, hsize), 4);
    assert_int_equal(offsetof(__pmHashCtl, hash), 8);
    assert_int_equal(offsetof(__pmHashCtl, next), 16);
    assert_int_equal(offsetof(__pmHashCtl, index), 24);
    assert_int_equal(offsetof(__pmHostSpec, ports), 8);
    assert_int_equal(offsetof(__pmHostSpec, nports), 16);
    assert_int_equal(offsetof(__pmPMCDCtl, pc_hosts), 8);
    assert_int_equal(offsetof(__pmPMCDCtl, pc_nhosts), 16);
    assert_int_equal(offsetof(__pmPMCDCtl, pc_timeout), 20);
    assert_int_equal(offsetof(__pmPMCDCtl, pc_tout_sec), 24);
    assert_int_equal(offsetof(__pmPMCDCtl, pc_again), 32);
    assert_int_equal(offsetof(__pmContext, c_type), 40);
    assert_int_equal(offsetof(__pmContext, c_mode), 44);
    assert_int_equal(offsetof(__pmContext, c_pmcd), 48);
    assert_int_equal(offsetof(__pmContext, c_archctl), 56);
    assert_int_equal(offsetof(__pmContext, c_origin), 64);
    assert_int_equal(offsetof(__pmContext, c_delta), 80);
    assert_int_equal(offsetof(__pmContext, c_direction), 96);
    assert_int_equal(offsetof(__pmContext, c_sent), 100);
    assert_int_equal(offsetof(__pmContext, c_instprof), 104);
    assert_int_equal(offsetof(__pmContext, c_dm), 112);
    assert_int_equal(offsetof(__pmContext, c_flags), 120);
    assert_int_equal(offsetof(__pmContext, c_attrs), 128);
    assert_int_equal(offsetof(__pmContext, c_handle), 160);
    assert_int_equal(offsetof(__pmContext, c_slot), 164);
    assert_int_equal(offsetof(__pmLoggerStatus, last), 16);
    assert_int_equal(offsetof(__pmLoggerStatus, now), 32);
    assert_int_equal(offsetof(__pmLoggerStatus, state), 48);
    assert_int_equal(offsetof(__pmLoggerStatus, vol), 52);
    assert_int_equal(offsetof(__pmLoggerStatus, size), 56);
    assert_int_equal(offsetof(__pmLoggerStatus, pmcd), 64);
    assert_int_equal(offsetof(__pmLoggerStatus, pmcd.fqdn), 72);
    assert_int_equal(offsetof(__pmLoggerStatus, pmcd.zoneinfo), 88);
    assert_int_equal(offsetof(__pmLoggerStatus, pmlogger), 96);
    assert_int_equal(offsetof(__pmLoggerStatus, pmlogger.zoneinfo), 104);
    assert_int_equal(offsetof(__pmLogPort, port), 4);
    assert_int_equal(offsetof(__pmLogPort, pmcd_host), 8);
    assert_int_equal(offsetof(__pmLogPort, archive), 16);
    assert_int_equal(offsetof(__pmLogPort, name), 24);
    assert_int_equal(offsetof(optreq_t, r_fetch), 8);
    assert_int_equal(offsetof(optreq_t, r_desc), 16);
    assert_int_equal(offsetof(optreq_t, r_numinst), 24);
    assert_int_equal(offsetof(optreq_t, r_instlist), 32);
    assert_int_equal(offsetof(optreq_t, r_aux), 40);
    assert_int_equal(offsetof(pmidctl_t, p_rqp), 8);
    assert_int_equal(offsetof(pmidctl_t, p_pmid), 16);
    assert_int_equal(offsetof(pmidctl_t, p_numinst), 20);
    assert_int_equal(offsetof(pmidctl_t, p_instlist), 24);
    assert_int_equal(offsetof(pmidctl_t, p_aux), 32);
    assert_int_equal(offsetof(indomctl_t, i_pmp), 8);
    assert_int_equal(offsetof(indomctl_t, i_indom), 16);
    /* an archive context's controls, as Debian's pmdumplog reads them */
    assert_int_equal(offsetof(__pmLogCtl, name), 48);
    assert_int_equal(offsetof(__pmLogCtl, mdfp), 64);
    assert_int_equal(offsetof(__pmLogCtl, hashpmid), 80);
    assert_int_equal(offsetof(__pmLogCtl, hashindom), 144);
    assert_int_equal(offsetof(__pmLogCtl, hashlabels), 208);
    assert_int_equal(offsetof(__pmLogCtl, hashtext), 240);
    assert_int_equal(offsetof(__pmLogCtl, minvol), 272);
    assert_int_equal(offsetof(__pmLogCtl, seen), 288);
    assert_int_equal(offsetof(__pmLogCtl, label), 296);
    assert_int_equal(offsetof(__pmLogCtl, physend), 352);
    assert_int_equal(offsetof(__pmLogCtl, endtime), 360);
    assert_int_equal(offsetof(__pmLogCtl, numti), 376);
    assert_int_equal(offsetof(__pmLogCtl, ti), 384);
    assert_int_equal(offsetof(__pmLogCtl, multi), 400);
    assert_int_equal(offsetof(__pmArchCtl, ac_mfp), 8);
    assert_int_equal(offsetof(__pmArchCtl, ac_offset), 24);
    assert_int_equal(offsetof(__pmArchCtl, ac_pmid_hc), 48);
    assert_int_equal(offsetof(__pmArchCtl, ac_end), 80);
    assert_int_equal(offsetof(__pmArchCtl, ac_log_list), 128);
    assert_int_equal(offsetof(__pmLogInDom, prior), 8);
    assert_int_equal(offsetof(__pmLogLabelSet, stamp), 8);
    assert_int_equal(offsetof(__pmLogLabelSet, type), 24);
    assert_int_equal(offsetof(__pmLogLabelSet, ident), 28);
    assert_int_equal(offsetof(__pmLogLabelSet, nsets), 32);
    assert_int_equal(offsetof(__pmLogLabelSet, labelsets), 40);
    assert_int_equal(offsetof(__pmLogInDom, indom), 16);
    assert_int_equal(offsetof(__pmLogInDom, stamp), 24);
    assert_int_equal(offsetof(__pmLogInDom, isdelta), 40);
    assert_int_equal(offsetof(__pmLogInDom, numinst), 44);
    assert_int_equal(offsetof(__pmLogInDom, alloc), 48);
    assert_int_equal(offsetof(__pmLogInDom, instlist), 56);
    assert_int_equal(offsetof(__pmLogInDom, namelist), 64);
    assert_int_equal(offsetof(__pmLogInDom, buf), 72);
    assert_int_equal(offsetof(__pmLogLabel, start), 8);
    assert_int_equal(offsetof(__pmLogLabel, features), 28);
    assert_int_equal(offsetof(__pmLogLabel, zoneinfo), 48);
    assert_int_equal(offsetof(__pmLogTI, off_meta), 24);
    assert_int_equal(offsetof(indomctl_t, i_numinst), 20);
    assert_int_equal(offsetof(indomctl_t, i_instlist), 24);
    assert_int_equal(offsetof(indomctl_t, i_aux), 32);
    assert_int_equal(offsetof(fetchctl_t, f_idp), 8);
    assert_int_equal(offsetof(fetchctl_t, f_state), 16);
    assert_int_equal(offsetof(fetchctl_t, f_cost), 20);
    assert_int_equal(offsetof(fetchctl_t, f_newcost), 24);
    assert_int_equal(offsetof(fetchctl_t, f_numpmid), 28);
    assert_int_equal(offsetof(fetchctl_t, f_pmidlist), 32);
    assert_int_equal(offsetof(fetchctl_t, f_aux), 40);
    assert_int_equal(offsetof(optcost_t, c_indom), 4);
    assert_int_equal(offsetof(optcost_t, c_fetch), 8);
    assert_int_equal(offsetof(optcost_t, c_indomsize), 12);
    assert_int_equal(offsetof(optcost_t, c_xtrainst), 16);
    assert_int_equal(offsetof(optcost_t, c_scope), 20);
    assert_int_equal(offsetof(__pmSecureConfig, clientverify), 64);
    assert_int_equal(offsetof(__pmnsNode, next), 8);
    assert_int_equal(offsetof(__pmnsNode, first), 16);
    assert_int_equal(offsetof(__pmnsNode, hash), 24);
    assert_int_equal(offsetof(__pmnsNode, name), 32);
    assert_int_equal(offsetof(__pmnsNode, pmid), 40);
    assert_int_equal(offsetof(__pmnsTree, htab), 8);
    assert_int_equal(offsetof(__pmnsTree, htabsize), 16);
    assert_int_equal(offsetof(__pmnsTree, mark_state), 20);
    assert_int_equal(offsetof(__pmdaRootPDUHdr, length), 4);
    assert_int_equal(offsetof(__pmdaRootPDUHdr, status), 8);
    assert_int_equal(offsetof(__pmdaRootPDUHdr, version), 12);
    assert_int_equal(offsetof(__pmdaRootPDUInfo, features), 16);
    assert_int_equal(offsetof(__pmdaRootPDUInfo, zeroed), 20);
    assert_int_equal(offsetof(__pmdaRootPDUContainer, pid), 16);
    assert_int_equal(offsetof(__pmdaRootPDUContainer, namelen), 20);
    assert_int_equal(offsetof(__pmdaRootPDUContainer, name), 24);
    assert_int_equal(offsetof(__pmdaRootPDUStart, pid), 16);
    assert_int_equal(offsetof(__pmdaRootPDUStart, infd), 20);
    assert_int_equal(offsetof(__pmdaRootPDUStart, outfd), 24);
    assert_int_equal(offsetof(__pmdaRootPDUStart, ipctype), 28);
    assert_int_equal(offsetof(__pmdaRootPDUStart, namelen), 32);
    assert_int_equal(offsetof(__pmdaRootPDUStart, argslen), 36);
    assert_int_equal(offsetof(__pmdaRootPDUStart, name), 40);
    assert_int_equal(offsetof(__pmdaRootPDUStart, args), 104);
    assert_int_equal(offsetof(__pmdaRootPDUStop, pid), 16);
    assert_int_equal(offsetof(__pmdaRootPDUStop, code), 20);
    assert_int_equal(offsetof(__pmdaRootPDUStop, force), 24);
    assert_int_equal(offsetof(__pmdaRootPDUStop, zeroed), 28);
}

static void enums(void **state)
{
    (void)state;
    assert_int_equal(PM_HASH_WALK_START, 0);
    assert_int_equal(PM_HASH_WALK_NEXT, 1);
    assert_int_equal(PM_HASH_WALK_STOP, 2);
    assert_int_equal(PM_HASH_WALK_DELETE_NEXT, 3);
    assert_int_equal(PM_HASH_WALK_DELETE_STOP, 4);
    assert_int_equal(PM_SERVER_FEATURE_SECURE, 0);
    assert_int_equal(PM_SERVER_FEATURE_CERT_REQD, 9);
    assert_int_equal(PM_SERVER_FEATURES, 10);
    assert_int_equal(PCP_ATTR_EXCLUSIVE, 16);
    assert_int_equal(PCP_ATTR_USERID, 11);
    assert_int_equal(PCP_ATTR_CONTAINER, 15);
    assert_int_equal(PDUROOT_FLAG_HOSTNAME, 1);
    assert_int_equal(PDUROOT_FLAG_PROCESSID, 2);
    assert_int_equal(PDUROOT_FLAG_CGROUPNAME, 4);
}

/* The 32-bit word a field fills when set to all ones. */
#define BITS(type, field, ones, expect)                                                            \
    do {                                                                                           \
        type v_;                                                                                   \
        uint32_t w_;                                                                               \
        memset(&v_, 0, sizeof(v_));                                                                \
        v_.field = ones;                                                                           \
        memcpy(&w_, &v_, sizeof(w_));                                                              \
        assert_int_equal(w_, expect);                                                              \
    } while (0)

static void bitfields(void **state)
{
    (void)state;
    BITS(__pmID_int, flag, 1, 0x80000000u);
    BITS(__pmID_int, domain, 511, 0x7fc00000u);
    BITS(__pmID_int, cluster, 4095, 0x3ffc00u);
    BITS(__pmID_int, item, 1023, 0x3ffu);
    BITS(__pmInDom_int, flag, 1, 0x80000000u);
    BITS(__pmInDom_int, domain, 511, 0x7fc00000u);
    BITS(__pmInDom_int, serial, 0x3fffff, 0x3fffffu);
    BITS(__pmCred, c_type, 0xff, 0xff000000u);
    BITS(__pmCred, c_vala, 0xff, 0xff0000u);
    BITS(__pmCred, c_valb, 0xff, 0xff00u);
    BITS(__pmCred, c_valc, 0xff, 0xffu);
    BITS(__pmVersionCred, c_type, 0xff, 0xff000000u);
    BITS(__pmVersionCred, c_version, 0xff, 0xff0000u);
    BITS(__pmVersionCred, c_flags, 0xffff, 0xffffu);
    BITS(__pmPDUInfo, zero, 1, 0x80000000u);
    BITS(__pmPDUInfo, version, 0x7f, 0x7f000000u);
    BITS(__pmPDUInfo, licensed, 0xff, 0xff0000u);
    BITS(__pmPDUInfo, features, 0xffff, 0xffffu);
}

static void result_views(void **state)
{
    __pmResult r;

    (void)state;
    memset(&r, 0, sizeof(r));
    r.numpmid = 7;
    assert_int_equal(__pmOffsetResult(&r)->numpmid, 7);
    assert_int_equal(__pmOffsetHighResResult(&r)->numpmid, 7);
    assert_ptr_equal(__pmOffsetResult(&r)->vset, r.vset);
    assert_ptr_equal(__pmOffsetHighResResult(&r)->vset, r.vset);
}

static void macros(void **state)
{
    (void)state;
    assert_true(ANY_SIZE == 0LL);
    assert_true(CVERSION == 1LL);
    assert_true(DBG_TRACE_AF == 1024LL);
    assert_true(DBG_TRACE_APPL0 == 2048LL);
    assert_true(DBG_TRACE_APPL1 == 4096LL);
    assert_true(DBG_TRACE_APPL2 == 8192LL);
    assert_true(DBG_TRACE_ATTR == 67108864LL);
    assert_true(DBG_TRACE_AUTH == 16777216LL);
    assert_true(DBG_TRACE_CONFIG == 2097152LL);
    assert_true(DBG_TRACE_CONTEXT == 16LL);
    assert_true(DBG_TRACE_DERIVE == 262144LL);
    assert_true(DBG_TRACE_DESPERATE == 1073741824LL);
    assert_true(DBG_TRACE_DISCOVERY == 33554432LL);
    assert_true(DBG_TRACE_FAULT == 8388608LL);
    assert_true(DBG_TRACE_FETCH == 2LL);
    assert_true(DBG_TRACE_HTTP == 134217728LL);
    assert_true(DBG_TRACE_INDOM == 32LL);
    assert_true(DBG_TRACE_INTERP == 1048576LL);
    assert_true(DBG_TRACE_LIBPMDA == 32768LL);
    assert_true(DBG_TRACE_LOCK == 524288LL);
    assert_true(DBG_TRACE_LOG == 128LL);
    assert_true(DBG_TRACE_LOGMETA == 256LL);
    assert_true(DBG_TRACE_OPTFETCH == 512LL);
    assert_true(DBG_TRACE_PDU == 1LL);
    assert_true(DBG_TRACE_PDUBUF == 64LL);
    assert_true(DBG_TRACE_PMAPI == 4194304LL);
    assert_true(DBG_TRACE_PMC == 131072LL);
    assert_true(DBG_TRACE_PMNS == 16384LL);
    assert_true(DBG_TRACE_PROFILE == 4LL);
    assert_true(DBG_TRACE_TIMECONTROL == 65536LL);
    assert_true(DBG_TRACE_VALUE == 8LL);
    assert_true(FROM_ANON == 0LL);
    assert_true(LIMIT_SIZE == 2LL);
    assert_true(LOG_PDU_VERSION == 3LL);
    assert_true(LOG_PDU_VERSION2 == 2LL);
    assert_true(LOG_PDU_VERSION3 == 3LL);
    assert_true(LOG_REQUEST_NEWVOLUME == 1LL);
    assert_true(LOG_REQUEST_STATUS == 2LL);
    assert_true(LOG_REQUEST_SYNC == 3LL);
    assert_true(MAXPMDALEN == 64LL);
    assert_true(OPT_COST_INFINITY == 2147483647LL);
    assert_true(OPT_STATE_NEW == 1LL);
    assert_true(OPT_STATE_PMID == 2LL);
    assert_true(OPT_STATE_PROFILE == 4LL);
    assert_true(OPT_STATE_UMASK == 7LL);
    assert_true(OPT_STATE_XFETCH == 64LL);
    assert_true(OPT_STATE_XINDOM == 32LL);
    assert_true(OPT_STATE_XPMID == 16LL);
    assert_true(OPT_STATE_XPROFILE == 128LL);
    assert_true(OPT_STATE_XREQ == 8LL);
    assert_true(PDUROOT_CGROUPNAME == 36870LL);
    assert_true(PDUROOT_CGROUPNAME_REQ == 36869LL);
    assert_true(PDUROOT_HOSTNAME == 36866LL);
    assert_true(PDUROOT_HOSTNAME_REQ == 36865LL);
    assert_true(PDUROOT_INFO == 36864LL);
    assert_true(PDUROOT_PROCESSID == 36868LL);
    assert_true(PDUROOT_PROCESSID_REQ == 36867LL);
    assert_true(PDUROOT_STARTPMDA == 36872LL);
    assert_true(PDUROOT_STARTPMDA_REQ == 36871LL);
    assert_true(PDUROOT_STOPPMDA == 36874LL);
    assert_true(PDUROOT_STOPPMDA_REQ == 36873LL);
    assert_true(PDU_ATTR == 28689LL);
    assert_true(PDU_AUTH == 28689LL);
    assert_true(PDU_CHUNK == 1024LL);
    assert_true(PDU_CONTROL_REQ == 28682LL);
    assert_true(PDU_CREDS == 28684LL);
    assert_true(PDU_DESC == 28677LL);
    assert_true(PDU_DESCS == 28695LL);
    assert_true(PDU_DESC_IDS == 28694LL);
    assert_true(PDU_DESC_REQ == 28676LL);
    assert_true(PDU_ERROR == 28672LL);
    assert_true(PDU_FETCH == 28675LL);
    assert_true(PDU_FINISH == 28695LL);
    assert_true(PDU_FLAG_AUTH == 4LL);
    assert_true(PDU_FLAG_BAD_LABEL == 256LL);
    assert_true(PDU_FLAG_CERT_REQD == 128LL);
    assert_true(PDU_FLAG_COMPRESS == 2LL);
    assert_true(PDU_FLAG_CONTAINER == 64LL);
    assert_true(PDU_FLAG_CREDS_REQD == 8LL);
    assert_true(PDU_FLAG_DESCS == 2048LL);
    assert_true(PDU_FLAG_HIGHRES == 1024LL);
    assert_true(PDU_FLAG_LABELS == 512LL);
    assert_true(PDU_FLAG_NO_NSS_INIT == 32LL);
    assert_true(PDU_FLAG_SECURE == 1LL);
    assert_true(PDU_FLAG_SECURE_ACK == 16LL);
    assert_true(PDU_HIGHRES_FETCH == 28692LL);
    assert_true(PDU_HIGHRES_RESULT == 28693LL);
    assert_true(PDU_INSTANCE == 28679LL);
    assert_true(PDU_INSTANCE_REQ == 28678LL);
    assert_true(PDU_LABEL == 28691LL);
    assert_true(PDU_LABEL_REQ == 28690LL);
    assert_true(PDU_LOG_CONTROL == 32768LL);
    assert_true(PDU_LOG_REQUEST == 32770LL);
    assert_true(PDU_LOG_STATUS == 32771LL);
    assert_true(PDU_LOG_STATUS_V2 == 32769LL);
    assert_true(PDU_MAX == 23LL);
    assert_true(PDU_OVERRIDE2 == -1002LL);
    assert_true(PDU_PMNS_CHILD == 28687LL);
    assert_true(PDU_PMNS_IDS == 28685LL);
    assert_true(PDU_PMNS_NAMES == 28686LL);
    assert_true(PDU_PMNS_TRAVERSE == 28688LL);
    assert_true(PDU_PROFILE == 28674LL);
    assert_true(PDU_RESULT == 28673LL);
    assert_true(PDU_START == 28672LL);
    assert_true(PDU_TEXT == 28681LL);
    assert_true(PDU_TEXT_REQ == 28680LL);
    assert_true(PDU_VERSION == 2LL);
    assert_true(PDU_VERSION2 == 2LL);
    assert_true(PMLC_MAX_DELTA == 268435455LL);
    assert_true(PM_CONTEXT_INIT == -2LL);
    assert_true(PM_EXEC_NOWAIT == 0LL);
    assert_true(PM_EXEC_TOSS_ALL == 7LL);
    assert_true(PM_EXEC_TOSS_NONE == 0LL);
    assert_true(PM_EXEC_TOSS_STDERR == 4LL);
    assert_true(PM_EXEC_TOSS_STDIN == 1LL);
    assert_true(PM_EXEC_TOSS_STDOUT == 2LL);
    assert_true(PM_EXEC_WAIT == 1LL);
    assert_true(PM_LOG_ADVISORY == 12LL);
    assert_true(PM_LOG_ALL_PIDS == -1LL);
    assert_true(PM_LOG_ENQUIRE == 13LL);
    assert_true(PM_LOG_MANDATORY == 11LL);
    assert_true(PM_LOG_MAYBE == 1LL);
    assert_true(PM_LOG_NO_PID == -2LL);
    assert_true(PM_LOG_NO_PORT == -2LL);
    assert_true(PM_LOG_OFF == 0LL);
    assert_true(PM_LOG_ON == 2LL);
    assert_true(PM_LOG_PRIMARY_PID == 0LL);
    assert_true(PM_LOG_PRIMARY_PORT == 0LL);
    assert_true(PM_LOG_STATE_INIT == 1LL);
    assert_true(PM_LOG_STATE_NEW == 0LL);
    assert_true(PM_MULTI_THREAD == 1LL);
    assert_true(PM_SCOPE_ACL == 1LL);
    assert_true(PM_SCOPE_AF == 2LL);
    assert_true(PM_SCOPE_DSO_PMDA == 0LL);
    assert_true(PM_SCOPE_LOGPORT == 3LL);
    assert_true(PM_SCOPE_MAX == 3LL);
    assert_true(PM_SERVICE_DISCOVERY_INTERRUPTED == 1LL);
    assert_true(PM_SERVICE_DISCOVERY_RESOLVE == 2LL);
    assert_true(PM_STATE_APPL == 0LL);
    assert_true(PM_STATE_PMCS == 1LL);
    assert_true(PROXY_PORT == 44322LL);
    assert_true(ROOT_PDU_VERSION == 2LL);
    assert_true(ROOT_PDU_VERSION1 == 1LL);
    assert_true(ROOT_PDU_VERSION2 == 2LL);
    assert_true(SERVER_PORT == 44321LL);
    assert_true(TIMEOUT_CONNECT == -3LL);
    assert_true(TIMEOUT_DEFAULT == -1LL);
    assert_true(TIMEOUT_NEVER == 0LL);
    assert_true(UNKNOWN_VERSION == 0LL);
    assert_true(WEBAPI_PORT == 44323LL);
    assert_true(__PM_MODE_MASK == 65535LL);
    assert_string_equal(SERVER_PROTOCOL, "pcp");
    assert_string_equal(PROXY_PROTOCOL, "proxy");
    assert_string_equal(WEBAPI_PROTOCOL, "http");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes),     cmocka_unit_test(offsets),      cmocka_unit_test(enums),
        cmocka_unit_test(bitfields), cmocka_unit_test(result_views), cmocka_unit_test(macros),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
