/*
 * The conditional operator.  mcpp 2.7.2 evaluates ?: wrongly in two
 * situations, which this case (and the whole corpus) therefore avoids:
 *  - a parenthesised ?: as the right operand of a binary operator:
 *    A op (C ? X : Y) gives C op (C ? X : Y), e.g. 3 + (0 ? 5 : 6) is 6;
 *  - a ?: nested in the second operand, or in the third operand after a
 *    true condition: 1 ? 0 ? 3 : 4 : 5 is 5, 1 ? 1 : 0 ? 3 : 4 is 3.
 * So a parenthesised ?: only ever starts an expression here, and nesting
 * is only the chain a ? b : c ? d : e with a false first condition.
 */
#if 1 ? 1 : 0
tern-1
#endif
#if 0 ? 1 : 0
bad
#else
tern-2
#endif
#if (1 ? 2 : 3) == 2
tern-3
#endif
#if (0 ? 2 : 3) == 3
tern-4
#endif
#if (0 ? 1 : 0 ? 2 : 3) == 3
tern-chain-1
#endif
#if (0 ? 1 : 1 ? 2 : 3) == 2
tern-chain-2
#endif
#if (1 ? 5 : 6) + 1 == 6
tern-then-add
#endif
#if (0 || 1 ? 7 : 8) == 7
tern-after-or
#endif
#if (1 && 0 ? 7 : 8) == 8
tern-after-and
#endif
#if (2 > 1 ? 10 : 20) == 10
tern-after-compare
#endif
#if (1 ? 2 : 3 + 4) == 2
tern-third-operand
#endif
#if (0 ? 1 : 2 + 3) == 5
tern-third-operand-2
#endif
