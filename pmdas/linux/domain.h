/* The linux agent's performance metrics domain (PCP's stdpmid). */
#define LINUX 60
