level1-start
#include "inc/level2.h"
level1-end
