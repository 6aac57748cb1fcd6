/*
 * ABI tests for <pcp/pmapi.h>: structure sizes, field offsets, bit-field
 * layouts (checked by writing fields and memcpy'ing the 32-bit word) and the
 * value of every public constant.  The expected numbers were determined by
 * compiling against PCP 6.0.3's headers on Linux x86-64 and are pinned here
 * as literals.
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

static uint32_t word_at(const void *base, size_t offset)
{
    uint32_t w;
    memcpy(&w, (const char *)base + offset, sizeof(w));
    return w;
}

/* ======================= structure sizes ======================= */

static void sizes_of_identifier_types(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmID), 4);
    assert_int_equal(sizeof(pmInDom), 4);
    assert_int_equal(sizeof(pmUnits), 4);
}

static void sizes_of_value_types(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmDesc), 20);
    assert_int_equal(sizeof(pmValueBlock), 8);
    assert_int_equal(sizeof(pmValue), 16);
    assert_int_equal(sizeof(pmValueSet), 32);
    assert_int_equal(sizeof(pmResult), 32);
    assert_int_equal(sizeof(pmHighResResult), 32);
    assert_int_equal(sizeof(pmAtomValue), 8);
}

static void sizes_of_instance_and_profile_types(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmInResult), 24);
    assert_int_equal(sizeof(pmInDomProfile), 24);
    assert_int_equal(sizeof(pmProfile), 16);
}

static void sizes_of_label_types(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmLabel), 8);
    assert_int_equal(sizeof(pmLabelSet), 40);
}

static void sizes_of_time_types(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmTimeval), 8);
    assert_int_equal(sizeof(pmTimespec), 16);
}

static void sizes_of_event_types(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmEventParameter), 8);
    assert_int_equal(sizeof(pmEventRecord), 24);
    assert_int_equal(sizeof(pmHighResEventRecord), 32);
    assert_int_equal(sizeof(pmEventArray), 32);
    assert_int_equal(sizeof(pmHighResEventArray), 40);
}

static void sizes_of_option_types(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmLongOptions), 32);
    assert_int_equal(sizeof(pmOptions), 256);
}

/* ======================= field offsets ======================= */

static void pmdesc_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmDesc, pmid), 0);
    assert_int_equal(offsetof(pmDesc, type), 4);
    assert_int_equal(offsetof(pmDesc, indom), 8);
    assert_int_equal(offsetof(pmDesc, sem), 12);
    assert_int_equal(offsetof(pmDesc, units), 16);
}

static void pmvalueblock_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmValueBlock, vbuf), 4);
}

static void pmvalue_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmValue, inst), 0);
    assert_int_equal(offsetof(pmValue, value), 8);
    assert_int_equal(offsetof(pmValue, value.pval), 8);
    assert_int_equal(offsetof(pmValue, value.lval), 8);
}

static void pmvalueset_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmValueSet, pmid), 0);
    assert_int_equal(offsetof(pmValueSet, numval), 4);
    assert_int_equal(offsetof(pmValueSet, valfmt), 8);
    assert_int_equal(offsetof(pmValueSet, vlist), 16);
}

static void pmresult_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmResult, timestamp), 0);
    assert_int_equal(sizeof(((pmResult *)0)->timestamp), 16);
    assert_int_equal(offsetof(pmResult, numpmid), 16);
    assert_int_equal(offsetof(pmResult, vset), 24);
}

static void pmhighresresult_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmHighResResult, timestamp), 0);
    assert_int_equal(sizeof(((pmHighResResult *)0)->timestamp), 16);
    assert_int_equal(offsetof(pmHighResResult, numpmid), 16);
    assert_int_equal(offsetof(pmHighResResult, vset), 24);
}

