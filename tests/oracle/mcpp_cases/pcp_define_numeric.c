/* object-like macros with numeric values, used in PMNS-like text */
#define KERNEL 60
#define ZERO 0
#define HEXDOM 0x3c
#define OCTDOM 074
root {
    kernel
}
kernel {
    load KERNEL:2:0
    uptime KERNEL:26:ZERO
    hex HEXDOM:1:1
    oct OCTDOM:1:2
}
