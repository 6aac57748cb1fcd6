/* #else at several nesting levels, in true and false outer groups */
#define X
#ifdef X
#ifdef Y
x-y
#else
x-noty
#ifndef Z
x-noty-noz
#else
x-noty-z
#endif
#endif
#else
#ifdef Y
nox-y
#else
nox-noty
#endif
#endif
#ifndef X
#else
#ifdef X
x-again
#endif
#endif
