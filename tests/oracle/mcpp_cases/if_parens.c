/* parentheses */
#if ((((1))))
deep
#endif
#if (2 + 3) * (4 - 1) == 15
groups
#endif
#if -(2 + 3) == -5 && !(0) && ~(0) == -1
unary-group
#endif
#if ((1 + 2) * (3 + 4)) % 5 == 1
mod-group
#endif
