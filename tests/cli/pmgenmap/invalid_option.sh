pmgenmap -x
