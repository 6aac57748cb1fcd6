/* #if, #ifdef and #ifndef nested in one another */
#define FEATURE 2
#ifndef OFF
#if FEATURE > 1
#ifdef FEATURE
level3 FEATURE
#else
bad-1
#endif
#elif FEATURE == 1
bad-2
#endif
#else
bad-3
#endif
#if 0
#ifndef OFF
bad-4
#endif
#else
#ifndef OFF
#if FEATURE
else-ifndef-if
#endif
#endif
#endif
