/* #define and #undef inside a false group have no effect */
#define KEEP kept
#ifdef NOPE
#undef KEEP
#define NEW new
#endif
KEEP NEW
#ifndef KEEP
#define NEW2 bad
#endif
NEW2
