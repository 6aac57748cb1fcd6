/* The trivial agent's default performance metrics domain (PCP's stdpmid). */
#define TRIVIAL 250
