/* directives inside multi-line comments in nested groups do not count */
#define T
#ifdef T
#ifdef F
/*
#endif
#endif
*/
hidden
#else
/* #else */
shown-1
#endif
/*
#endif
*/
shown-2
#endif
done
