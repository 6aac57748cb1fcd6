pmnscomp -n nosuch out.bin
