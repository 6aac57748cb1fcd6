pmerr abc "" 12x -0x10 7.5
