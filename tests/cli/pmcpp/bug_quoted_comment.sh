printf '#define X "/*"\nX */\n#shell '"'"'echo "a/*b" | tr -d /'"'"'\n' | pmcpp -P
