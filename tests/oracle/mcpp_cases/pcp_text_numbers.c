/* numbers in text lines (no macro name ever appears inside a number) */
#define MINOR 5
#define MAJOR 3
version MAJOR.MINOR
numbers 1.5 2e10 0x1F 077 10u
ratio MAJOR/MINOR
