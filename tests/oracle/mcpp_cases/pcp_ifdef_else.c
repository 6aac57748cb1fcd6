/*
 * #else in a true and in a false block.  (Only one #else turns a block
 * true here: PCP's own pmcpp fails on the second one, see toolchain.md
 * section 2.15, and the pcp_ cases must work with it.)
 */
#define HAVE_A 1
#ifdef HAVE_A
a-yes HAVE_A
#else
a-no HAVE_A
#endif
#ifndef HAVE_A
not-a
#else
is-a
#endif
