/* #if / #elif / #else chains: the first true group wins */
#define LEVEL 2
#if LEVEL == 1
one
#elif LEVEL == 2
two
#elif LEVEL >= 2
two-or-more
#else
other
#endif
#if 0
#elif 0
#elif 0
#else
all-false-else
#endif
#if 0
zero
#elif 1
first-true-elif
#elif 1
second-true-elif
#endif
#if 1
first
#elif 1
never
#else
never-else
#endif
#if 0
#elif defined(LEVEL)
elif-defined
#endif
#if 0
#elif 0
#endif
nothing-taken-above
