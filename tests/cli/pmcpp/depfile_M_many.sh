i=1; while [ $i -le 1100 ]; do echo "x" > f$i; echo "#include \"f$i\""; i=$((i + 1)); done > root; pmcpp -M root | tr -d '\\\n' | tr -s ' ' '\n' | grep -c .
