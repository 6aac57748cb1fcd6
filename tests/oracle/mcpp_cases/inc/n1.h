#ifndef N1_H
#define N1_H
n1
#include "inc/n2.h"
#endif
