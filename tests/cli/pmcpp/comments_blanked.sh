printf 'three /*inline comment*/\t4:5:6\na /* start\nmiddle\nend */ b\n c // cpp\n/* c */#define X 1\n' | pmcpp
