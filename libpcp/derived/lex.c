/*
 * lex.c - the tokens of PCP's derived-metric expressions, read one at a
 * time from an in-memory expression, as PCP's lexer reads them (probed
 * from Debian's libpcp 6.0.3):
 *
 *   blanks     isspace() bytes, skipped
 *   name       [A-Za-z][A-Za-z0-9_.]*; one of the function names
 *              (avg count delta max min sum anon rate instant mkconst
 *              rescale defined matchinst scalar) is that keyword only
 *              when '(' follows at once; type, semantics and units are
 *              keywords wherever they appear
 *   number     [0-9.]: digits, at most one '.' and digits after it; with
 *              the '.' a DOUBLE (strtod, "." alone is 0), else an INTEGER
 *              that must fit in 32 bits ("Constant value too large")
 *   string     "..." to the next '"', no escapes
 *   instance   [...] to the next ']' not escaped by '\' ('\' takes the
 *              byte after it as it is)
 *   pattern    /.../ the same way, but only inside matchinst( ... ), told
 *              by counting the parentheses opened since the keyword;
 *              elsewhere '/' is division
 *   operators  + - * ( ) ? : , = == != ! < <= > >= && ||
 * Anything else (a lone '&' or '|', '_' or a byte over 0x7f first, ...)
 * is an error token, "Illegal character".  Unterminated strings,
 * instances and patterns are error tokens with PCP's messages too.
 *
 * The position PCP reports an error at is the start of the last token
 * read, or the expression's last byte once the end has been read; the
 * lexer keeps it in here.  A token's unescaped text is in the lexer's
 * buffer until the next token.  Not here: what the tokens mean.
 */
#include "derived_int.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *word;
    dm_tok kind;
} functions[] = {
    {"avg", DT_AVG},
    {"count", DT_COUNT},
    {"delta", DT_DELTA},
    {"max", DT_MAX},
    {"min", DT_MIN},
    {"sum", DT_SUM},
    {"anon", DT_ANON},
    {"rate", DT_RATE},
    {"instant", DT_INSTANT},
    {"mkconst", DT_MKCONST},
    {"rescale", DT_RESCALE},
    {"defined", DT_DEFINED},
    {"matchinst", DT_MATCHINST},
    {"scalar", DT_SCALAR},
};

void dm_lex_init(dm_lexer *lx, const char *text, size_t len)
{
    memset(lx, 0, sizeof(*lx));
    lx->text = text;
    lx->len = len;
    lx->pattern_depth = -1;
}

void dm_lex_free(dm_lexer *lx)
{
    free(lx->buf);
    lx->buf = NULL;
    lx->buf_cap = 0;
}

/* Room for n bytes and a NUL in the token buffer. */
static int reserve(dm_lexer *lx, size_t n)
{
    if (n + 1 <= lx->buf_cap)
        return 0;
    size_t cap = lx->buf_cap ? lx->buf_cap : 64;
    while (cap < n + 1)
        cap *= 2;
    char *b = realloc(lx->buf, cap);
    if (b == NULL)
        return -ENOMEM;
    lx->buf = b;
    lx->buf_cap = cap;
    return 0;
}

static int is_name_byte(unsigned char c)
{
    return isalnum(c) || c == '_' || c == '.';
}

/* A name from lx->pos, or one of the keywords it spells. */
static void lex_name(dm_lexer *lx, dm_token *tok)
{
    const char *s = lx->text + lx->pos;
    size_t n = 1;

    while (is_name_byte((unsigned char)s[n]) && isascii((unsigned char)s[n]))
        n++;
    tok->kind = DT_NAME;
    tok->val = s;
    tok->val_len = n;
    if (s[n] == '(') {
        for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++)
            if (strlen(functions[i].word) == n && memcmp(s, functions[i].word, n) == 0)
                tok->kind = functions[i].kind;
    }
    if ((n == 4 && memcmp(s, "type", 4) == 0))
        tok->kind = DT_TYPE;
    else if (n == 9 && memcmp(s, "semantics", 9) == 0)
        tok->kind = DT_SEMANTICS;
    else if (n == 5 && memcmp(s, "units", 5) == 0)
        tok->kind = DT_UNITS;
    if (tok->kind != DT_NAME)
        tok->val = NULL;
    if (tok->kind == DT_MATCHINST)
        lx->pattern_depth = 0;
    tok->len = n;
}

/* A number from lx->pos: digits, then at most one '.' and digits. */
static void lex_number(dm_lexer *lx, dm_token *tok)
{
    const char *s = lx->text + lx->pos;
    size_t n = 0;
    int dot = 0;

    while (isdigit((unsigned char)s[n]) || (s[n] == '.' && !dot)) {
        dot |= s[n] == '.';
        n++;
    }
    tok->len = n;
    tok->val = s;
    tok->val_len = n;
    if (dot) {
        tok->kind = DT_DOUBLE;
        return;
    }
    /* the value, saturating: anything over 32 bits is refused */
    uint64_t v = 0;
    for (size_t i = 0; i < n && v <= UINT32_MAX; i++)
        v = v * 10 + (uint64_t)(s[i] - '0');
    if (v > UINT32_MAX) {
        tok->kind = DT_ERROR;
        lx->msg = "Constant value too large";
        return;
    }
    tok->kind = DT_INTEGER;
    tok->u = (uint32_t)v;
}

