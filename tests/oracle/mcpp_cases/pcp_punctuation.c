/* macros next to punctuation */
#define N 7
#define NAME ident
x->NAME
a==N;b!=N
{NAME}[N](N)
N%N^N|N&N
-N +N ~N !N
NAME? N: N
<<N>> N<=N>=N
NAME.NAME->NAME
*NAME, &NAME
