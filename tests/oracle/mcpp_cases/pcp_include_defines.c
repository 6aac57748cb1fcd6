/* macros flow both ways across #include */
#define FROM_TOP 11
#include "inc/defs.h"
FROM_TOP FROM_INC INC_DOMAIN:0:1
#include "inc/uses.h"
