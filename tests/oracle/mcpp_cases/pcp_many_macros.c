/* several macros on one line; names that merely contain a macro name */
#define A alpha
#define B beta
#define C gamma
#define AB ab-joined
A B C
A,B,C
ABC AB BA
C B A A
