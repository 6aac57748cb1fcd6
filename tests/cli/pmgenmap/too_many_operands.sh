pmgenmap a b
