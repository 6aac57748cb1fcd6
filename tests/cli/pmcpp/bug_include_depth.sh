printf "five\n" > f5; for i in 4 3 2 1; do printf "#include \"f$((i+1))\"\n" > f$i; done; pmcpp -P f1
