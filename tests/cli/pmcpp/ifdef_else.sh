printf '#ifdef A\nx\n#else\ny\n#endif\n#ifndef B\nz\n#endif\n' | pmcpp -P -DB
