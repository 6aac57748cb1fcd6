printf '#ifdef FOO\na\n#else\nb\n#endif\n#ifdef FOO\nc\n#else\nd\n#endif\n' | pmcpp -P
