/* comments within one line */
x /* c */ y
x/*c*/y
/**/lead
trail/**/
a /* one */ b /* two */ c
   /* only a comment, indented */
/* first */ /* second */ z
p/* no space */q
k /* comment with * and / inside */ l
m /* comment with "quotes" inside */ n