/* Archive labels (Debian's 6.0.3 headers: sizes 128 and 792). */
static void archive_label_offsets(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmLogLabel), 128);
    assert_int_equal(offsetof(pmLogLabel, ll_magic), 0);
    assert_int_equal(offsetof(pmLogLabel, ll_pid), 4);
    assert_int_equal(offsetof(pmLogLabel, ll_start), 8);
    assert_int_equal(offsetof(pmLogLabel, ll_hostname), 24);
    assert_int_equal(offsetof(pmLogLabel, ll_tz), 88);
    assert_int_equal(sizeof(pmHighResLogLabel), 792);
    assert_int_equal(offsetof(pmHighResLogLabel, pid), 4);
    assert_int_equal(offsetof(pmHighResLogLabel, start), 8);
    assert_int_equal(offsetof(pmHighResLogLabel, hostname), 24);
    assert_int_equal(offsetof(pmHighResLogLabel, timezone), 280);
    assert_int_equal(offsetof(pmHighResLogLabel, zoneinfo), 536);
    assert_int_equal(PM_LOG_MAGIC, 0x50052600);
    assert_int_equal(PM_LOG_VERS02, 2);
    assert_int_equal(PM_LOG_VERS03, 3);
    assert_int_equal(PM_LOG_VOL_TI, -2);
    assert_int_equal(PM_LOG_VOL_META, -1);
    assert_int_equal(PM_LOG_MAXHOSTLEN, 64);
    assert_int_equal(PM_TZ_MAXLEN, 40);
    assert_int_equal(PM_MAX_HOSTNAMELEN, 256);
    assert_int_equal(PM_MAX_ZONEINFOLEN, 256);
    assert_int_equal(PM_LOG_FEATURE_QA, 0x80000000u);
    assert_int_equal(PM_LOG_FEATURES, 0x80000000u);
}

static void pminresult_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmInResult, indom), 0);
    assert_int_equal(offsetof(pmInResult, numinst), 4);
    assert_int_equal(offsetof(pmInResult, instlist), 8);
    assert_int_equal(offsetof(pmInResult, namelist), 16);
}

static void pmindomprofile_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmInDomProfile, indom), 0);
    assert_int_equal(offsetof(pmInDomProfile, state), 4);
    assert_int_equal(offsetof(pmInDomProfile, instances_len), 8);
    assert_int_equal(offsetof(pmInDomProfile, instances), 16);
}

static void pmprofile_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmProfile, state), 0);
    assert_int_equal(offsetof(pmProfile, profile_len), 4);
    assert_int_equal(offsetof(pmProfile, profile), 8);
}

static void pmlabelset_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmLabelSet, inst), 0);
    assert_int_equal(offsetof(pmLabelSet, nlabels), 4);
    assert_int_equal(offsetof(pmLabelSet, json), 8);
    assert_int_equal(offsetof(pmLabelSet, labels), 24);
    assert_int_equal(offsetof(pmLabelSet, hash), 32);
}

static void event_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmEventParameter, ep_pmid), 0);
    assert_int_equal(offsetof(pmEventRecord, er_timestamp), 0);
    assert_int_equal(offsetof(pmEventRecord, er_flags), 8);
    assert_int_equal(offsetof(pmEventRecord, er_nparams), 12);
    assert_int_equal(offsetof(pmEventRecord, er_param), 16);
    assert_int_equal(offsetof(pmHighResEventRecord, er_timestamp), 0);
    assert_int_equal(offsetof(pmHighResEventRecord, er_flags), 16);
    assert_int_equal(offsetof(pmHighResEventRecord, er_nparams), 20);
    assert_int_equal(offsetof(pmHighResEventRecord, er_param), 24);
    assert_int_equal(offsetof(pmEventArray, ea_nrecords), 4);
    assert_int_equal(offsetof(pmEventArray, ea_record), 8);
    assert_int_equal(offsetof(pmHighResEventArray, ea_nrecords), 4);
    assert_int_equal(offsetof(pmHighResEventArray, ea_record), 8);
}

static void pmlongoptions_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmLongOptions, long_opt), 0);
    assert_int_equal(offsetof(pmLongOptions, has_arg), 8);
    assert_int_equal(offsetof(pmLongOptions, short_opt), 12);
    assert_int_equal(offsetof(pmLongOptions, argname), 16);
    assert_int_equal(offsetof(pmLongOptions, message), 24);
}

static void pmoptions_getopt_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmOptions, version), 0);
    assert_int_equal(offsetof(pmOptions, flags), 4);
    assert_int_equal(offsetof(pmOptions, short_options), 8);
    assert_int_equal(offsetof(pmOptions, long_options), 16);
    assert_int_equal(offsetof(pmOptions, short_usage), 24);
    assert_int_equal(offsetof(pmOptions, override), 32);
    assert_int_equal(offsetof(pmOptions, index), 40);
    assert_int_equal(offsetof(pmOptions, optind), 44);
    assert_int_equal(offsetof(pmOptions, opterr), 48);
    assert_int_equal(offsetof(pmOptions, optopt), 52);
    assert_int_equal(offsetof(pmOptions, optarg), 56);
    assert_int_equal(offsetof(pmOptions, __initialized), 64);
    assert_int_equal(offsetof(pmOptions, __nextchar), 72);
    assert_int_equal(offsetof(pmOptions, __ordering), 80);
    assert_int_equal(offsetof(pmOptions, __posixly_correct), 84);
    assert_int_equal(offsetof(pmOptions, __first_nonopt), 88);
    assert_int_equal(offsetof(pmOptions, __last_nonopt), 92);
    assert_int_equal(offsetof(pmOptions, errors), 96);
}

