pmcpp nosuchfile
