printf '#define X val\nX #X #{X} ##X #X_y #_X #{X}y a#X\n#X start\n' | pmcpp -P -r
