/*
 * fuzz_units.c - libFuzzer target for pmParseUnitsStr
 * (libpcp/values/units_parse.c).
 *
 * The input, cut at its first NUL, is parsed twice, with and without an
 * errMsg.  Checked: the status is 0 or PM_ERR_CONV, the same both times,
 * with the same outputs bit for bit; a success leaves no message, space
 * and time scales PCP knows (the powers and the count scale are 4-bit
 * fields: any value they hold is one PCP has), a zero scale wherever the
 * power is 0, pad 0, and parses back from pmUnitsStr's text to the same units with a
 * multiplier of exactly 1; a failure leaves zeroed units, a multiplier of
 * 1 and one of PCP's five messages.
 */
#include <pcp/pmapi.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const messages[] = {
    "unrecognized or duplicate base unit", "invalid floating point literal",
    "space dimension out of bounds",       "time dimension out of bounds",
    "count dimension out of bounds",
};

/* Aborts unless MSG is one of PCP's messages. */
static void check_message(const char *msg)
{
    if (msg == NULL)
        abort();
    for (size_t i = 0; i < sizeof(messages) / sizeof(messages[0]); i++) {
        if (strcmp(msg, messages[i]) == 0)
            return;
    }
    abort();
}

/* Aborts unless U is a well-formed result of a successful parse. */
static void check_units(const pmUnits *u)
{
    if (u->scaleSpace > PM_SPACE_YBYTE || u->scaleTime > PM_TIME_HOUR || u->pad != 0)
        abort();
    if ((u->dimSpace == 0 && u->scaleSpace != 0) || (u->dimTime == 0 && u->scaleTime != 0) ||
        (u->dimCount == 0 && u->scaleCount != 0))
        abort();
}

/* Aborts unless pmUnitsStr's text for U parses back to U, multiplier 1. */
static void check_round_trip(const pmUnits *u)
{
    char text[128], *msg = NULL;
    pmUnits back;
    double mult = 0;

    if (pmUnitsStr_r(u, text, (int)sizeof(text)) == NULL)
        abort();
    if (pmParseUnitsStr(text, &back, &mult, &msg) != 0 || msg != NULL)
        abort();
    if (memcmp(&back, u, sizeof(back)) != 0 || mult != 1.0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *str = malloc(size + 1), *msg = NULL;
    pmUnits u1, u2;
    double m1 = -7, m2 = -7;
    int s1, s2;

    if (str == NULL)
        return 0;
    memcpy(str, data, size);
    str[size] = '\0';
    memset(&u1, 0xff, sizeof(u1));
    memset(&u2, 0xff, sizeof(u2));
    s1 = pmParseUnitsStr(str, &u1, &m1, &msg);
    s2 = pmParseUnitsStr(str, &u2, &m2, NULL);
    if (s1 != s2 || (s1 != 0 && s1 != PM_ERR_CONV))
        abort();
    /* the same outputs, NaN payloads and signed zeros included */
    if (memcmp(&u1, &u2, sizeof(u1)) != 0 || memcmp(&m1, &m2, sizeof(m1)) != 0)
        abort();
    if (s1 == 0) {
        if (msg != NULL)
            abort();
        check_units(&u1);
        check_round_trip(&u1);
    } else {
        pmUnits zero;

        memset(&zero, 0, sizeof(zero));
        if (memcmp(&u1, &zero, sizeof(zero)) != 0 || m1 != 1.0)
            abort();
        check_message(msg);
    }
    free(msg);
    free(str);
    return 0;
}
