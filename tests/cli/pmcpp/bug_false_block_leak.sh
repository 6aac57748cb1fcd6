printf '#ifdef NOTDEF\n#pragma x\nhidden\n#endif\nafter\n' | pmcpp -P