static void pmoptions_pmapi_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmOptions, context), 100);
    assert_int_equal(offsetof(pmOptions, nhosts), 104);
    assert_int_equal(offsetof(pmOptions, narchives), 108);
    assert_int_equal(offsetof(pmOptions, hosts), 112);
    assert_int_equal(offsetof(pmOptions, archives), 120);
    assert_int_equal(offsetof(pmOptions, start), 128);
    assert_int_equal(offsetof(pmOptions, finish), 144);
    assert_int_equal(offsetof(pmOptions, origin), 160);
    assert_int_equal(offsetof(pmOptions, interval), 176);
    assert_int_equal(offsetof(pmOptions, align_optarg), 192);
    assert_int_equal(offsetof(pmOptions, start_optarg), 200);
    assert_int_equal(offsetof(pmOptions, finish_optarg), 208);
    assert_int_equal(offsetof(pmOptions, origin_optarg), 216);
    assert_int_equal(offsetof(pmOptions, guiport_optarg), 224);
    assert_int_equal(offsetof(pmOptions, timezone), 232);
    assert_int_equal(offsetof(pmOptions, samples), 240);
    assert_int_equal(offsetof(pmOptions, guiport), 244);
    assert_int_equal(offsetof(pmOptions, padding), 248);
}

/* ======================= bit-field layouts ======================= */

static uint32_t units_word(int ds, int dt, int dc, unsigned ss, unsigned st, int sc, unsigned pad)
{
    pmUnits u;
    memset(&u, 0, sizeof(u));
    u.dimSpace = ds;
    u.dimTime = dt;
    u.dimCount = dc;
    u.scaleSpace = ss;
    u.scaleTime = st;
    u.scaleCount = sc;
    u.pad = pad;
    return word_at(&u, 0);
}

static void pmunits_each_field_position(void **state)
{
    (void)state;
    assert_int_equal(units_word(1, 0, 0, 0, 0, 0, 0), 0x10000000);
    assert_int_equal(units_word(0, 1, 0, 0, 0, 0, 0), 0x01000000);
    assert_int_equal(units_word(0, 0, 1, 0, 0, 0, 0), 0x00100000);
    assert_int_equal(units_word(0, 0, 0, 1, 0, 0, 0), 0x00010000);
    assert_int_equal(units_word(0, 0, 0, 0, 1, 0, 0), 0x00001000);
    assert_int_equal(units_word(0, 0, 0, 0, 0, 1, 0), 0x00000100);
    assert_int_equal(units_word(0, 0, 0, 0, 0, 0, 1), 0x00000001);
    assert_int_equal(units_word(0, 0, 0, 0, 0, 0, 0xff), 0x000000ff);
}

static void pmunits_mbyte_per_sec_millicount_word(void **state)
{
    (void)state;
    assert_int_equal(units_word(1, -1, 0, PM_SPACE_MBYTE, PM_TIME_SEC, -3, 0), 0x1f023d00);
}

static void pmunits_signed_fields_sign_extend(void **state)
{
    pmUnits u;
    uint32_t w = 0xfff0f800u; /* dims -1,-1,-1; scaleSpace 0; scaleTime 15; scaleCount -8 */
    (void)state;
    memcpy(&u, &w, sizeof(u));
    assert_int_equal(u.dimSpace, -1);
    assert_int_equal(u.dimTime, -1);
    assert_int_equal(u.dimCount, -1);
    assert_int_equal(u.scaleSpace, 0);
    assert_int_equal(u.scaleTime, 15);
    assert_int_equal(u.scaleCount, -8);
    assert_int_equal(u.pad, 0);
}

