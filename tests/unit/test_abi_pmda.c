/*
 * ABI tests for <pcp/pmda.h>: structure sizes and offsets (pmdaInstid,
 * pmdaIndom, pmdaMetric, pmdaExt, pmdaInterface, __pmDSO, pmdaOptions),
 * the pmdaInterface.comm bit-field word, and the value of every public
 * constant and macro.  Expected numbers were determined by compiling
 * against PCP 6.0.3's headers on Linux x86-64 and are pinned as literals.
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

static uint32_t word_at(const void *base, size_t offset)
{
    uint32_t w;
    memcpy(&w, (const char *)base + offset, sizeof(w));
    return w;
}

/* ======================= sizes ======================= */

static void sizes_of_pmda_tables(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmdaInstid), 16);
    assert_int_equal(sizeof(pmdaIndom), 16);
    assert_int_equal(sizeof(pmdaMetric), 32);
}

static void sizes_of_pmda_ext_and_interface(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmdaExt), 192);
    assert_int_equal(sizeof(pmdaInterface), 112);
    assert_int_equal(sizeof(((pmdaInterface *)0)->comm), 4);
    assert_int_equal(sizeof(__pmDSO), 152);
}

static void sizes_of_pmda_options(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmdaOptions), 112);
    assert_int_equal(sizeof(pmLongOptions), 32);
    assert_int_equal(sizeof(pmdaIoType), 4);
}

static void sizes_of_label_types(void **state)
{
    (void)state;
    assert_int_equal(sizeof(pmLabel), 8);
    assert_int_equal(sizeof(pmLabelSet), 40);
}

/* ======================= offsets ======================= */

static void pmdainstid_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaInstid, i_inst), 0);
    assert_int_equal(offsetof(pmdaInstid, i_name), 8);
}

static void pmdaindom_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaIndom, it_indom), 0);
    assert_int_equal(offsetof(pmdaIndom, it_numinst), 4);
    assert_int_equal(offsetof(pmdaIndom, it_set), 8);
}

static void pmdametric_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaMetric, m_user), 0);
    assert_int_equal(offsetof(pmdaMetric, m_desc), 8);
    assert_int_equal(offsetof(pmdaMetric, m_desc.pmid), 8);
    assert_int_equal(offsetof(pmdaMetric, m_desc.type), 12);
    assert_int_equal(offsetof(pmdaMetric, m_desc.indom), 16);
    assert_int_equal(offsetof(pmdaMetric, m_desc.sem), 20);
    assert_int_equal(offsetof(pmdaMetric, m_desc.units), 24);
}

static void pmdaext_identity_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaExt, e_flags), 0);
    assert_int_equal(offsetof(pmdaExt, e_ext), 8);
    assert_int_equal(offsetof(pmdaExt, e_sockname), 16);
    assert_int_equal(offsetof(pmdaExt, e_name), 24);
    assert_int_equal(offsetof(pmdaExt, e_logfile), 32);
    assert_int_equal(offsetof(pmdaExt, e_helptext), 40);
}

static void pmdaext_int_field_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaExt, e_status), 48);
    assert_int_equal(offsetof(pmdaExt, e_infd), 52);
    assert_int_equal(offsetof(pmdaExt, e_outfd), 56);
    assert_int_equal(offsetof(pmdaExt, e_port), 60);
    assert_int_equal(offsetof(pmdaExt, e_singular), 64);
    assert_int_equal(offsetof(pmdaExt, e_ordinal), 68);
    assert_int_equal(offsetof(pmdaExt, e_direct), 72);
    assert_int_equal(offsetof(pmdaExt, e_domain), 76);
    assert_int_equal(offsetof(pmdaExt, e_nmetrics), 80);
    assert_int_equal(offsetof(pmdaExt, e_nindoms), 84);
    assert_int_equal(offsetof(pmdaExt, e_help), 88);
}

