printf '#ifdef A\n#ifdef B\nab\n#else\na-not-b\n#endif\n#else\nnot-a\n#endif\n' | pmcpp -P -DA