/*
 * Text from lx->pos + 1 to the closing byte end, '\' taking the next byte
 * as it is when escapes is set; into the buffer.  An unterminated one is
 * an error token with message why.
 */
static int lex_delimited(dm_lexer *lx, dm_token *tok, char end, int escapes, dm_tok kind,
                         const char *why)
{
    const char *s = lx->text + lx->pos + 1;
    size_t n = 0, i = 0;

    if (reserve(lx, lx->len - lx->pos) < 0)
        return -ENOMEM;
    while (s[i] != '\0' && s[i] != end) {
        if (escapes && s[i] == '\\' && s[i + 1] != '\0')
            i++;
        else if (escapes && s[i] == '\\')
            break; /* a '\' at the end escapes nothing */
        lx->buf[n++] = s[i++];
    }
    lx->buf[n] = '\0';
    tok->val = lx->buf;
    tok->val_len = n;
    if (s[i] != end) {
        tok->kind = DT_ERROR;
        tok->len = lx->len - lx->pos;
        lx->msg = why;
        return 0;
    }
    tok->kind = kind;
    tok->len = i + 2;
    return 0;
}

/* One- and two-byte operators at lx->pos. */
static void lex_operator(dm_lexer *lx, dm_token *tok)
{
    const char *s = lx->text + lx->pos;
    static const char singles[] = "+-*/?:(),";
    static const dm_tok single_kinds[] = {DT_PLUS,  DT_MINUS,  DT_STAR,   DT_SLASH, DT_QUEST,
                                          DT_COLON, DT_LPAREN, DT_RPAREN, DT_COMMA};
    const char *p = strchr(singles, s[0]);

    tok->len = 1;
    if (s[0] != '\0' && p != NULL) {
        tok->kind = single_kinds[p - singles];
        return;
    }
    tok->kind = DT_ERROR;
    switch (s[0]) {
    case '<':
        tok->kind = s[1] == '=' ? DT_LEQ : DT_LT;
        break;
    case '>':
        tok->kind = s[1] == '=' ? DT_GEQ : DT_GT;
        break;
    case '=':
        tok->kind = s[1] == '=' ? DT_EQ : DT_ASSIGN;
        break;
    case '!':
        tok->kind = s[1] == '=' ? DT_NEQ : DT_NOT;
        break;
    case '&':
    case '|':
        if (s[1] == s[0])
            tok->kind = s[0] == '&' ? DT_AND : DT_OR;
        break;
    default:
        break;
    }
    if (tok->kind == DT_LEQ || tok->kind == DT_GEQ || tok->kind == DT_EQ || tok->kind == DT_NEQ ||
        tok->kind == DT_AND || tok->kind == DT_OR)
        tok->len = 2;
    if (tok->kind == DT_ERROR)
        lx->msg = "Illegal character";
}

/* The parentheses of matchinst( ... ): while inside, '/' starts a pattern. */
static void track_pattern(dm_lexer *lx, dm_tok kind)
{
    if (lx->pattern_depth < 0)
        return;
    if (kind == DT_LPAREN)
        lx->pattern_depth++;
    else if (kind == DT_RPAREN && --lx->pattern_depth == 0)
        lx->pattern_depth = -1;
}

int dm_lex_next(dm_lexer *lx, dm_token *tok)
{
    const char *s = lx->text;
    int sts = 0;

    memset(tok, 0, sizeof(*tok));
    while (lx->pos < lx->len && isspace((unsigned char)s[lx->pos]))
        lx->pos++;
    tok->at = lx->pos;
    if (lx->pos >= lx->len) {
        tok->kind = DT_EOS;
        lx->here = (long)lx->len - 1;
        return 0;
    }
    lx->here = (long)lx->pos;
    unsigned char c = (unsigned char)s[lx->pos];
    if (isascii(c) && isalpha(c))
        lex_name(lx, tok);
    else if (isdigit(c) || c == '.')
        lex_number(lx, tok);
    else if (c == '"')
        sts = lex_delimited(lx, tok, '"', 0, DT_STRING, "unterminated STRING");
    else if (c == '[')
        sts = lex_delimited(lx, tok, ']', 1, DT_INSTNAME, "unterminated instance name");
    else if (c == '/' && lx->pattern_depth >= 0)
        sts = lex_delimited(lx, tok, '/', 1, DT_PATTERN, "unterminated pattern");
    else
        lex_operator(lx, tok);
    if (sts < 0)
        return sts;
    track_pattern(lx, tok->kind);
    lx->pos += tok->len;
    return 0;
}
