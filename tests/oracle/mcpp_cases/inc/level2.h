level2-start
#include "inc/level3.h"
level2-end
