/* macros with an empty value */
#define EMPTY
#define NOTHING
[EMPTY]
x EMPTY y
EMPTY
before NOTHING EMPTY after
(EMPTY,NOTHING)
