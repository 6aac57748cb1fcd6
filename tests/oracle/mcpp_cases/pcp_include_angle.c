/* the <> form; found relative to the case directory */
#include <inc/plain.h>
angle-done
