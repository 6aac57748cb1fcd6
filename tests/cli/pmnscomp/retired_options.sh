# PCP's -v (output format 1 or 2) is gone: pmnscomp writes its own format
pmnscomp -v 2 out.bin
