printf '#shell "exit 3"\nafter\n' | pmcpp -P
