pmerr -l
