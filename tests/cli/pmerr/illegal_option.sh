pmerr -x -l
