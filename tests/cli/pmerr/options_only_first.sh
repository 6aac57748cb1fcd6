pmerr 5 -l
