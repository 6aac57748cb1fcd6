/* macros defined in an included file are visible to the includer */
#define FROM_INC 22
#define INC_DOMAIN 33
inc-sees FROM_TOP
