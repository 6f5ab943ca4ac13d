/* Line layout of generated files: every line longer than the width is broken at
 * the best space outside strings and comments (layout.h says which is best), and
 * comment text is rewrapped, so that generated code reads like hand-written code. */
#include "layout.h"

#include <string.h>

typedef struct Lexer {
    bool in_comment; /* inside a block comment that started on an earlier line */
} Lexer;

/* Cost of breaking at a space before text[i+1..] (lower is better). */
enum {
    COST_COMMA = 0,     /* after ',' */
    COST_LOGIC = 1,     /* before && or || */
    COST_COND = 2,      /* before ? or : */
    COST_OPERATOR = 3,  /* before + - and comparisons, after '=' */
    COST_DEPTH = 4,     /* per open bracket around the space */
    COST_COMMENT = 60,  /* inside a comment after code */
    COST_SPACE = 100,   /* any other space */
    COST_STRING = 200,  /* inside a string literal: split into two literals */
};

/* s begins with p (s may run on past the line: the text ends in a NUL). */
static bool starts(const char *s, const char *p)
{
    while (*p)
        if (*s++ != *p++)
            return false;
    return true;
}

/* The cost of a break at the space s[i] outside strings and comments. A line
 * never starts with '*' after a break, so that it cannot pass for a comment. */
static int code_cost(const char *s, int i, int depth)
{
    const char *next = s + i + 1;
    int base;
    if (s[i - 1] == ',')
        base = COST_COMMA;
    else if (starts(next, "&& ") || starts(next, "|| "))
        base = COST_LOGIC;
    else if (starts(next, "? ") || starts(next, ": "))
        base = COST_COND;
    else if (starts(next, "+ ") || starts(next, "- ") || starts(next, "< ") || starts(next, "> ") ||
             starts(next, "<= ") || starts(next, ">= ") || starts(next, "== ") || starts(next, "!= ") ||
             s[i - 1] == '=')
        base = COST_OPERATOR;
    else
        base = COST_SPACE;
    return base + depth * COST_DEPTH;
}

static int indent_of(const char *s, int n)
{
    int i = 0;
    while (i < n && s[i] == ' ')
        i++;
    return i;
}

/* Where the text is at a character of a line: in a comment, string or character
 * literal, and how many brackets are open. */
typedef struct Scan {
    bool in_comment, in_string, in_char, line_comment;
    int depth;
    int margin; /* where the open block comment's text lines up */
} Scan;

/* Takes in character s[i] of a line of n (with what belongs to it: the second
 * character of a comment marker or of an escape, the rest of `<<<`) and returns
 * the index of the next character. */
static int lex(const char *s, int n, int i, Scan *st)
{
    char c = s[i];
    bool two = i + 1 < n;
    if (st->in_comment) {
        if (c == '*' && two && s[i + 1] == '/') {
            st->in_comment = false;
            return i + 2;
        }
    } else if (st->in_string || st->in_char) {
        if (c == '\\')
            return i + 2;
        if ((st->in_string && c == '"') || (st->in_char && c == '\''))
            st->in_string = st->in_char = false;
    } else if (st->line_comment) {
        /* the rest of the line */
    } else if (c == '/' && two && s[i + 1] == '*') {
        st->in_comment = true;
        st->margin = i + 1;
        return i + 2;
    } else if (c == '/' && two && s[i + 1] == '/') {
        st->line_comment = true;
    } else if (c == '"') {
        st->in_string = true;
    } else if (c == '\'') {
        st->in_char = true;
    } else if (c == '<' && starts(s + i, "<<<")) {
        st->depth++; /* a CUDA launch's configuration is a bracket too */
        return i + 3;
    } else if (c == '>' && starts(s + i, ">>>") && st->depth > 0) {
        st->depth--;
        return i + 3;
    } else if (c == '(' || c == '[' || c == '{') {
        st->depth++;
    } else if ((c == ')' || c == ']' || c == '}') && st->depth > 0) {
        st->depth--;
    }
    return i + 1;
}

/* Whether a block comment is open after line s[0..n), when `open` says whether one
 * was open before it: what lex() would leave in in_comment, in one tight loop
 * (compile speed: most lines are not broken). */
