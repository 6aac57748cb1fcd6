: | pmcpp
