mkdir d; pmcpp d
