/*
 * Unit tests for pmErrStr / pmErrStr_r: the text of every PCP error code,
 * errno codes, retired and out-of-range codes, the SASL / secure-sockets
 * range below PM_ERR_NYI, and truncation in the _r variant.
 *
 * Expected strings are the ones produced by PCP 6.0.3's libpcp on Debian
 * (glibc strerror text for errno values).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <limits.h>
#include <string.h>
#include <cmocka.h>

#include <pcp/pmapi.h>

struct errcase {
    int code;
    const char *text;
};

/* pmErrStr and pmErrStr_r (with a roomy buffer) both give exactly ec->text */
static void check_errcase(void **state)
{
    const struct errcase *ec = *state;
    char buf[PM_MAXERRMSGLEN];
    char *r;

    assert_string_equal(pmErrStr(ec->code), ec->text);
    memset(buf, 'X', sizeof(buf));
    r = pmErrStr_r(ec->code, buf, (int)sizeof(buf));
    assert_ptr_equal(r, buf);
    assert_string_equal(buf, ec->text);
}

/* One test case per table entry, named after the entry. */
#define EC(label, code, text)                                                                      \
    {                                                                                              \
        label, check_errcase, NULL, NULL, &(struct errcase)                                        \
        {                                                                                          \
            (code), (text)                                                                         \
        }                                                                                          \
    }

/* ---- pmErrStr_r truncation and buffer handling ---- */

static void errstr_r_truncates_pcp_text_to_buflen_minus_one(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_ptr_equal(pmErrStr_r(PM_ERR_NAME, buf, 8), buf);
    assert_string_equal(buf, "Unknown");
    assert_int_equal(buf[8], 'X'); /* nothing written past buflen */
}

static void errstr_r_truncates_one_short_of_full_length(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmErrStr_r(PM_ERR_NAME, buf, 19); /* "Unknown metric name" is 19 chars */
    assert_string_equal(buf, "Unknown metric nam");
}

static void errstr_r_exact_fit_is_not_truncated(void **state)
{
    char buf[32];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmErrStr_r(PM_ERR_NAME, buf, 20);
    assert_string_equal(buf, "Unknown metric name");
    assert_int_equal(buf[20], 'X');
}

/* The longest table text (61 characters) in buffers around 64 bytes, the
 * size from which pmErrStr_r copies a whole fixed slot: the whole text,
 * truncated only when it does not fit, nothing written past buflen. */
static void errstr_r_longest_text_near_slot_size(void **state)
{
    static const char text[] = "Metric not supported by this version of monitored application";
    char buf[80];
    (void)state;
    for (int len = 60; len <= 66; len++) {
        memset(buf, 'X', sizeof(buf));
        assert_ptr_equal(pmErrStr_r(PM_ERR_APPVERSION, buf, len), buf);
        if (len >= (int)sizeof(text))
            assert_string_equal(buf, text);
        else
            assert_memory_equal(buf, text, (size_t)len - 1);
        assert_int_equal(buf[len - 1 < (int)sizeof(text) - 1 ? len - 1 : (int)sizeof(text) - 1],
                         '\0');
        for (int i = len; i < (int)sizeof(buf); i++)
            assert_int_equal(buf[i], 'X');
    }
}

static void errstr_r_buflen_one_gives_empty_string(void **state)
{
    char buf[8];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    assert_ptr_equal(pmErrStr_r(PM_ERR_NAME, buf, 1), buf);
    assert_int_equal(buf[0], '\0');
    assert_int_equal(buf[1], 'X');
}

static void errstr_r_buflen_zero_leaves_buffer_untouched(void **state)
{
    char buf[8];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmErrStr_r(PM_ERR_NAME, buf, 0);
    assert_int_equal(buf[0], 'X');
}

static void errstr_r_truncates_errno_text(void **state)
{
    char buf[16];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmErrStr_r(-2, buf, 5);
    assert_string_equal(buf, "No s");
}

static void errstr_r_errno_texts_cut_at_every_length(void **state)
{
    static const int codes[] = {-1, -2, -13, -28, -110, -133, -134, -200, -4000, -12344};
    (void)state;
    for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
        char whole[PM_MAXERRMSGLEN], buf[PM_MAXERRMSGLEN + 1];
        size_t len = strlen(pmErrStr_r(codes[i], whole, (int)sizeof(whole)));
        assert_true(len > 0);
        for (int n = 1; n <= (int)len + 1; n++) {
            size_t keep = (size_t)n - 1 < len ? (size_t)n - 1 : len;
            memset(buf, 'X', sizeof(buf));
            assert_ptr_equal(pmErrStr_r(codes[i], buf, n), buf);
            assert_memory_equal(buf, whole, keep);
            assert_int_equal(buf[keep], '\0');
            assert_int_equal(buf[n], 'X');
        }
    }
}

