printf '#define A\n#ifdef A\nx\n' | pmcpp
