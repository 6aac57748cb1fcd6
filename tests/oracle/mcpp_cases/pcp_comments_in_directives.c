/* comments on directive lines */
#define A 1 /* trailing comment */
#define /* before the name */ B 2
#ifdef A /* comment after the name */
a-defined A
#endif /* A */
#ifndef B /* B */
b-undefined
#endif
#include "inc/plain.h" /* comment after include */
A B