static void errstr_r_truncates_no_error_text(void **state)
{
    char buf[16];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmErrStr_r(0, buf, 3);
    assert_string_equal(buf, "No");
}

static void errstr_r_truncates_unknown_code_text(void **state)
{
    char buf[16];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmErrStr_r(-12352, buf, 10);
    assert_string_equal(buf, "No such P");
}

static void errstr_r_truncates_sasl_text(void **state)
{
    char buf[16];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmErrStr_r(-21345, buf, 10);
    assert_string_equal(buf, "Authentic");
}

static void errstr_r_truncates_secure_sockets_text(void **state)
{
    char buf[16];
    (void)state;
    memset(buf, 'X', sizeof(buf));
    pmErrStr_r(-30000, buf, 10);
    assert_string_equal(buf, "Unknown s");
    assert_int_equal(buf[10], 'X');
}

static void errstr_all_pcp_texts_fit_in_maxerrmsglen(void **state)
{
    (void)state;
    for (int code = PM_ERR_NYI; code <= -PM_ERR_BASE; code++)
        assert_true(strlen(pmErrStr(code)) < PM_MAXERRMSGLEN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        /* rule 1: zero */
        EC("zero is No error", 0, "No error"),

        /* rule 4: every PM_ERR_* code, exact text */
        EC("PM_ERR_GENERIC", -12345, "Generic error, already reported above"),
        EC("PM_ERR_PMNS", -12346, "Problems parsing PMNS definitions"),
        EC("PM_ERR_NOPMNS", -12347, "PMNS not accessible"),
        EC("PM_ERR_DUPPMNS", -12348, "Attempt to reload the PMNS"),
        EC("PM_ERR_TEXT", -12349, "One-line or help text is not available"),
        EC("PM_ERR_APPVERSION", -12350,
           "Metric not supported by this version of monitored application"),
        EC("PM_ERR_VALUE", -12351, "Missing metric value(s)"),
        EC("PM_ERR_TIMEOUT", -12353, "Timeout waiting for a response from PMCD"),
        EC("PM_ERR_NODATA", -12354, "Empty archive log file"),
        EC("PM_ERR_RESET", -12355, "PMCD reset or configuration change"),
        EC("PM_ERR_NAME", -12357, "Unknown metric name"),
        EC("PM_ERR_PMID", -12358, "Unknown or illegal metric identifier"),
        EC("PM_ERR_INDOM", -12359, "Unknown or illegal instance domain identifier"),
        EC("PM_ERR_INST", -12360, "Unknown or illegal instance identifier"),
        EC("PM_ERR_UNIT", -12361, "Illegal pmUnits specification"),
        EC("PM_ERR_CONV", -12362, "Impossible value or scale conversion"),
        EC("PM_ERR_TRUNC", -12363, "Truncation in value conversion"),
        EC("PM_ERR_SIGN", -12364, "Negative value in conversion to unsigned"),
        EC("PM_ERR_PROFILE", -12365, "Explicit instance identifier(s) required"),
        EC("PM_ERR_IPC", -12366, "IPC protocol failure"),
        EC("PM_ERR_EOF", -12368, "IPC channel closed"),
        EC("PM_ERR_NOTHOST", -12369, "Operation requires context with host source of metrics"),
        EC("PM_ERR_EOL", -12370, "End of PCP archive log"),
        EC("PM_ERR_MODE", -12371, "Illegal mode specification"),
        EC("PM_ERR_LABEL", -12372, "Illegal label record at start of a PCP archive log file"),
        EC("PM_ERR_LOGREC", -12373, "Corrupted record in a PCP archive log"),
        EC("PM_ERR_NOTARCHIVE", -12374,
           "Operation requires context with archive source of metrics"),
        EC("PM_ERR_LOGFILE", -12375, "Missing PCP archive log file"),
        EC("PM_ERR_NOCONTEXT", -12376, "Attempt to use an illegal context"),
        EC("PM_ERR_PROFILESPEC", -12377, "NULL pmInDom with non-NULL instlist"),
        EC("PM_ERR_PMID_LOG", -12378, "Metric not defined in the PCP archive log"),
        EC("PM_ERR_INDOM_LOG", -12379,
           "Instance domain identifier not defined in the PCP archive log"),
        EC("PM_ERR_INST_LOG", -12380, "Instance identifier not defined in the PCP archive log"),
        EC("PM_ERR_NOPROFILE", -12381, "Missing profile - protocol botch"),
        EC("PM_ERR_NOAGENT", -12386, "No PMCD agent for domain of request"),
        EC("PM_ERR_PERMISSION", -12387, "No permission to perform requested operation"),
        EC("PM_ERR_CONNLIMIT", -12388, "PMCD connection limit for this host exceeded"),
        EC("PM_ERR_AGAIN", -12389, "Try again. Information not currently available"),
        EC("PM_ERR_ISCONN", -12390, "Already Connected"),
        EC("PM_ERR_NOTCONN", -12391, "Not Connected"),
        EC("PM_ERR_NEEDPORT", -12392, "A non-null port name is required"),
        EC("PM_ERR_NONLEAF", -12394, "Metric name is not a leaf in PMNS"),
        EC("PM_ERR_TYPE", -12397, "Unknown or illegal metric type"),
        EC("PM_ERR_THREAD", -12398, "Operation not supported for multi-threaded applications"),
        EC("PM_ERR_NOCONTAINER", -12399, "Container not found"),
        EC("PM_ERR_BADSTORE", -12400, "Bad input to pmstore"),
        EC("PM_ERR_LOGOVERLAP", -12401, "Archives overlap in time"),
        EC("PM_ERR_LOGHOST", -12402, "Archives differ by host"),
        EC("PM_ERR_LOGCHANGETYPE", -12404, "The type of a metric has changed in an archive"),
        EC("PM_ERR_LOGCHANGESEM", -12405, "The semantics of a metric has changed in an archive"),
        EC("PM_ERR_LOGCHANGEINDOM", -12406,
           "The instance domain of a metric has changed in an archive"),
        EC("PM_ERR_LOGCHANGEUNITS", -12407, "The units of a metric have changed in an archive"),
        EC("PM_ERR_NEEDCLIENTCERT", -12408, "PMCD requires a client certificate"),
        EC("PM_ERR_BADDERIVE", -12409, "Derived metric definition failed"),
        EC("PM_ERR_NOLABELS", -12410, "No support for metric label metadata"),
        EC("PM_ERR_PMDAFENCED", -12411,
           "PMDA is currently fenced and unable to respond to requests"),
        EC("PM_ERR_RECTYPE", -12412, "Incorrect record type in an archive"),
        EC("PM_ERR_FEATURE", -12413, "Archive feature not supported"),
        EC("PM_ERR_TLS", -12414, "TLS protocol failure"),
        EC("PM_ERR_BOTCH", -12442, "Internal inconsistency detected or assertion failed"),
        EC("PM_ERR_TOOSMALL", -12443, "Insufficient elements in list"),
        EC("PM_ERR_TOOBIG", -12444, "Result size exceeded"),
        EC("PM_ERR_FAULT", -12445, "QA fault injected"),
        EC("PM_ERR_PMDAREADY", -13393, "PMDA is now responsive to requests"),
        EC("PM_ERR_PMDANOTREADY", -13394, "PMDA is not yet ready to respond to requests"),
        EC("PM_ERR_NYI", -21344, "Functionality not yet implemented"),

        /* rule 3: -12345 < code < 0 is strerror(-code), glibc text */
        EC("errno EPERM", -1, "Operation not permitted"),
        EC("errno ENOENT", -2, "No such file or directory"),
        EC("errno EINTR", -4, "Interrupted system call"),
        EC("errno ENOMEM", -12, "Cannot allocate memory"),
        EC("errno EACCES", -13, "Permission denied"),
        EC("errno EINVAL", -22, "Invalid argument"),
        EC("errno EPIPE", -32, "Broken pipe"),
        EC("errno ETIMEDOUT", -110, "Connection timed out"),
        EC("errno ECONNREFUSED", -111, "Connection refused"),
        EC("errno unknown 134", -134, "Unknown error 134"),
        EC("errno unknown 4000", -4000, "Unknown error 4000"),
        EC("errno unknown 12000", -12000, "Unknown error 12000"),
        EC("errno unknown 12344 (just above PCP range)", -12344, "Unknown error 12344"),

        /* rule 5: retired codes */
        EC("retired LICENSE -12352", -12352, "No such PMAPI error code (-12352)"),
        EC("retired FILE -12356", -12356, "No such PMAPI error code (-12356)"),
        EC("retired NOASCII -12367", -12367, "No such PMAPI error code (-12367)"),
        EC("retired WANTACK -12393", -12393, "No such PMAPI error code (-12393)"),
        EC("retired OBJSTYLE -12395", -12395, "No such PMAPI error code (-12395)"),
        EC("retired PMCDLICENSE -12396", -12396, "No such PMAPI error code (-12396)"),
        EC("retired LOGTIMEZONE -12403", -12403, "No such PMAPI error code (-12403)"),

        /* rule 5: unassigned codes inside the PCP range */
        EC("unassigned -12382", -12382, "No such PMAPI error code (-12382)"),
        EC("unassigned -12385", -12385, "No such PMAPI error code (-12385)"),
        EC("unassigned -12415", -12415, "No such PMAPI error code (-12415)"),
        EC("unassigned -12441", -12441, "No such PMAPI error code (-12441)"),
        EC("unassigned -12446", -12446, "No such PMAPI error code (-12446)"),
        EC("unassigned -13392", -13392, "No such PMAPI error code (-13392)"),
        EC("unassigned -13395", -13395, "No such PMAPI error code (-13395)"),
        EC("unassigned -21343 (just above NYI)", -21343, "No such PMAPI error code (-21343)"),

        /* rule 5: positive codes */
        EC("positive 1", 1, "No such PMAPI error code (1)"),
        EC("positive 5", 5, "No such PMAPI error code (5)"),
        EC("positive 12345", 12345, "No such PMAPI error code (12345)"),
        EC("positive INT_MAX", INT_MAX, "No such PMAPI error code (2147483647)"),

        /* rule 2: below PM_ERR_NYI, SASL range (error = code + 21344 >= -1000) */
        EC("SASL -21345", -21345, "Authentication - generic failure"),
        EC("SASL -21346", -21346, "Authentication - no memory available"),
        EC("SASL -21347", -21347, "Authentication - overflowed buffer"),
        EC("SASL -21348", -21348, "Authentication - no mechanism available"),
        EC("SASL -21349", -21349, "Authentication - bad protocol / cancel"),
        EC("SASL -21350", -21350,
           "Authentication - can't request information until later in exchange"),
        EC("SASL -21351", -21351, "Authentication - invalid parameter supplied"),
        EC("SASL -21352", -21352, "Authentication - transient failure (e.g., weak key)"),
        EC("SASL -21353", -21353, "Authentication - integrity check failed"),
        EC("SASL -21354", -21354, "Authentication - server failed mutual authentication step"),
        EC("SASL -21355", -21355, "Authentication - mechanism doesn't support requested feature"),
        EC("SASL -21356", -21356, "Authentication - SASL library is not initialized"),
        EC("SASL -21357", -21357, "Authentication - authentication failure"),
        EC("SASL -21358", -21358, "Authentication - authorization failure"),
        EC("SASL -21359", -21359, "Authentication - mechanism too weak for this user"),
        EC("SASL -21360", -21360, "Authentication - encryption needed to use mechanism"),
        EC("SASL -21361", -21361,
           "Authentication - One time use of a plaintext password will enable requested mechanism "
           "for user"),
        EC("SASL -21362", -21362, "Authentication - passphrase expired, has to be reset"),
        EC("SASL -21363", -21363, "Authentication - account disabled"),
        EC("SASL -21364", -21364, "Authentication - user not found"),
        EC("SASL -21365", -21365, "Authentication - passphrase locked"),
        EC("SASL -22344 (error -1000, last SASL slot)", -22344,
           "Authentication - undefined error!"),

        /* rule 2: below the SASL window */
        EC("secure sockets -22345 (error -1001)", -22345,
           "Unknown secure sockets error -22345 (-1001)"),
        EC("secure sockets -30000", -30000, "Unknown secure sockets error -30000 (-8656)"),
        EC("secure sockets -100000", -100000, "Unknown secure sockets error -100000 (-78656)"),
        EC("secure sockets INT_MIN", INT_MIN,
           "Unknown secure sockets error -2147483648 (-2147462304)"),

        cmocka_unit_test(errstr_r_truncates_pcp_text_to_buflen_minus_one),
        cmocka_unit_test(errstr_r_truncates_one_short_of_full_length),
        cmocka_unit_test(errstr_r_exact_fit_is_not_truncated),
        cmocka_unit_test(errstr_r_longest_text_near_slot_size),
        cmocka_unit_test(errstr_r_buflen_one_gives_empty_string),
        cmocka_unit_test(errstr_r_buflen_zero_leaves_buffer_untouched),
        cmocka_unit_test(errstr_r_truncates_errno_text),
        cmocka_unit_test(errstr_r_errno_texts_cut_at_every_length),
        cmocka_unit_test(errstr_r_truncates_no_error_text),
        cmocka_unit_test(errstr_r_truncates_unknown_code_text),
        cmocka_unit_test(errstr_r_truncates_sasl_text),
        cmocka_unit_test(errstr_r_truncates_secure_sockets_text),
        cmocka_unit_test(errstr_all_pcp_texts_fit_in_maxerrmsglen),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
