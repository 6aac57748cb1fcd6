/* directive lines are not macro-expanded: #ifdef tests the name itself */
#define ALIAS target
#ifdef ALIAS
alias-defined
#endif
#ifdef target
target-defined
#endif
#ifndef target
target-undefined ALIAS
#endif
