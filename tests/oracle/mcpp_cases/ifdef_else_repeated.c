/* several flat #ifdef/#else blocks whose #else is taken (PCP pmcpp bug) */
#ifdef A
#else
first-else
#endif
#ifdef B
#else
second-else
#endif
#ifndef C
#else
#endif
#ifdef D
#else
third-else
#endif
