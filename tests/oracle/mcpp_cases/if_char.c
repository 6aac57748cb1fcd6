/* character constants in #if (single characters only; no macros here) */
#if 'a' == 97
lower-a
#endif
#if 'A' + 1 == 'B'
arith
#endif
#if '0' == 48 && '9' - '0' == 9
digits
#endif
#if '\n' == 10 && '\t' == 9 && '\0' == 0
escapes
#endif
#if '\x41' == 65 && '\101' == 65
numeric-escapes
#endif
#if '\\' == 92 && '\'' == 39 && '"' == 34
quotes
#endif
