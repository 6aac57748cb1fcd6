pmgenmap -?
