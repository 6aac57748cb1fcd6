printf '#define X 1\nX\n%%define X 2\nX # X /* X */\n%%ifdef X\nyes\n%%else\nno\n%%endif\n' | pmcpp -P -s
