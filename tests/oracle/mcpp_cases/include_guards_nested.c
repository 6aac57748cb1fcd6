/* include guards and conditionals across three levels of #include */
#define N3_VALUE 333
#include "inc/n1.h"
#include "inc/n1.h"
#include "inc/n2.h"
#include "inc/n3.h"
end