static void pmdaext_table_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaExt, e_prof), 96);
    assert_int_equal(offsetof(pmdaExt, e_io), 104);
    assert_int_equal(offsetof(pmdaExt, e_indoms), 112);
    assert_int_equal(offsetof(pmdaExt, e_idp), 120);
    assert_int_equal(offsetof(pmdaExt, e_metrics), 128);
}

static void pmdaext_callback_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaExt, e_resultCallBack), 136);
    assert_int_equal(offsetof(pmdaExt, e_fetchCallBack), 144);
    assert_int_equal(offsetof(pmdaExt, e_checkCallBack), 152);
    assert_int_equal(offsetof(pmdaExt, e_doneCallBack), 160);
    assert_int_equal(offsetof(pmdaExt, e_context), 168);
    assert_int_equal(offsetof(pmdaExt, e_endCallBack), 176);
    assert_int_equal(offsetof(pmdaExt, e_labelCallBack), 184);
}

static void pmdainterface_header_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaInterface, domain), 0);
    assert_int_equal(offsetof(pmdaInterface, comm), 4);
    assert_int_equal(offsetof(pmdaInterface, status), 8);
    assert_int_equal(offsetof(pmdaInterface, version), 16);
}

static void pmdainterface_version_any_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaInterface, version.any.ext), 16);
    assert_int_equal(offsetof(pmdaInterface, version.any.profile), 24);
    assert_int_equal(offsetof(pmdaInterface, version.any.fetch), 32);
    assert_int_equal(offsetof(pmdaInterface, version.any.desc), 40);
    assert_int_equal(offsetof(pmdaInterface, version.any.instance), 48);
    assert_int_equal(offsetof(pmdaInterface, version.any.text), 56);
    assert_int_equal(offsetof(pmdaInterface, version.any.store), 64);
}

static void pmdainterface_version_two_three_alias_any(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaInterface, version.two.ext), 16);
    assert_int_equal(offsetof(pmdaInterface, version.two.store), 64);
    assert_int_equal(offsetof(pmdaInterface, version.three.ext), 16);
    assert_int_equal(offsetof(pmdaInterface, version.three.store), 64);
}

static void pmdainterface_version_four_five_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaInterface, version.four.ext), 16);
    assert_int_equal(offsetof(pmdaInterface, version.four.store), 64);
    assert_int_equal(offsetof(pmdaInterface, version.four.pmid), 72);
    assert_int_equal(offsetof(pmdaInterface, version.four.name), 80);
    assert_int_equal(offsetof(pmdaInterface, version.four.children), 88);
    assert_int_equal(offsetof(pmdaInterface, version.five.pmid), 72);
    assert_int_equal(offsetof(pmdaInterface, version.five.name), 80);
    assert_int_equal(offsetof(pmdaInterface, version.five.children), 88);
}

static void pmdainterface_version_six_seven_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaInterface, version.six.children), 88);
    assert_int_equal(offsetof(pmdaInterface, version.six.attribute), 96);
    assert_int_equal(offsetof(pmdaInterface, version.seven.children), 88);
    assert_int_equal(offsetof(pmdaInterface, version.seven.attribute), 96);
    assert_int_equal(offsetof(pmdaInterface, version.seven.label), 104);
}

static void pmdso_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(__pmDSO, domain), 0);
    assert_int_equal(offsetof(__pmDSO, name), 8);
    assert_int_equal(offsetof(__pmDSO, init), 16);
    assert_int_equal(offsetof(__pmDSO, handle), 24);
    assert_int_equal(offsetof(__pmDSO, ctx_last_prof), 32);
    assert_int_equal(offsetof(__pmDSO, dispatch), 40);
}

