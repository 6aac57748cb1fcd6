/* The simple agent's default performance metrics domain (PCP's stdpmid). */
#define SIMPLE 253