static void pmunits_unsigned_scales_do_not_sign_extend(void **state)
{
    pmUnits u;
    uint32_t w = 0x000ff000u;
    (void)state;
    memcpy(&u, &w, sizeof(u));
    assert_int_equal(u.scaleSpace, 15);
    assert_int_equal(u.scaleTime, 15);
}

static void pmunits_positional_initialiser_order(void **state)
{
    /* pad, scaleCount, scaleTime, scaleSpace, dimCount, dimTime, dimSpace */
    pmUnits u = {0, -3, PM_TIME_SEC, PM_SPACE_MBYTE, 0, -1, 1};
    (void)state;
    assert_int_equal(word_at(&u, 0), 0x1f023d00);
}

static void pmvalueblock_header_word(void **state)
{
    pmValueBlock vb;
    (void)state;
    memset(&vb, 0, sizeof(vb));
    vb.vtype = PM_TYPE_STRING;
    vb.vlen = 0x123456;
    assert_int_equal(word_at(&vb, 0), 0x06123456);
    memset(&vb, 0, sizeof(vb));
    vb.vlen = PM_VAL_VLEN_MAX;
    assert_int_equal(word_at(&vb, 0), 0x00ffffff);
    memset(&vb, 0, sizeof(vb));
    vb.vtype = 0xff;
    assert_int_equal(word_at(&vb, 0), 0xff000000);
}

static void pmlabel_bitfield_words(void **state)
{
    pmLabel l;
    (void)state;
    memset(&l, 0, sizeof(l));
    l.name = 0x1234;
    l.namelen = 0x56;
    l.flags = 0x78;
    l.value = 0x9abc;
    l.valuelen = 0xdef0;
    assert_int_equal(word_at(&l, 0), 0x78561234);
    assert_int_equal(word_at(&l, 4), 0xdef09abc);
}

static void pmlabelset_bitfield_word(void **state)
{
    pmLabelSet ls;
    (void)state;
    memset(&ls, 0, sizeof(ls));
    ls.jsonlen = 0xffff;
    assert_int_equal(word_at(&ls, 16), 0x0000ffff);
    memset(&ls, 0, sizeof(ls));
    ls.padding = 1;
    assert_int_equal(word_at(&ls, 16), 0x00010000);
    memset(&ls, 0, sizeof(ls));
    ls.compound = 1;
    assert_int_equal(word_at(&ls, 16), 0x80000000);
}

static void event_bitfield_words(void **state)
{
    pmEventParameter ep;
    pmEventArray ea;
    (void)state;
    memset(&ep, 0, sizeof(ep));
    ep.ep_type = PM_TYPE_STRING;
    ep.ep_len = 0x123456;
    assert_int_equal(word_at(&ep, 4), 0x06123456);
    memset(&ea, 0, sizeof(ea));
    ea.ea_type = PM_TYPE_EVENT;
    ea.ea_len = 0x123456;
    assert_int_equal(word_at(&ea, 0), 0x09123456);
}

static void pmoptions_flag_bits_word(void **state)
{
    pmOptions o;
    (void)state;
    memset(&o, 0, sizeof(o));
    o.guiflag = 1;
    assert_int_equal(word_at(&o, 252), 0x1);
    memset(&o, 0, sizeof(o));
    o.tzflag = 1;
    assert_int_equal(word_at(&o, 252), 0x2);
    memset(&o, 0, sizeof(o));
    o.nsflag = 1;
    assert_int_equal(word_at(&o, 252), 0x4);
    memset(&o, 0, sizeof(o));
    o.Lflag = 1;
    assert_int_equal(word_at(&o, 252), 0x8);
}

static void pmatomvalue_members_share_storage(void **state)
{
    pmAtomValue a;
    (void)state;
    assert_int_equal(offsetof(pmAtomValue, l), 0);
    assert_int_equal(offsetof(pmAtomValue, ul), 0);
    assert_int_equal(offsetof(pmAtomValue, ll), 0);
    assert_int_equal(offsetof(pmAtomValue, ull), 0);
    assert_int_equal(offsetof(pmAtomValue, f), 0);
    assert_int_equal(offsetof(pmAtomValue, d), 0);
    assert_int_equal(offsetof(pmAtomValue, cp), 0);
    assert_int_equal(offsetof(pmAtomValue, vbp), 0);
    a.ull = 0x1122334455667788ULL;
    assert_int_equal(a.ul, 0x55667788u);
}

/* ======================= constants ======================= */

