#ifdef OUTER
#if OUTER == 1
#define COND_RESULT outer-one
cond-included
#else
#define COND_RESULT outer-other
#endif
#endif
