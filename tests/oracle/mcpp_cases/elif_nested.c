/* #elif in nested groups, and #elif after #ifdef / #ifndef */
#define MODE 3
#if MODE == 1
m1
#elif MODE == 3
m3
#if defined(MODE) && MODE > 2
m3-big
#elif 1
m3-never
#endif
#ifdef NOPE
nope
#elif MODE
ifdef-then-elif
#endif
#else
m-other
#if 1
never
#endif
#endif
#ifndef MODE
#elif MODE == 3
ifndef-then-elif
#endif