static void pmapi_version_constants(void **state)
{
    (void)state;
    assert_int_equal(PMAPI_VERSION_2, 2);
    assert_int_equal(PMAPI_VERSION_3, 3);
    assert_int_equal(PMAPI_VERSION, 2);
}

static void null_identifier_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_ID_NULL, 0xffffffffu);
    assert_int_equal(PM_INDOM_NULL, 0xffffffffu);
    assert_int_equal(PM_IN_NULL, 0xffffffffu);
    assert_int_equal((int)PM_IN_NULL, -1);
    assert_null(PM_NS_DEFAULT);
}

static void pm_space_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_SPACE_BYTE, 0);
    assert_int_equal(PM_SPACE_KBYTE, 1);
    assert_int_equal(PM_SPACE_MBYTE, 2);
    assert_int_equal(PM_SPACE_GBYTE, 3);
    assert_int_equal(PM_SPACE_TBYTE, 4);
    assert_int_equal(PM_SPACE_PBYTE, 5);
    assert_int_equal(PM_SPACE_EBYTE, 6);
    assert_int_equal(PM_SPACE_ZBYTE, 7);
    assert_int_equal(PM_SPACE_YBYTE, 8);
}

static void pm_time_and_count_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_TIME_NSEC, 0);
    assert_int_equal(PM_TIME_USEC, 1);
    assert_int_equal(PM_TIME_MSEC, 2);
    assert_int_equal(PM_TIME_SEC, 3);
    assert_int_equal(PM_TIME_MIN, 4);
    assert_int_equal(PM_TIME_HOUR, 5);
    assert_int_equal(PM_COUNT_ONE, 0);
}

static void pm_type_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_TYPE_NOSUPPORT, -1);
    assert_int_equal(PM_TYPE_32, 0);
    assert_int_equal(PM_TYPE_U32, 1);
    assert_int_equal(PM_TYPE_64, 2);
    assert_int_equal(PM_TYPE_U64, 3);
    assert_int_equal(PM_TYPE_FLOAT, 4);
    assert_int_equal(PM_TYPE_DOUBLE, 5);
    assert_int_equal(PM_TYPE_STRING, 6);
    assert_int_equal(PM_TYPE_AGGREGATE, 7);
    assert_int_equal(PM_TYPE_AGGREGATE_STATIC, 8);
    assert_int_equal(PM_TYPE_EVENT, 9);
    assert_int_equal(PM_TYPE_HIGHRES_EVENT, 10);
    assert_int_equal(PM_TYPE_UNKNOWN, 255);
}

static void pm_sem_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_SEM_COUNTER, 1);
    assert_int_equal(PM_SEM_INSTANT, 3);
    assert_int_equal(PM_SEM_DISCRETE, 4);
}

static void pm_val_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_VAL_HDR_SIZE, 4);
    assert_int_equal(PM_VAL_VLEN_MAX, 0x00ffffff);
    assert_int_equal(PM_VAL_INSITU, 0);
    assert_int_equal(PM_VAL_DPTR, 1);
    assert_int_equal(PM_VAL_SPTR, 2);
}

static void pm_text_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_TEXT_ONELINE, 1);
    assert_int_equal(PM_TEXT_HELP, 2);
    assert_int_equal(PM_TEXT_PMID, 4);
    assert_int_equal(PM_TEXT_INDOM, 8);
    assert_int_equal(PM_TEXT_DIRECT, 16);
}

static void pm_context_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_CONTEXT_UNDEF, -1);
    assert_int_equal(PM_CONTEXT_HOST, 1);
    assert_int_equal(PM_CONTEXT_ARCHIVE, 2);
    assert_int_equal(PM_CONTEXT_LOCAL, 3);
    assert_int_equal(PM_CONTEXT_TYPEMASK, 0xff);
}

static void pm_ctxflag_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_CTXFLAG_SHALLOW, 0x100);
    assert_int_equal(PM_CTXFLAG_EXCLUSIVE, 0x200);
    assert_int_equal(PM_CTXFLAG_SECURE, 0x400);
    assert_int_equal(PM_CTXFLAG_COMPRESS, 0x800);
    assert_int_equal(PM_CTXFLAG_RELAXED, 0x1000);
    assert_int_equal(PM_CTXFLAG_AUTH, 0x2000);
    assert_int_equal(PM_CTXFLAG_CONTAINER, 0x4000);
    assert_int_equal(PM_CTXFLAG_NO_FEATURE_CHECK, 0x8000);
}

