/* macros in #if are replaced by their value before evaluation */
#define THREE 3
#define PAREN_SUM (1+2)
#define BARE_SUM 1+2
#define HEXV 0x10
#define NEG -4
#define ZERO 0
#define WORD notamacro
#if THREE * 2 == 6
simple
#endif
#if PAREN_SUM * 2 == 6
parenthesised
#endif
#if BARE_SUM * 2 == 5
textual
#endif
#if HEXV == 16 && NEG < 0 && NEG * NEG == 16
hex-neg
#endif
#if ZERO
bad
#elif !ZERO
zero
#endif
#if WORD == 0
identifier-value-is-zero
#endif
#if THREE > ZERO ? THREE : ZERO
ternary
#endif