static void pmdaoptions_offsets(void **state)
{
    (void)state;
    assert_int_equal(offsetof(pmdaOptions, version), 0);
    assert_int_equal(offsetof(pmdaOptions, flags), 4);
    assert_int_equal(offsetof(pmdaOptions, short_options), 8);
    assert_int_equal(offsetof(pmdaOptions, long_options), 16);
    assert_int_equal(offsetof(pmdaOptions, short_usage), 24);
    assert_int_equal(offsetof(pmdaOptions, override), 32);
    assert_int_equal(offsetof(pmdaOptions, index), 40);
    assert_int_equal(offsetof(pmdaOptions, optind), 44);
    assert_int_equal(offsetof(pmdaOptions, opterr), 48);
    assert_int_equal(offsetof(pmdaOptions, optopt), 52);
    assert_int_equal(offsetof(pmdaOptions, optarg), 56);
    assert_int_equal(offsetof(pmdaOptions, __initialized), 64);
    assert_int_equal(offsetof(pmdaOptions, __nextchar), 72);
    assert_int_equal(offsetof(pmdaOptions, __ordering), 80);
    assert_int_equal(offsetof(pmdaOptions, __posixly_correct), 84);
    assert_int_equal(offsetof(pmdaOptions, __first_nonopt), 88);
    assert_int_equal(offsetof(pmdaOptions, __last_nonopt), 92);
    assert_int_equal(offsetof(pmdaOptions, errors), 96);
    assert_int_equal(offsetof(pmdaOptions, username), 104);
}

#define SAME_OFFSET(field)                                                                         \
    assert_int_equal(offsetof(pmdaOptions, field), offsetof(pmOptions, field))

static void pmdaoptions_shares_leading_fields_with_pmoptions(void **state)
{
    (void)state;
    SAME_OFFSET(version);
    SAME_OFFSET(flags);
    SAME_OFFSET(short_options);
    SAME_OFFSET(long_options);
    SAME_OFFSET(short_usage);
    SAME_OFFSET(override);
    SAME_OFFSET(index);
    SAME_OFFSET(optind);
    SAME_OFFSET(opterr);
    SAME_OFFSET(optopt);
    SAME_OFFSET(optarg);
    SAME_OFFSET(__initialized);
    SAME_OFFSET(__nextchar);
    SAME_OFFSET(__ordering);
    SAME_OFFSET(__posixly_correct);
    SAME_OFFSET(__first_nonopt);
    SAME_OFFSET(__last_nonopt);
    SAME_OFFSET(errors);
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

static void pmlabel_layout(void **state)
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

static void pmlabelset_layout(void **state)
{
    pmLabelSet ls;
    (void)state;
    assert_int_equal(offsetof(pmLabelSet, inst), 0);
    assert_int_equal(offsetof(pmLabelSet, nlabels), 4);
    assert_int_equal(offsetof(pmLabelSet, json), 8);
    assert_int_equal(offsetof(pmLabelSet, labels), 24);
    assert_int_equal(offsetof(pmLabelSet, hash), 32);
    memset(&ls, 0, sizeof(ls));
    ls.jsonlen = 0xffff;
    ls.padding = 0;
    ls.compound = 1;
    assert_int_equal(word_at(&ls, 16), 0x8000ffff);
    memset(&ls, 0, sizeof(ls));
    ls.padding = 0x7fff;
    assert_int_equal(word_at(&ls, 16), 0x7fff0000);
}

/* ======================= bit-fields ======================= */

static void pmdainterface_comm_word_layout(void **state)
{
    pmdaInterface d;
    (void)state;
    memset(&d, 0, sizeof(d));
    d.comm.pmda_interface = 0x12;
    d.comm.pmapi_version = 0x34;
    d.comm.flags = 0x5678;
    assert_int_equal(word_at(&d, 4), 0x56783412);
    memset(&d, 0, sizeof(d));
    d.comm.pmda_interface = PMDA_INTERFACE_7;
    assert_int_equal(word_at(&d, 4), 0x00000007);
    memset(&d, 0, sizeof(d));
    d.comm.pmapi_version = PMAPI_VERSION_2;
    assert_int_equal(word_at(&d, 4), 0x00000200);
    memset(&d, 0, sizeof(d));
    d.comm.flags = PMDA_FLAG_AUTHORIZE | PMDA_FLAG_CONTAINER;
    assert_int_equal(word_at(&d, 4), 0x00440000);
}

static void pmda_pmunits_macro_builds_pmunits(void **state)
{
    pmUnits u = PMDA_PMUNITS(1, -1, 0, PM_SPACE_MBYTE, PM_TIME_SEC, -3);
    pmUnits none = PMDA_PMUNITS(0, 0, 0, 0, 0, 0);
    pmUnits cnt = PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE);
    pmUnits t = PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_MSEC, 0);
    (void)state;
    assert_int_equal(word_at(&u, 0), 0x1f023d00);
    assert_int_equal(u.dimSpace, 1);
    assert_int_equal(u.dimTime, -1);
    assert_int_equal(u.dimCount, 0);
    assert_int_equal(u.scaleSpace, PM_SPACE_MBYTE);
    assert_int_equal(u.scaleTime, PM_TIME_SEC);
    assert_int_equal(u.scaleCount, -3);
    assert_int_equal(word_at(&none, 0), 0);
    assert_int_equal(word_at(&cnt, 0), 0x00100000);
    assert_int_equal(word_at(&t, 0), 0x01002000);
}