static void pm_err_base_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_ERR_BASE2, 12345);
    assert_int_equal(PM_ERR_BASE, 12345);
    assert_int_equal(PM_MAXERRMSGLEN, 128);
}

static void pm_err_code_values(void **state)
{
    (void)state;
    assert_int_equal(PM_ERR_GENERIC, -12345);
    assert_int_equal(PM_ERR_PMNS, -12346);
    assert_int_equal(PM_ERR_NOPMNS, -12347);
    assert_int_equal(PM_ERR_DUPPMNS, -12348);
    assert_int_equal(PM_ERR_TEXT, -12349);
    assert_int_equal(PM_ERR_APPVERSION, -12350);
    assert_int_equal(PM_ERR_VALUE, -12351);
    assert_int_equal(PM_ERR_TIMEOUT, -12353);
    assert_int_equal(PM_ERR_NODATA, -12354);
    assert_int_equal(PM_ERR_RESET, -12355);
    assert_int_equal(PM_ERR_NAME, -12357);
    assert_int_equal(PM_ERR_PMID, -12358);
    assert_int_equal(PM_ERR_INDOM, -12359);
    assert_int_equal(PM_ERR_INST, -12360);
    assert_int_equal(PM_ERR_UNIT, -12361);
    assert_int_equal(PM_ERR_CONV, -12362);
    assert_int_equal(PM_ERR_TRUNC, -12363);
    assert_int_equal(PM_ERR_SIGN, -12364);
    assert_int_equal(PM_ERR_PROFILE, -12365);
    assert_int_equal(PM_ERR_IPC, -12366);
    assert_int_equal(PM_ERR_EOF, -12368);
    assert_int_equal(PM_ERR_NOTHOST, -12369);
    assert_int_equal(PM_ERR_EOL, -12370);
    assert_int_equal(PM_ERR_MODE, -12371);
    assert_int_equal(PM_ERR_LABEL, -12372);
    assert_int_equal(PM_ERR_LOGREC, -12373);
    assert_int_equal(PM_ERR_NOTARCHIVE, -12374);
    assert_int_equal(PM_ERR_LOGFILE, -12375);
    assert_int_equal(PM_ERR_NOCONTEXT, -12376);
    assert_int_equal(PM_ERR_PROFILESPEC, -12377);
    assert_int_equal(PM_ERR_PMID_LOG, -12378);
    assert_int_equal(PM_ERR_INDOM_LOG, -12379);
    assert_int_equal(PM_ERR_INST_LOG, -12380);
    assert_int_equal(PM_ERR_NOPROFILE, -12381);
    assert_int_equal(PM_ERR_NOAGENT, -12386);
    assert_int_equal(PM_ERR_PERMISSION, -12387);
    assert_int_equal(PM_ERR_CONNLIMIT, -12388);
    assert_int_equal(PM_ERR_AGAIN, -12389);
    assert_int_equal(PM_ERR_ISCONN, -12390);
    assert_int_equal(PM_ERR_NOTCONN, -12391);
    assert_int_equal(PM_ERR_NEEDPORT, -12392);
    assert_int_equal(PM_ERR_NONLEAF, -12394);
    assert_int_equal(PM_ERR_TYPE, -12397);
    assert_int_equal(PM_ERR_THREAD, -12398);
    assert_int_equal(PM_ERR_NOCONTAINER, -12399);
    assert_int_equal(PM_ERR_BADSTORE, -12400);
    assert_int_equal(PM_ERR_LOGOVERLAP, -12401);
    assert_int_equal(PM_ERR_LOGHOST, -12402);
    assert_int_equal(PM_ERR_LOGCHANGETYPE, -12404);
    assert_int_equal(PM_ERR_LOGCHANGESEM, -12405);
    assert_int_equal(PM_ERR_LOGCHANGEINDOM, -12406);
    assert_int_equal(PM_ERR_LOGCHANGEUNITS, -12407);
    assert_int_equal(PM_ERR_NEEDCLIENTCERT, -12408);
    assert_int_equal(PM_ERR_BADDERIVE, -12409);
    assert_int_equal(PM_ERR_NOLABELS, -12410);
    assert_int_equal(PM_ERR_PMDAFENCED, -12411);
    assert_int_equal(PM_ERR_RECTYPE, -12412);
    assert_int_equal(PM_ERR_FEATURE, -12413);
    assert_int_equal(PM_ERR_TLS, -12414);
    assert_int_equal(PM_ERR_BOTCH, -12442);
    assert_int_equal(PM_ERR_TOOSMALL, -12443);
    assert_int_equal(PM_ERR_TOOBIG, -12444);
    assert_int_equal(PM_ERR_FAULT, -12445);
    assert_int_equal(PM_ERR_PMDAREADY, -13393);
    assert_int_equal(PM_ERR_PMDANOTREADY, -13394);
    assert_int_equal(PM_ERR_NYI, -21344);
}

