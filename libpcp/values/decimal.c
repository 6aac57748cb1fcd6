/*
 * decimal.c - numbers as decimal text without printf, for the helpers that
 * format one value a call (pmIDStr, pmAtomStr, pmPrintValue): the digits
 * of an integer, and the first P significant digits of a double rounded as
 * printf rounds them (to nearest, a tie to even, from the double's exact
 * binary value).  Each caller lays the digits out in its own format; what
 * is not computed exactly here (subnormals, the far ends of the exponent
 * range, another rounding mode) is left to printf by the caller.
 */
#include "values.h"

#include <fenv.h>
#include <string.h>

char *pmkit_u64_digits(char *end, uint64_t v)
{
    static const char pairs[] = "0001020304050607080910111213141516171819"
                                "2021222324252627282930313233343536373839"
                                "4041424344454647484950515253545556575859"
                                "6061626364656667686970717273747576777879"
                                "8081828384858687888990919293949596979899";

    while (v >= 100) {
        unsigned r = (unsigned)(v % 100);
        v /= 100;
        end -= 2;
        memcpy(end, pairs + 2 * r, 2);
    }
    if (v >= 10) {
        end -= 2;
        memcpy(end, pairs + 2 * v, 2);
    } else {
        *--end = (char)('0' + v);
    }
    return end;
}

char *pmkit_exp10_text(char *o, int x)
{
    *o++ = 'e';
    *o++ = x < 0 ? '-' : '+';
    x = x < 0 ? -x : x;
    if (x >= 100)
        *o++ = (char)('0' + x / 100);
    *o++ = (char)('0' + x / 10 % 10);
    *o++ = (char)('0' + x % 10);
    return o;
}

__extension__ typedef unsigned __int128 u128;

/* round-half-even(a * 10^s) for a = m * 2^e (m < 2^53), in 128 bits:
 * 0 with *out, or -1 outside the range computed exactly. */
static int scaled_digits(uint64_t m, int e, int s, u128 *out)
{
    static const uint64_t p10[20] = {1,
                                     10,
                                     100,
                                     1000,
                                     10000,
                                     100000,
                                     1000000,
                                     10000000,
                                     100000000,
                                     1000000000,
                                     10000000000,
                                     100000000000,
                                     1000000000000,
                                     10000000000000,
                                     100000000000000,
                                     1000000000000000,
                                     10000000000000000,
                                     100000000000000000,
                                     1000000000000000000,
                                     10000000000000000000u};
    u128 num, den, q, r;

    if (s >= 0) {
        /* m * 10^s, exact below 2^128 for s <= 22 (10^22 < 2^74) */
        if (s > 22)
            return -1;
        num = (u128)m * (s <= 19 ? p10[s] : p10[19]);
        for (int i = 19; i < s; i++)
            num *= 10;
        if (e >= 0) {
            if (e > 10) /* a * 10^s below 10^17 always: never taken for a kept value */
                return -1;
            *out = num << e;
            return 0;
        }
        if (-e >= 127)
            return -1;
        q = num >> -e;
        r = num - (q << -e);
        den = (u128)1 << -e;
    } else {
        /* m * 2^e / 10^-s, e >= 0 here (a >= 10^16 > 2^53) */
        if (e < 0 || e > 74 || -s > 38)
            return -1;
        num = (u128)m << e;
        den = 1;
        for (int i = 0; i < -s; i++)
            den *= 10;
        q = num / den;
        r = num - q * den;
    }
    /* round to nearest, a tie to even, as printf does in that mode */
    if (r > den - r || (r == den - r && (q & 1)))
        q++;
    *out = q;
    return 0;
}

int pmkit_sig_digits(double d, int p, uint64_t *digits, int *exp10)
{
    uint64_t bits, m, lo = 1, hi;
    int e, k;

    if (p < 1 || p > 17 || fegetround() != FE_TONEAREST)
        return -1;
    memcpy(&bits, &d, sizeof(bits));
    e = (int)(bits >> 52 & 0x7ff);
    m = bits & ((UINT64_C(1) << 52) - 1);
    if (e == 0 && m == 0) {
        *digits = 0;
        *exp10 = 0;
        return 0;
    }
    if (e == 0 || e == 0x7ff)
        return -1; /* subnormal (far outside the exact range), inf, nan */
    m |= UINT64_C(1) << 52;
    e -= 1075;
    for (int i = 1; i < p; i++)
        lo *= 10;
    hi = lo * 10;
    /* floor(log10(2^(e + 52))) or one less than the decimal exponent */
    k = (int)(((int64_t)(e + 52) * 78913) >> 18);
    for (int tries = 0; tries < 3; tries++) {
        u128 q;
        if (scaled_digits(m, e, p - 1 - k, &q) < 0)
            return -1;
        if (q >= hi) {
            k++;
        } else if (q < lo) {
            k--;
        } else {
            *digits = (uint64_t)q;
            *exp10 = k;
            return 0;
        }
    }
    return -1;
}
