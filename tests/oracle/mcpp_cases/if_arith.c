/* + - * / % : precedence, associativity, truncation toward zero */
#if 1 + 2 * 3 == 7
prec-1
#endif
#if (1 + 2) * 3 == 9
prec-2
#endif
#if 10 - 4 - 3 == 3
left-assoc-sub
#endif
#if 100 / 10 / 5 == 2
left-assoc-div
#endif
#if 17 % 5 == 2 && 2 * 3 % 4 == 2
mod
#endif
#if -5 / 2 == -2 && -5 % 2 == -1 && 5 % -3 == 2 && -7 / -2 == 3
trunc
#endif
#if -3 + 5 == 2 && - 3 * - 3 == 9 && +4 == 4 && - -4 == 4
unary
#endif
#if 1000000 * 1000000 == 1000000000000
wide
#endif
#if 7 / 2 * 2 == 6
int-division
#endif
