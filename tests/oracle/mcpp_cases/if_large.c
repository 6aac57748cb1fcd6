/* #if arithmetic is done in (at least) 64 bits */
#if 9223372036854775807 == 0x7fffffffffffffff
max-signed
#endif
#if -9223372036854775807 - 1 < 0
min-signed
#endif
#if 0x7fffffffffffffff > 0
positive
#endif
#if 4294967296 == 0x100000000 && 4294967295 + 1 == 4294967296
beyond-32-bit
#endif
#if 0x7fffffffffffffff / 0x100000000 == 0x7fffffff
divide
#endif
