/* defined(X) and defined X; the operand is not macro-expanded */
#define A
#define B 0
#if defined(A)
paren
#endif
#if defined A
noparen
#endif
#if defined ( A )
spaced
#endif
#if defined(B) && !B
defined-but-zero
#endif
#if !defined(C) && !defined C
not-defined
#endif
#if defined(A) + defined B + defined(C) == 2
sum
#endif
#if defined A && defined(B) || defined C
mixed
#endif
#if (defined(A))
wrapped
#endif