static void pmda_pmunits_macro_in_metric_table(void **state)
{
    static pmdaMetric m = {NULL,
                           {PMDA_PMID(2, 4), PM_TYPE_U64, PM_INDOM_NULL, PM_SEM_COUNTER,
                            PMDA_PMUNITS(1, 0, 0, PM_SPACE_KBYTE, 0, 0)}};
    (void)state;
    assert_int_equal(m.m_desc.pmid, 0x804);
    assert_int_equal(m.m_desc.type, PM_TYPE_U64);
    assert_int_equal(m.m_desc.indom, 0xffffffffu);
    assert_int_equal(m.m_desc.sem, PM_SEM_COUNTER);
    assert_int_equal(word_at(&m.m_desc.units, 0), 0x10010000);
}

/* ======================= constants and macros ======================= */

static void pmda_interface_versions(void **state)
{
    (void)state;
    assert_int_equal(PMDA_INTERFACE_2, 2);
    assert_int_equal(PMDA_INTERFACE_3, 3);
    assert_int_equal(PMDA_INTERFACE_4, 4);
    assert_int_equal(PMDA_INTERFACE_5, 5);
    assert_int_equal(PMDA_INTERFACE_6, 6);
    assert_int_equal(PMDA_INTERFACE_7, 7);
    assert_int_equal(PMDA_INTERFACE_LATEST, 7);
}

static void pmda_io_type_enumerators(void **state)
{
    (void)state;
    assert_int_equal(pmdaPipe, 0);
    assert_int_equal(pmdaInet, 1);
    assert_int_equal(pmdaUnix, 2);
    assert_int_equal(pmdaUnknown, 3);
    assert_int_equal(pmdaIPv6, 4);
}

static void pmda_fetch_return_codes(void **state)
{
    (void)state;
    assert_int_equal(PMDA_FETCH_NOVALUES, 0);
    assert_int_equal(PMDA_FETCH_STATIC, 1);
    assert_int_equal(PMDA_FETCH_DYNAMIC, 2);
}

static void pmda_ext_flag_bits(void **state)
{
    (void)state;
    assert_int_equal(PMDA_EXT_FLAG_DIRECT, 1);
    assert_int_equal(PMDA_EXT_FLAG_HASHED, 2);
    assert_int_equal(PMDA_EXT_SETUPDONE, 4);
    assert_int_equal(PMDA_EXT_CONNECTED, 8);
    assert_int_equal(PMDA_EXT_NOTREADY, 16);
    assert_int_equal(PMDA_EXT_LABEL_CHANGE, 32);
    assert_int_equal(PMDA_EXT_NAMES_CHANGE, 64);
}

static void pmda_comm_flag_bits(void **state)
{
    (void)state;
    assert_int_equal(PMDA_FLAG_AUTHORIZE, 4);
    assert_int_equal(PMDA_FLAG_CONTAINER, 64);
}

