printf '#definefoo bar\nfoo\n#undefined\n#elsewhere\n' | pmcpp -P
