/* comments inside #if, #elif, #else and #endif lines */
#define A 1
#if A /* one */ == /* also one */ 1
comment-in-if
#endif
#if 0 /* false */
bad
#elif /* inside elif */ A
comment-in-elif
#else /* else comment */
bad
#endif /* endif comment */
#ifdef A/* no space */
ifdef-comment
#endif
