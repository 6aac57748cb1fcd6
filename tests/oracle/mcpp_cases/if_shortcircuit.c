/* && || and ?: do not evaluate the operand that does not matter */
#if 0 && 1/0
bad-1
#else
and-ok
#endif
#if 1 || 1/0
or-ok
#endif
#if 0 ? 1/0 : 1
cond-ok
#endif
#if 1 ? 1 : 1 % 0
cond-ok-2
#endif
#if (0 && (1/0)) || 1
mixed-ok
#endif
