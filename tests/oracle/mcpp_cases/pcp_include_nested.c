/* includes nested three levels deep (the limit of PCP pmcpp is four) */
top-start
#include "inc/level1.h"
top-end
