pmcpp -x
