pmcpp a b c
