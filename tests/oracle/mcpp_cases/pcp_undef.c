/* #undef removes a macro; it may then be defined again */
#define V 1
one V
#undef V
two V
#define V 2
three V
#undef V
#undef V
#undef NEVER_DEFINED
four V
