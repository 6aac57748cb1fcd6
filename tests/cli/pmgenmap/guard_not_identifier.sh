pmgenmap -g 9lives </dev/null
