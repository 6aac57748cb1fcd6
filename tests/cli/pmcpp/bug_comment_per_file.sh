printf 'a /* open\n' > inc; printf '#include "inc"\nafter */ still\n' > main; pmcpp -P main
