#ifndef N2_H
#define N2_H
#if defined(N1_H)
n2-inside-n1
#include "inc/n3.h"
#endif
#endif
