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

/* Where a line that needs no break leaves lx: inside a block comment or not (a
 * plain loop: most lines are short, and this runs on every line). */
static void pass_over(const char *s, int n, Lexer *lx)
{
    bool in_comment = lx->in_comment, in_string = false, in_char = false;
    for (int i = 0; i < n; i++) {
        char c = s[i];
        if (in_comment) {
            if (c == '*' && i + 1 < n && s[i + 1] == '/') {
                in_comment = false;
                i++;
            }
        } else if (in_string || in_char) {
            if (c == '\\')
                i++;
            else if ((in_string && c == '"') || (in_char && c == '\''))
                in_string = in_char = false;
        } else if (c == '/' && i + 1 < n && (s[i + 1] == '*' || s[i + 1] == '/')) {
            if (s[i + 1] == '/')
                break;
            in_comment = true;
            i++;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '\'') {
            in_char = true;
        }
    }
    lx->in_comment = in_comment;
}

/* Appends line s[0..n) to out, broken into lines of at most `width` columns where
 * it can be; `lx` carries block comments from line to line. `cont` is the indent
 * of code continuation lines, or -1 for a line of the text (its own indent + 8). */
static void wrap_line(StrBuf *out, const char *s, int n, int width, Lexer *lx, int cont)
{
    if (n <= width) {
        sb_putn(out, s, (size_t)n);
        sb_putc(out, '\n');
        pass_over(s, n, lx);
        return;
    }
    int indent = indent_of(s, n);
    if (cont < 0)
        cont = indent + 8;
    bool directive = !lx->in_comment && s[indent] == '#';
    /* Scan once: where comments and strings are, and the best break that fits. */
    int best = -1, best_cost = 1 << 30, best_margin = 0;
    bool best_in_comment = false;
    bool in_comment = lx->in_comment, in_string = false, in_char = false, line_comment = false;
    bool only_comment = true; /* nothing but comment text so far */
    int depth = 0, margin = indent; /* margin: where the open comment's text lines up */
    for (int i = 0; i < n; i++) {
        char c = s[i];
        if (in_comment) {
            if (c == '*' && i + 1 < n && s[i + 1] == '/') {
                in_comment = false;
                i++;
                continue;
            }
        } else if (in_string || in_char) {
            if (c == '\\') {
                i++;
                continue;
            }
            if ((in_string && c == '"') || (in_char && c == '\''))
                in_string = in_char = false;
        } else if (line_comment) {
            continue;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            in_comment = true;
            margin = i + 1;
            i++;
            continue;
        } else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            line_comment = true;
            continue;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '\'') {
            in_char = true;
        } else if (c == '<' && starts(s + i, "<<<")) {
            depth++; /* a CUDA launch's configuration is a bracket too */
            i += 2;
        } else if (c == '>' && starts(s + i, ">>>") && depth > 0) {
            depth--;
            i += 2;
        } else if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        }
        if (!in_comment && c != ' ')
            only_comment = false;
        /* A break replaces one space between two non-spaces, past the first few
         * columns, never right before the end of a comment. */
        if (c != ' ' || i < indent + 12 || i > width || i + 1 >= n || s[i + 1] == ' ' || s[i - 1] == ' ' ||
            starts(s + i + 1, "*/"))
            continue;
        int cost;
        if (in_comment)
            cost = only_comment ? 0 : COST_COMMENT;
        else if (in_string)
            cost = COST_STRING;
        else if (in_char || line_comment)
            continue;
        else
            cost = code_cost(s, i, depth);
        if (cost <= best_cost) {
            best_cost = cost;
            best = i;
            best_in_comment = in_comment;
            best_margin = margin;
        }
    }
    if (directive || best < 0) {
        sb_printf(out, "%.*s\n", n, s);
        lx->in_comment = in_comment;
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
