/* ! && || and their values and precedence */
#if !0 && !!5 && !(1 && 0)
not
#endif
#if (2 && 3) == 1 && (0 || 7) == 1 && (0 || 0) == 0
values
#endif
#if 0 || 0 && 1
bad-prec
#else
and-binds-tighter
#endif
#if 1 || 0 && 0
or-last
#endif
#if !5 == 0 && !0 == 1
not-values
#endif
