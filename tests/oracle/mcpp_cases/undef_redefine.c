/* #undef and a new definition, observed through #if */
#define V 1
#if V == 1
v-is-one
#endif
#undef V
#if defined(V)
bad
#elif V == 0
v-gone
#endif
#define V 2
#if V == 2
v-is-two V
#endif
