/* six levels of nesting */
#define L1
#define L2
#define L3
#define L4
#define L5
#ifdef L1
1
#ifdef L2
2
#ifdef L3
3
#ifdef L4
4
#ifdef L5
5
#ifdef L6
6
#else
not-6
#endif
5-end
#endif
4-end
#endif
3-end
#endif
2-end
#endif
1-end
#endif
