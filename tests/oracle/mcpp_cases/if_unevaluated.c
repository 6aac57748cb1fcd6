/*
 * Controlling expressions of skipped groups are not evaluated, so a
 * division by zero there is not an error (C11 6.10.1p6).
 */
#ifdef NOPE
#if 1/0
never-1
#elif 1/0
never-2
#else
never-3
#endif
#endif
#if 0
#ifdef X
#elif 1/0
#endif
#endif
#if 1
taken
#elif 1/0
never-4
#elif 2 % 0
never-5
#else
never-6
#endif
ok
