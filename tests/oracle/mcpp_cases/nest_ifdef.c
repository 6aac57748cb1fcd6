/* nested #ifdef / #ifndef / #else in true groups */
#define A
#define B
#ifdef A
a
#ifdef B
a-b
#ifdef C
a-b-c
#else
a-b-notc
#endif
#endif
#ifndef B
a-notb
#else
a-b-again
#endif
#endif
end
