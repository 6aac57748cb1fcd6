/* & | ^ ~ << >> */
#if (5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6
and-or-xor
#endif
#if ~0 == -1 && ~5 == -6 && (~0u & 0xff) == 255
complement
#endif
#if 1 << 4 == 16 && 256 >> 4 == 16 && (1 << 62) > 0
shift
#endif
#if 1 | 2 ^ 3 & 4
prec
#endif
#if (6 & 3 == 3) == 0
prec-eq
#endif
#if 1u << 63 == 0x8000000000000000
top-bit
#endif
#if (0xf0 >> 4 | 0x0f << 4) == 0xff
mixed
#endif
