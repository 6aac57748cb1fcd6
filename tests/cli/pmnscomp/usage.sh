pmnscomp -?
