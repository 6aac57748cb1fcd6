/* values are single words without blanks, substituted verbatim */
#define NEG -1
#define PAREN (2)
#define SUM 1+2
#define DOTTED a.b.c
#define COLONS 1:2:3
#define STAR *
#define HEX 0xff
x NEG PAREN SUM DOTTED COLONS STAR HEX
[NEG][SUM]
