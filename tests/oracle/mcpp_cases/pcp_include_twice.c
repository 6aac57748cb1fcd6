/* a file without a guard can be included twice */
#include "inc/plain.h"
middle
#include "inc/plain.h"
