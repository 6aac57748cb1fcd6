/* macro values that are identifiers (never the name of another macro) */
#define PREFIX kernel
#define LEAF utime
#define CPU percpu
PREFIX.all.cpu.LEAF
PREFIX.CPU.cpu.LEAF
metric: PREFIX . LEAF