static void pmda_attribute_codes(void **state)
{
    (void)state;
    assert_int_equal(PMDA_ATTR_USERNAME, 5);
    assert_int_equal(PMDA_ATTR_USERID, 11);
    assert_int_equal(PMDA_ATTR_GROUPID, 12);
    assert_int_equal(PMDA_ATTR_PROCESSID, 14);
    assert_int_equal(PMDA_ATTR_CONTAINER, 15);
}

static void pmda_cache_operation_codes(void **state)
{
    (void)state;
    assert_int_equal(PMDA_CACHE_LOAD, 1);
    assert_int_equal(PMDA_CACHE_ADD, 2);
    assert_int_equal(PMDA_CACHE_HIDE, 3);
    assert_int_equal(PMDA_CACHE_CULL, 4);
    assert_int_equal(PMDA_CACHE_EMPTY, 5);
    assert_int_equal(PMDA_CACHE_SAVE, 6);
    assert_int_equal(PMDA_CACHE_STRINGS, 7);
    assert_int_equal(PMDA_CACHE_ACTIVE, 8);
    assert_int_equal(PMDA_CACHE_INACTIVE, 9);
    assert_int_equal(PMDA_CACHE_SIZE, 10);
    assert_int_equal(PMDA_CACHE_SIZE_ACTIVE, 11);
    assert_int_equal(PMDA_CACHE_SIZE_INACTIVE, 12);
    assert_int_equal(PMDA_CACHE_REUSE, 13);
    assert_int_equal(PMDA_CACHE_WALK_REWIND, 14);
    assert_int_equal(PMDA_CACHE_WALK_NEXT, 15);
    assert_int_equal(PMDA_CACHE_CHECK, 16);
    assert_int_equal(PMDA_CACHE_REORG, 17);
    assert_int_equal(PMDA_CACHE_SYNC, 18);
    assert_int_equal(PMDA_CACHE_DUMP, 19);
    assert_int_equal(PMDA_CACHE_DUMP_ALL, 20);
}

static void pmda_pmid_macro_results(void **state)
{
    (void)state;
    assert_int_equal(PMDA_PMID(0, 0), 0);
    assert_int_equal(PMDA_PMID(2, 4), 0x00000804);
    assert_int_equal(PMDA_PMID(0, 1), 0x00000001);
    assert_int_equal(PMDA_PMID(1, 0), 0x00000400);
    assert_int_equal(PMDA_PMID(4095, 1023), 0x003fffff);
}

static void pmda_pmid_macro_masks_fields(void **state)
{
    (void)state;
    assert_int_equal(PMDA_PMID(4096, 1024), 0);
    assert_int_equal(PMDA_PMID(4097, 1025), 0x00000401);
    assert_int_equal(PMDA_PMID(0xffffffff, 0), 0x003ffc00);
}

static void pmda_options_string(void **state)
{
    (void)state;
    assert_string_equal(PMDA_OPTIONS, "D:d:h:i:l:pu:U:");
}

static void pmda_option_table_macros(void **state)
{
    pmLongOptions hdr = PMDA_OPTIONS_HEADER("Options");
    pmLongOptions txt = PMDA_OPTIONS_TEXT("text");
    pmLongOptions end = PMDA_OPTIONS_END;
    (void)state;
    assert_string_equal(hdr.long_opt, "");
    assert_int_equal(hdr.has_arg, 0);
    assert_int_equal(hdr.short_opt, '-');
    assert_null(hdr.argname);
    assert_string_equal(hdr.message, "Options");
    assert_int_equal(txt.short_opt, '|');
    assert_string_equal(txt.message, "text");
    assert_null(end.long_opt);
    assert_int_equal(end.has_arg, 0);
    assert_int_equal(end.short_opt, 0);
    assert_null(end.argname);
    assert_null(end.message);
}

