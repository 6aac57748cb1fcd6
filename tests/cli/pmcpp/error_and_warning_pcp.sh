printf '#warning check this\nkept\n#ifdef NOPE\n#error not reached\n#endif\n#error stop: %%s\nlast\n' | pmcpp -P
