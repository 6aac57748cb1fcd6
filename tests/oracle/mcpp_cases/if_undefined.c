/* identifiers that are not macros evaluate to 0 in #if */
#if UNDEFINED
bad-1
#endif
#if !UNDEFINED
not-undefined
#endif
#if UNDEFINED == 0
equals-zero
#endif
#if FOO + BAR * 3 == 0
sum-zero
#endif
#if UNDEFINED || 1
or
#endif
#if (UNDEFINED ? 1 : 2) == 2
cond
#endif
#if lowercase_name - 1 == -1
lower
#endif
