printf '#shell '"'"'echo "#define Z 9"; echo Z'"'"'\nZ\n' | pmcpp
