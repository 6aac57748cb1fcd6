pmerr
