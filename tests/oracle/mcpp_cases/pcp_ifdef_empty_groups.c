/* conditional groups without any lines */
#ifdef NOPE
#endif
#ifdef NOPE
#else
#endif
#define X
#ifdef X
#endif
#ifdef X
#else
#endif
#ifndef X
#endif
text
