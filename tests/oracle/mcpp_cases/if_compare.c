/* relational and equality operators */
#if 1 < 2 && 2 > 1 && 2 <= 2 && 2 >= 2 && 1 != 2 && 2 == 2
basic
#endif
#if (1 < 2) == 1 && (2 < 1) == 0
values
#endif
#if 3 > 2 > 1
chained-true
#else
chained-false
#endif
#if 1 == 1 == 1
eq-chain
#endif
#if -1 < 0 && -2 < -1
negative
#endif
#if 2 >= 3 || 3 <= 2
bad
#endif