static bool comment_open_after(const char *s, int n, bool open)
{
    char quote = 0;
    for (int i = 0; i < n; i++) {
        char c = s[i];
        if (open) {
            if (c == '*' && i + 1 < n && s[i + 1] == '/') {
                open = false;
                i++;
            }
        } else if (quote) {
            if (c == '\\')
                i++;
            else if (c == quote)
                quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '/' && i + 1 < n && (s[i + 1] == '*' || s[i + 1] == '/')) {
            if (s[i + 1] == '/')
                break; /* a line comment: the rest of the line */
            open = true;
            i++;
        }
    }
    return open;
}

/* Appends line s[0..n) to out, broken into lines of at most `width` columns where
 * it can be; `lx` carries block comments from line to line. `cont` is the indent
 * of code continuation lines, or -1 for a line of the text (its own indent + 8). */
static void wrap_line(StrBuf *out, const char *s, int n, int width, Lexer *lx, int cont)
{
    int indent = indent_of(s, n);
    Scan st = {lx->in_comment, false, false, false, 0, indent};
    if (n <= width) {
        sb_putn(out, s, (size_t)n);
        sb_putc(out, '\n');
        /* Only a block comment carries over to the next line: one can start only at
         * a '/' and end only at a '*' (compile speed: most lines have neither). */
        if (memchr(s, lx->in_comment ? '*' : '/', (size_t)n))
            lx->in_comment = comment_open_after(s, n, lx->in_comment);
        return;
    }
    if (cont < 0)
        cont = indent + 8;
    bool directive = !lx->in_comment && s[indent] == '#';
    /* Scan once: where comments and strings are, and the best break that fits. */
    int best = -1, best_cost = 1 << 30, best_margin = 0;
    bool best_in_comment = false;
    bool only_comment = true; /* nothing but comment text so far */
    for (int i = 0; i < n;) {
        /* Past the width no break can come: the rest of the line matters only when
         * there is none (compile speed: long lines are scanned once, not per piece). */
        if (i > width && best >= 0 && !directive)
            break;
        char c = s[i];
        bool was_comment = st.in_comment;
        int next = lex(s, n, i, &st);
        if (c != ' ' && !was_comment && !st.in_comment)
            only_comment = false;
        /* A break replaces one space between two non-spaces, past the first few
         * columns, never right before the end of a comment. */
        if (c != ' ' || i < indent + 12 || i > width || i + 1 >= n || s[i + 1] == ' ' || s[i - 1] == ' ' ||
            starts(s + i + 1, "*/")) {
            i = next;
            continue;
        }
        int cost;
        if (st.in_comment)
            cost = only_comment ? 0 : COST_COMMENT;
        else if (st.in_string)
            cost = COST_STRING;
        else if (st.in_char || st.line_comment)
            cost = -1;
        else
            cost = code_cost(s, i, st.depth);
        if (cost >= 0 && cost <= best_cost) {
            best_cost = cost;
            best = i;
            best_in_comment = st.in_comment;
            best_margin = st.margin;
        }
        i = next;
    }
    if (directive || best < 0) {
        sb_printf(out, "%.*s\n", n, s);
        lx->in_comment = st.in_comment;
        return;
    }
    /* The continuation: comment text lines up under the comment's first '*', code
     * goes two levels deeper than the line it continues, a split string reopens. */
    StrBuf rest = {0};
    if (best_in_comment) {
        sb_printf(out, "%.*s\n", best, s);
        sb_printf(&rest, "%*s* ", best_margin, "");
    } else if (best_cost >= COST_STRING) {
        sb_printf(out, "%.*s\"\n", best + 1, s); /* "abc " then "def" */
        sb_printf(&rest, "%*s\"", cont, "");
    } else {
        sb_printf(out, "%.*s\n", best, s);
        sb_printf(&rest, "%*s", cont, "");
    }
    sb_printf(&rest, "%.*s", n - best - 1, s + best + 1);
    lx->in_comment = best_in_comment;
    wrap_line(out, sb_str(&rest), (int)rest.len, width, lx, best_in_comment ? -1 : cont);
    sb_free(&rest);
}

void layout_wrap(StrBuf *text, int width)
{
    StrBuf out = {0};
    Lexer lx = {false};
    const char *s = sb_str(text);
    size_t len = text->len;
    size_t start = 0;
    while (start < len) {
        const char *nl = memchr(s + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - s) : len;
        wrap_line(&out, s + start, (int)(end - start), width, &lx, -1);
        if (!nl) {
            out.len--; /* no newline at the end of the text: none added */
            out.data[out.len] = 0;
        }
        start = end + 1;
    }
    StrBuf tmp = *text;
    *text = out;
    sb_free(&tmp);
}
