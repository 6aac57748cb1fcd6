printf '#define V 3\n#if V * 2 == 6 && defined(V) && !defined W\nfirst\n#elif 1\nsecond\n#else\nthird\n#endif\n#if -1 > 0u\nunsigned\n#endif\n' | pmcpp -P
