/* decimal, octal and hexadecimal literals and integer suffixes */
#if 10 == 10
dec
#endif
#if 012 == 10
oct
#endif
#if 0xa == 10 && 0XA == 10 && 0xA == 0Xa
hex
#endif
#if 0 == 00 && 0x0 == 0
zeros
#endif
#if 10u == 10 && 10U == 10 && 10l == 10 && 10L == 10
suffix-1
#endif
#if 10ul == 10 && 10UL == 10 && 10lu == 10 && 10LU == 10 && 10uL == 10 && 10Lu == 10
suffix-2
#endif
#if 10ll == 10 && 10LL == 10 && 10ull == 10 && 10ULL == 10 && 10llu == 10 && 0x10LL == 16
suffix-3
#endif
#if 077u == 63 && 0xffUL == 255
suffix-4
#endif
