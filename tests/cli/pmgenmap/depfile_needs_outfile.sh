pmgenmap -M map.d </dev/null
