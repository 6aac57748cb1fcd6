pmgenmap -n nosuchns </dev/null
