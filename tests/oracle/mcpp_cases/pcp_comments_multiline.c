/*
 * A block comment spanning several lines,
 * containing directive-looking lines:
#define HIDDEN 1
#ifdef HIDDEN
 * and macro names: SHOWN
 */
#define SHOWN visible
start SHOWN /* comment that
continues here
and ends at the end of a line */
/* comment that starts a line
   and ends before text */ SHOWN end
HIDDEN
/*
#endif
*/
last
