/* #include in a false group is not executed (the file does not exist) */
#ifdef NOPE
#include "inc/does-not-exist.h"
#endif
#ifndef NOPE
#include "inc/plain.h"
#endif
done