static void pmns_constants(void **state)
{
    (void)state;
    assert_int_equal(PMNS_LOCAL, 1);
    assert_int_equal(PMNS_REMOTE, 2);
    assert_int_equal(PMNS_ARCHIVE, 3);
    assert_int_equal(PMNS_LEAF_STATUS, 0);
    assert_int_equal(PMNS_NONLEAF_STATUS, 1);
}

static void pm_profile_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_PROFILE_INCLUDE, 0);
    assert_int_equal(PM_PROFILE_EXCLUDE, 1);
}

static void pmcd_change_bits(void **state)
{
    (void)state;
    assert_int_equal(PMCD_NO_CHANGE, 0);
    assert_int_equal(PMCD_ADD_AGENT, 1);
    assert_int_equal(PMCD_RESTART_AGENT, 2);
    assert_int_equal(PMCD_DROP_AGENT, 4);
    assert_int_equal(PMCD_AGENT_CHANGE, 7);
    assert_int_equal(PMCD_LABEL_CHANGE, 8);
    assert_int_equal(PMCD_NAMES_CHANGE, 16);
}

static void pm_mode_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_MODE_LIVE, 0);
    assert_int_equal(PM_MODE_INTERP, 1);
    assert_int_equal(PM_MODE_FORW, 2);
    assert_int_equal(PM_MODE_BACK, 3);
}

static void pm_label_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_LABEL_CONTEXT, 1);
    assert_int_equal(PM_LABEL_DOMAIN, 2);
    assert_int_equal(PM_LABEL_INDOM, 4);
    assert_int_equal(PM_LABEL_CLUSTER, 8);
    assert_int_equal(PM_LABEL_ITEM, 16);
    assert_int_equal(PM_LABEL_INSTANCES, 32);
    assert_int_equal(PM_LABEL_COMPOUND, 64);
    assert_int_equal(PM_LABEL_OPTIONAL, 128);
    assert_int_equal(PM_MAXLABELS, 255);
    assert_int_equal(PM_MAXLABELJSONLEN, 65535);
}

static void pm_event_flag_constants(void **state)
{
    (void)state;
    assert_int_equal(PM_EVENT_FLAG_POINT, 0x1);
    assert_int_equal(PM_EVENT_FLAG_START, 0x2);
    assert_int_equal(PM_EVENT_FLAG_END, 0x4);
    assert_int_equal(PM_EVENT_FLAG_ID, 0x8);
    assert_int_equal(PM_EVENT_FLAG_PARENT, 0x10);
    assert_int_equal(PM_EVENT_FLAG_MISSED, 0x80000000u);
}

static void dynamic_pmid_constant(void **state)
{
    (void)state;
    assert_int_equal(DYNAMIC_PMID, 511);
}

static void is_dynamic_root_macro_examples(void **state)
{
    (void)state;
    assert_true(IS_DYNAMIC_ROOT(0x7fc00000u));  /* 511.0.0 */
    assert_true(IS_DYNAMIC_ROOT(0x7fc0f000u));  /* 511.60.0 */
    assert_false(IS_DYNAMIC_ROOT(0x7fc00001u)); /* 511.0.1 */
    assert_false(IS_DYNAMIC_ROOT(0x3f400000u)); /* 253.0.0 */
}

static void is_derived_macro_examples(void **state)
{
    (void)state;
    assert_true(IS_DERIVED(0x7fc00001u));  /* 511.0.1 event.flags */
    assert_true(IS_DERIVED(0x7fc00002u));  /* 511.0.2 event.missed */
    assert_false(IS_DERIVED(0x7fe00001u)); /* 511.2048.1 */
    assert_false(IS_DERIVED(0x7fc00000u)); /* 511.0.0 */
    assert_false(IS_DERIVED(0x3f400001u)); /* 253.0.1 */
}

