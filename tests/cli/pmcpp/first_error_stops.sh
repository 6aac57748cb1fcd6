printf '#define X a b\n#endif\n#define 1x\n#include nofile\nend\n' | pmcpp -P
