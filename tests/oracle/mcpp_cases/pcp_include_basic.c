before
#include "inc/plain.h"
after
