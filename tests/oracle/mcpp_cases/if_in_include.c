/* conditionals inside included files; #include inside #if groups */
#define OUTER 1
#if OUTER
#include "inc/cond.h"
#endif
#ifdef NOPE
#include "inc/cond.h"
#endif
after COND_RESULT
