/*
 * unsigned arithmetic: the usual arithmetic conversions make -1 the
 * largest value as soon as one operand is unsigned (uintmax_t in #if)
 */
#if -1 > 0u
minus-one-is-max
#endif
#if 0u - 1 == 0xffffffffffffffff
wraps
#endif
#if -1 < 0
signed-negative
#endif
#if 1u > -1
bad
#else
one-below-max
#endif
#if (1 ? -1 : 0u) > 0
cond-unsigned
#endif
#if -1 / 2u > 0
div-unsigned
#endif
#if 0xffffffffffffffff > 0 && 0xffffffffffffffff == -1
big-hex-unsigned
#endif
#if 18446744073709551615u == 0xffffffffffffffff
max-u
#endif
#if (0u - 1) / 2 == 0x7fffffffffffffff
half
#endif
#if (-1u >> 63) == 1 && 2u - 3 > 0
shift-unsigned
#endif
