printf '#define X "a'"'"'b"'"'"'"c'"'"'\nX\n' | pmcpp -P
