/*
 * Domain numbers, in the style of $PCP_VAR_DIR/pmns/stdpmid
 */
#define PMCD 2
#define PROC 3
#define LINUX 60
#define MMV 70