static void pmapi_option_macros(void **state)
{
    pmLongOptions end = PMAPI_OPTIONS_END;
    pmLongOptions hdr = PMAPI_OPTIONS_HEADER("Options");
    pmLongOptions txt = PMAPI_OPTIONS_TEXT("text");
    pmLongOptions dbg = PMOPT_DEBUG;
    pmLongOptions help = PMOPT_HELP;
    (void)state;
    assert_string_equal(PMAPI_OPTIONS, "A:a:D:gh:n:O:p:S:s:T:t:VZ:z?");
    assert_null(end.long_opt);
    assert_int_equal(end.short_opt, 0);
    assert_string_equal(hdr.long_opt, "");
    assert_int_equal(hdr.short_opt, '-');
    assert_string_equal(hdr.message, "Options");
    assert_int_equal(txt.short_opt, '|');
    assert_string_equal(dbg.long_opt, "debug");
    assert_int_equal(dbg.has_arg, 1);
    assert_int_equal(dbg.short_opt, 'D');
    assert_string_equal(dbg.argname, "DBG");
    assert_string_equal(help.long_opt, "help");
    assert_int_equal(help.has_arg, 0);
    assert_int_equal(help.short_opt, '?');
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_of_identifier_types),
        cmocka_unit_test(sizes_of_value_types),
        cmocka_unit_test(sizes_of_instance_and_profile_types),
        cmocka_unit_test(sizes_of_label_types),
        cmocka_unit_test(sizes_of_time_types),
        cmocka_unit_test(sizes_of_event_types),
        cmocka_unit_test(sizes_of_option_types),
        cmocka_unit_test(pmdesc_offsets),
        cmocka_unit_test(pmvalueblock_offsets),
        cmocka_unit_test(pmvalue_offsets),
        cmocka_unit_test(pmvalueset_offsets),
        cmocka_unit_test(pmresult_offsets),
        cmocka_unit_test(pmhighresresult_offsets),
        cmocka_unit_test(archive_label_offsets),
        cmocka_unit_test(pminresult_offsets),
        cmocka_unit_test(pmindomprofile_offsets),
        cmocka_unit_test(pmprofile_offsets),
        cmocka_unit_test(pmlabelset_offsets),
        cmocka_unit_test(event_offsets),
        cmocka_unit_test(pmlongoptions_offsets),
        cmocka_unit_test(pmoptions_getopt_offsets),
        cmocka_unit_test(pmoptions_pmapi_offsets),
        cmocka_unit_test(pmunits_each_field_position),
        cmocka_unit_test(pmunits_mbyte_per_sec_millicount_word),
        cmocka_unit_test(pmunits_signed_fields_sign_extend),
        cmocka_unit_test(pmunits_unsigned_scales_do_not_sign_extend),
        cmocka_unit_test(pmunits_positional_initialiser_order),
        cmocka_unit_test(pmvalueblock_header_word),
        cmocka_unit_test(pmlabel_bitfield_words),
        cmocka_unit_test(pmlabelset_bitfield_word),
        cmocka_unit_test(event_bitfield_words),
        cmocka_unit_test(pmoptions_flag_bits_word),
        cmocka_unit_test(pmatomvalue_members_share_storage),
        cmocka_unit_test(pmapi_version_constants),
        cmocka_unit_test(null_identifier_constants),
        cmocka_unit_test(pm_space_constants),
        cmocka_unit_test(pm_time_and_count_constants),
        cmocka_unit_test(pm_type_constants),
        cmocka_unit_test(pm_sem_constants),
        cmocka_unit_test(pm_val_constants),
        cmocka_unit_test(pm_text_constants),
        cmocka_unit_test(pm_context_constants),
        cmocka_unit_test(pm_ctxflag_constants),
        cmocka_unit_test(pm_err_base_constants),
        cmocka_unit_test(pm_err_code_values),
        cmocka_unit_test(pmns_constants),
        cmocka_unit_test(pm_profile_constants),
        cmocka_unit_test(pmcd_change_bits),
        cmocka_unit_test(pm_mode_constants),
        cmocka_unit_test(pm_label_constants),
        cmocka_unit_test(pm_event_flag_constants),
        cmocka_unit_test(dynamic_pmid_constant),
        cmocka_unit_test(is_dynamic_root_macro_examples),
        cmocka_unit_test(is_derived_macro_examples),
        cmocka_unit_test(pmapi_option_macros),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
