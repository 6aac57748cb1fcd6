printf "x\n" > in; mkdir d; pmcpp in -P -I d
