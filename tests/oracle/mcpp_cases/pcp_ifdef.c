/* #ifdef and #ifndef without #else */
#define YES
#ifdef YES
in-ifdef-yes
#endif
#ifdef NO
in-ifdef-no
#endif
#ifndef NO
in-ifndef-no
#endif
#ifndef YES
in-ifndef-yes
#endif
after
