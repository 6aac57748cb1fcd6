printf '#ifdef A\nyes\n#else\nno\n#endif\n' | pmcpp -P -DA=1 -UA
