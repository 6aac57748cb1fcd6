/* directives inside comments in a false group do not count */
#ifdef NOPE
hidden1
/* #endif */
hidden2
/*
#else
*/
hidden3
#else
shown
#endif
