/* the usual include guard: the second inclusion is empty */
#include "inc/guarded.h"
#include "inc/guarded.h"
GUARDED_VALUE