static void pmdaopt_entries(void **state)
{
    pmLongOptions o[] = {
        PMDAOPT_DEBUG,   PMDAOPT_DOMAIN, PMDAOPT_HELPTEXT, PMDAOPT_INET,     PMDAOPT_IPV6,
        PMDAOPT_LOGFILE, PMDAOPT_PIPE,   PMDAOPT_UNIX,     PMDAOPT_USERNAME,
    };
    (void)state;
    assert_string_equal(o[0].long_opt, "debug");
    assert_int_equal(o[0].short_opt, 'D');
    assert_int_equal(o[0].has_arg, 1);
    assert_string_equal(o[0].argname, "DBG");
    assert_string_equal(o[1].long_opt, "domain");
    assert_int_equal(o[1].short_opt, 'd');
    assert_string_equal(o[1].argname, "NUM");
    assert_string_equal(o[2].long_opt, "helpfile");
    assert_int_equal(o[2].short_opt, 'h');
    assert_string_equal(o[3].long_opt, "inet");
    assert_int_equal(o[3].short_opt, 'i');
    assert_string_equal(o[4].long_opt, "ipv6");
    assert_int_equal(o[4].short_opt, '6');
    assert_string_equal(o[5].long_opt, "log");
    assert_int_equal(o[5].short_opt, 'l');
    assert_string_equal(o[6].long_opt, "pipe");
    assert_int_equal(o[6].short_opt, 'p');
    assert_int_equal(o[6].has_arg, 0);
    assert_string_equal(o[7].long_opt, "unix");
    assert_int_equal(o[7].short_opt, 'u');
    assert_string_equal(o[8].long_opt, "username");
    assert_int_equal(o[8].short_opt, 'U');
    assert_string_equal(o[8].argname, "USER");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sizes_of_pmda_tables),
        cmocka_unit_test(sizes_of_pmda_ext_and_interface),
        cmocka_unit_test(sizes_of_pmda_options),
        cmocka_unit_test(sizes_of_label_types),
        cmocka_unit_test(pmdainstid_offsets),
        cmocka_unit_test(pmdaindom_offsets),
        cmocka_unit_test(pmdametric_offsets),
        cmocka_unit_test(pmdaext_identity_offsets),
        cmocka_unit_test(pmdaext_int_field_offsets),
        cmocka_unit_test(pmdaext_table_offsets),
        cmocka_unit_test(pmdaext_callback_offsets),
        cmocka_unit_test(pmdainterface_header_offsets),
        cmocka_unit_test(pmdainterface_version_any_offsets),
        cmocka_unit_test(pmdainterface_version_two_three_alias_any),
        cmocka_unit_test(pmdainterface_version_four_five_offsets),
        cmocka_unit_test(pmdainterface_version_six_seven_offsets),
        cmocka_unit_test(pmdso_offsets),
        cmocka_unit_test(pmdaoptions_offsets),
        cmocka_unit_test(pmdaoptions_shares_leading_fields_with_pmoptions),
        cmocka_unit_test(pmlongoptions_offsets),
        cmocka_unit_test(pmlabel_layout),
        cmocka_unit_test(pmlabelset_layout),
        cmocka_unit_test(pmdainterface_comm_word_layout),
        cmocka_unit_test(pmda_pmunits_macro_builds_pmunits),
        cmocka_unit_test(pmda_pmunits_macro_in_metric_table),
        cmocka_unit_test(pmda_interface_versions),
        cmocka_unit_test(pmda_io_type_enumerators),
        cmocka_unit_test(pmda_fetch_return_codes),
        cmocka_unit_test(pmda_ext_flag_bits),
        cmocka_unit_test(pmda_comm_flag_bits),
        cmocka_unit_test(pmda_attribute_codes),
        cmocka_unit_test(pmda_cache_operation_codes),
        cmocka_unit_test(pmda_pmid_macro_results),
        cmocka_unit_test(pmda_pmid_macro_masks_fields),
        cmocka_unit_test(pmda_options_string),
        cmocka_unit_test(pmda_option_table_macros),
        cmocka_unit_test(pmdaopt_entries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
