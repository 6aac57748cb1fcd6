printf '#define X a b\n#endif\n#define 1x\n#if 1/0\n#endif\n#include nofile\nend\n' | PMKIT_DIAGNOSTICS=rich pmcpp -P
