/*
 * A PMNS in the style of $PCP_VAR_DIR/pmns/root, with the domain
 * numbers coming from an included file
 */
#include "inc/stdpmid.h"
root {
    pmcd
    kernel
    mmv		MMV:*:*
}
pmcd {
    version	PMCD:0:1
    agent
}
pmcd.agent {
    type	PMCD:0:2
}
kernel {
    uname
    load	LINUX:2:0
}
kernel.uname {
    release	LINUX:12:0
    sysname	LINUX:12:2
}
