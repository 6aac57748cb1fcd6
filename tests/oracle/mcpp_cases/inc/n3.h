#ifdef N2_H
n3 N3_VALUE
#endif
