/* The ImageCL grammar: a C subset with Image<T>/Block<T> types and #pragma imcl
 * lines. Actions only call builders; names are resolved later by sema. */
%define api.pure full
%define parse.error verbose
%locations
%parse-param {ParseCtx *ctx} {void *scanner}
%lex-param {void *scanner}
/* The dangling else. */
%expect 1

%code requires {
#include "ast.h"

typedef struct YYLTYPE {
    int first_line, first_column, last_line, last_column;
    const char *file;
} YYLTYPE;
#define YYLTYPE_IS_DECLARED 1
#define YYLTYPE_IS_TRIVIAL 1

#define YYLLOC_DEFAULT(Cur, Rhs, N)                                   \
    do {                                                              \
        if (N) {                                                      \
            (Cur).first_line = YYRHSLOC(Rhs, 1).first_line;           \
            (Cur).first_column = YYRHSLOC(Rhs, 1).first_column;       \
            (Cur).last_line = YYRHSLOC(Rhs, N).last_line;             \
            (Cur).last_column = YYRHSLOC(Rhs, N).last_column;         \
            (Cur).file = YYRHSLOC(Rhs, 1).file;                       \
        } else {                                                      \
            (Cur).first_line = (Cur).last_line = YYRHSLOC(Rhs, 0).last_line;       \
            (Cur).first_column = (Cur).last_column = YYRHSLOC(Rhs, 0).last_column; \
            (Cur).file = YYRHSLOC(Rhs, 0).file;                       \
        }                                                             \
    } while (0)

/* A declarator as parsed: name, array extents (expressions), initializer. */
typedef struct Declarator {
    const char *name;
    Loc loc;
    NodeList dims;
    Node *init;
} Declarator;

typedef struct DeclList {
    Declarator **items;
    int len, cap;
} DeclList;

typedef struct ParamList {
    Symbol **items;
    int len, cap;
    NodeList dims; /* unused */
} ParamList;

typedef struct DeclSpec {
    Type *type;
    bool is_const;
    Loc loc;
} DeclSpec;

typedef struct ParseCtx {
    Arena *a;
    Diag *diag;
    Program *prog;
    PragmaItem *pending, **pending_tail; /* pragmas waiting for their function */
    Loc pending_loc;
    int pending_errors;     /* error count when the first pending pragma was read */
    const char *file;
    /* Error reporting state, kept by the lexer and lex_token(). */
    const char *lex_err_file; /* the line of the last lexical error: no syntax */
    int lex_err_line;         /* error is added on it */
    bool lex_fatal;           /* the lexer gave up (unterminated comment, garbage) */
    Loc tok_end, prev_tok_end; /* just past the last token, and the one before */
    char tok_text[48];        /* spelling of the last token (the lookahead at an error) */
    bool expect_error;        /* a rule forces a syntax error to recover: stay quiet */
} ParseCtx;

/* The lexer's state: where the next character is. */
struct LexState {
    ParseCtx *ctx;
    int line, col;
    const char *file;
    Loc comment_loc; /* where the open block comment starts */
};
}

%code {
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lexer.h"

#define L(l) ((Loc){(l).file, (l).first_line, (l).first_column})
#define A (ctx->a)

/* The lexer, plus what yyerror needs to know about the tokens around an error. */
static int lex_token(YYSTYPE *lval, YYLTYPE *lloc, yyscan_t scanner)
{
    ParseCtx *ctx = yyget_extra(scanner)->ctx;
    int t = yylex(lval, lloc, scanner);
    ctx->prev_tok_end = ctx->tok_end;
    if (t == 0) {
        ctx->tok_text[0] = 0;
        return t;
    }
    ctx->tok_end = (Loc){lloc->file, lloc->last_line, lloc->last_column};
    snprintf(ctx->tok_text, sizeof ctx->tok_text, "%s", yyget_text(scanner));
    return t;
}
#define yylex lex_token

static void yyerror(YYLTYPE *loc, ParseCtx *ctx, void *scanner, const char *msg);
static Type *elem_type(ParseCtx *ctx, const char *name, YYLTYPE loc);
static Node *make_var(ParseCtx *ctx, const char *name, YYLTYPE loc);
static Node *make_member(ParseCtx *ctx, Node *base, const char *member, YYLTYPE loc);
static void decl_push(ParseCtx *ctx, DeclList *l, Declarator *d);
static Declarator *make_declarator(ParseCtx *ctx, const char *name, YYLTYPE loc);
static Node *make_decls(ParseCtx *ctx, DeclSpec spec, DeclList *l, bool in_for);
static void param_push(ParseCtx *ctx, ParamList *l, Symbol *s);
static Symbol *make_param(ParseCtx *ctx, DeclSpec spec, Declarator *d);
static void finish_function(ParseCtx *ctx, DeclSpec spec, const char *name, YYLTYPE loc,
                            ParamList *params, Node *body);
static void add_pragma(ParseCtx *ctx, PragmaKind kind, const char *name, YYLTYPE loc,
                       const char *bc, YYLTYPE bc_loc, Node *expr);
static Node *make_float(ParseCtx *ctx, const char *text, YYLTYPE loc);
static Node *make_int(ParseCtx *ctx, const char *text, YYLTYPE loc);
static Node *make_char(ParseCtx *ctx, const char *text, YYLTYPE loc);
}

%union {
    Node *node;
    const char *str;
    Type *type;
    DeclSpec spec;
    Declarator *declarator;
    DeclList *decls;
    ParamList *params;
    Symbol *sym;
    int op;
}

%token <str> IDENT INT_LIT FLOAT_LIT CHAR_LIT
%token KW_VOID KW_CHAR KW_SHORT KW_INT KW_UNSIGNED KW_SIGNED KW_FLOAT KW_DOUBLE
%token KW_UCHAR KW_USHORT KW_UINT KW_CONST KW_IMAGE KW_BLOCK KW_LONG KW_BOOL KW_STRUCT
%token KW_IF KW_ELSE KW_FOR KW_WHILE KW_DO KW_BREAK KW_CONTINUE KW_RETURN
%token INC DEC SHL SHR LE GE EQ NE AND OR
%token ADD_ASSIGN SUB_ASSIGN MUL_ASSIGN DIV_ASSIGN MOD_ASSIGN SHL_ASSIGN SHR_ASSIGN
%token AND_ASSIGN OR_ASSIGN XOR_ASSIGN
%token PRAGMA_IMCL PRAGMA_END P_GRID P_GRID_SIZE P_BOUNDARY P_HALO P_INDEX_ORDER P_ITERATE
%token <str> P_UNKNOWN
%token <str> STRING_LIT
%token BAD_CHAR

%type <node> primary_expr postfix_expr unary_expr cast_expr mul_expr add_expr shift_expr
%type <node> rel_expr eq_expr and_expr xor_expr or_expr land_expr lor_expr cond_expr
%type <node> assign_expr expr expr_opt stmt compound_stmt stmt_list decl_stmt for_init
%type <node> call_args
%type <op> assign_op
%type <type> type_spec scalar_type
%type <spec> decl_spec
%type <declarator> declarator init_declarator
%type <decls> init_declarator_list
%type <params> param_list params_opt
%type <sym> param

%start translation_unit

%%

translation_unit
    : %empty
    | translation_unit external_decl
    ;

external_decl
    : function_def
    | pragma_line
    | ';'
    | error '}'                    { yyerrok; }
    | error PRAGMA_END             { yyerrok; }
    ;

/* ---- #pragma imcl lines ---------------------------------------------------- */

pragma_line
    : PRAGMA_IMCL P_GRID '(' grid_names ')' PRAGMA_END
    | PRAGMA_IMCL P_GRID_SIZE '(' size_exprs ')' PRAGMA_END
    | PRAGMA_IMCL P_BOUNDARY '(' bc_items ')' PRAGMA_END
    | PRAGMA_IMCL P_HALO '(' halo_items ')' PRAGMA_END
    | PRAGMA_IMCL P_INDEX_ORDER '(' IDENT ')' PRAGMA_END { add_pragma(ctx, PRAGMA_INDEX_ORDER, $4, @4, NULL, @4, NULL); }
    | PRAGMA_IMCL P_ITERATE '(' IDENT ',' IDENT ')' PRAGMA_END { add_pragma(ctx, PRAGMA_ITERATE, $4, @4, $6, @6, NULL); }
    | PRAGMA_IMCL P_UNKNOWN        { if ($2) diag_error(ctx->diag, L(@2), "unknown pragma 'imcl %s' (expected grid, grid_size, boundary_cond, halo, index_order or iterate)", $2);
                                     else diag_error(ctx->diag, L(@2), "'#pragma imcl' needs a directive (grid, grid_size, boundary_cond, halo, index_order or iterate)"); }
      skip_to_end
    | PRAGMA_IMCL PRAGMA_END       { diag_error(ctx->diag, L(@1), "'#pragma imcl' needs a directive (grid, grid_size, boundary_cond, halo, index_order or iterate)"); }
    | PRAGMA_IMCL error PRAGMA_END { yyerrok; }
    ;

skip_to_end
    : PRAGMA_END
    | error PRAGMA_END             { yyerrok; }
    ;

grid_names
    : IDENT                        { add_pragma(ctx, PRAGMA_GRID, $1, @1, NULL, @1, NULL); }
    | grid_names ',' IDENT         { add_pragma(ctx, PRAGMA_GRID, $3, @3, NULL, @3, NULL); }
    ;

size_exprs
    : assign_expr                  { add_pragma(ctx, PRAGMA_GRID_SIZE, NULL, @1, NULL, @1, $1); }
    | size_exprs ',' assign_expr   { add_pragma(ctx, PRAGMA_GRID_SIZE, NULL, @3, NULL, @3, $3); }
    ;

bc_items
    : bc_item
    | bc_items ',' bc_item
    ;

bc_item
    : IDENT ':' IDENT              { add_pragma(ctx, PRAGMA_BOUNDARY, $1, @1, $3, @3, NULL); }
    | IDENT ':' IDENT '(' assign_expr ')' { add_pragma(ctx, PRAGMA_BOUNDARY, $1, @1, $3, @3, $5); }
    ;

halo_items
    : halo_item
    | halo_items ',' halo_item
    ;

halo_item
    : IDENT ':' assign_expr        { add_pragma(ctx, PRAGMA_HALO, $1, @1, NULL, @3, $3); }
    ;

/* ---- functions -------------------------------------------------------------- */

function_def
    : decl_spec IDENT '(' params_opt ')' compound_stmt { finish_function(ctx, $1, $2, @2, $4, $6); }
    | decl_spec IDENT '(' params_opt ')' ';' { diag_error(ctx->diag, L(@2), "function '%s' has no body (no prototypes are needed: functions may be defined in any order)", $2); }
    | decl_spec init_declarator_list ';' { diag_error(ctx->diag, $2->items[0]->loc, "global variables are not supported (use a kernel parameter or a #define)"); }
    ;

params_opt
    : %empty                       { $$ = ARENA_NEW(A, ParamList); }
    | KW_VOID                      { $$ = ARENA_NEW(A, ParamList); }
    | param_list
    ;

param_list
    : param                        { $$ = ARENA_NEW(A, ParamList); param_push(ctx, $$, $1); }
    | param_list ',' param         { $$ = $1; param_push(ctx, $$, $3); }
    ;

param
    : decl_spec declarator         { $$ = make_param(ctx, $1, $2); }
    ;

decl_spec
    : type_spec                    { $$ = (DeclSpec){$1, false, L(@1)}; }
    | KW_CONST type_spec           { $$ = (DeclSpec){$2, true, L(@2)}; }
    | type_spec KW_CONST           { $$ = (DeclSpec){$1, true, L(@1)}; }
    ;

type_spec
    : scalar_type
    | KW_VOID                      { $$ = type_scalar(TY_VOID); }
    | KW_IMAGE '<' scalar_type '>' { $$ = type_grid(A, TY_IMAGE, $3); }
    | KW_BLOCK '<' scalar_type '>' { $$ = type_grid(A, TY_BLOCK, $3); }
    | KW_IMAGE '<' IDENT '>'       { $$ = type_grid(A, TY_IMAGE, elem_type(ctx, $3, @3)); }
    | KW_BLOCK '<' IDENT '>'       { $$ = type_grid(A, TY_BLOCK, elem_type(ctx, $3, @3)); }
    | KW_IMAGE '<' KW_VOID '>'     { diag_error(ctx->diag, L(@3), "element type of an Image cannot be void"); $$ = type_grid(A, TY_IMAGE, type_scalar(TY_INT)); }
    | KW_BLOCK '<' KW_VOID '>'     { diag_error(ctx->diag, L(@3), "element type of a Block cannot be void"); $$ = type_grid(A, TY_BLOCK, type_scalar(TY_INT)); }
    ;

scalar_type
    : KW_CHAR                      { $$ = type_scalar(TY_CHAR); }
    | KW_SIGNED KW_CHAR            { $$ = type_scalar(TY_CHAR); }
    | KW_UNSIGNED KW_CHAR          { $$ = type_scalar(TY_UCHAR); }
    | KW_UCHAR                     { $$ = type_scalar(TY_UCHAR); }
    | KW_SHORT                     { $$ = type_scalar(TY_SHORT); }
    | KW_SIGNED KW_SHORT           { $$ = type_scalar(TY_SHORT); }
    | KW_UNSIGNED KW_SHORT         { $$ = type_scalar(TY_USHORT); }
    | KW_USHORT                    { $$ = type_scalar(TY_USHORT); }
    | KW_INT                       { $$ = type_scalar(TY_INT); }
    | KW_SIGNED                    { $$ = type_scalar(TY_INT); }
    | KW_SIGNED KW_INT             { $$ = type_scalar(TY_INT); }
    | KW_UNSIGNED                  { $$ = type_scalar(TY_UINT); }
    | KW_UNSIGNED KW_INT           { $$ = type_scalar(TY_UINT); }
    | KW_UINT                      { $$ = type_scalar(TY_UINT); }
    | KW_FLOAT                     { $$ = type_scalar(TY_FLOAT); }
    | KW_DOUBLE                    { $$ = type_scalar(TY_DOUBLE); }
    | KW_LONG                      { diag_error(ctx->diag, L(@1), "type 'long' is not supported (use int or double)"); $$ = type_scalar(TY_INT); }
    | KW_BOOL                      { diag_error(ctx->diag, L(@1), "type 'bool' is not supported (use int)"); $$ = type_scalar(TY_INT); }
    | KW_STRUCT                    { diag_error(ctx->diag, L(@1), "structs are not supported"); $$ = type_scalar(TY_INT); }
    ;

declarator
    : IDENT                        { $$ = make_declarator(ctx, $1, @1); }
    | declarator '[' assign_expr ']' { $$ = $1; nodelist_push(A, &$$->dims, $3); }
    ;

init_declarator
    : declarator
    | declarator '=' assign_expr   { $$ = $1; $$->init = $3; }
    | declarator '=' '{'           { diag_error(ctx->diag, L(@3), "initializer lists are not supported"); ctx->expect_error = true; }
      error '}'                    { $$ = $1; }
    ;

init_declarator_list
    : init_declarator              { $$ = ARENA_NEW(A, DeclList); decl_push(ctx, $$, $1); }
    | init_declarator_list ',' init_declarator { $$ = $1; decl_push(ctx, $$, $3); }
    ;

/* ---- statements ------------------------------------------------------------- */

/* After a syntax error, the '}' that ends the statement closes this block. */
compound_stmt
    : '{' stmt_list '}'            { $$ = $2; $$->loc = L(@1); }
    | '{' stmt_list error '}'      { $$ = $2; $$->loc = L(@1); yyerrok; }
    ;

stmt_list
    : %empty                       { $$ = ast_build_block(A, (Loc){0}); }
    | stmt_list stmt               { $$ = $1; if ($2) ast_append_stmt(A, $$, $2); }
    ;

decl_stmt
    : decl_spec init_declarator_list ';' { $$ = make_decls(ctx, $1, $2, false); }
    ;

stmt
    : compound_stmt
    | decl_stmt
    | expr ';'                     { $$ = ast_build_expr_stmt(A, $1, L(@1)); }
    | ';'                          { $$ = ast_new(A, AST_EMPTY, L(@1)); }
    | KW_IF '(' expr ')' stmt      { $$ = ast_build_if(A, $3, $5, NULL, L(@1)); }
    | KW_IF '(' expr ')' stmt KW_ELSE stmt { $$ = ast_build_if(A, $3, $5, $7, L(@1)); }
    | KW_WHILE '(' expr ')' stmt   { $$ = ast_build_while(A, $3, $5, L(@1)); }
    | KW_DO stmt KW_WHILE '(' expr ')' ';' { $$ = ast_build_do(A, $2, $5, L(@1)); }
    | KW_FOR '(' for_init expr_opt ';' expr_opt ')' stmt { $$ = ast_build_for(A, $3, $4, $6, $8, L(@1)); }
    /* a label names a for loop for tuning (unroll_<label>); no goto reaches it */
    | IDENT ':' KW_FOR '(' for_init expr_opt ';' expr_opt ')' stmt
                                   { $$ = ast_build_for(A, $5, $6, $8, $10, L(@3)); $$->u.loop.label = $1; }
    | KW_BREAK ';'                 { $$ = ast_new(A, AST_BREAK, L(@1)); }
    | KW_CONTINUE ';'              { $$ = ast_new(A, AST_CONTINUE, L(@1)); }
    | KW_RETURN expr_opt ';'       { $$ = ast_build_return(A, $2, L(@1)); }
    | error ';'                    { $$ = NULL; yyerrok; }
    ;

for_init
    : expr_opt ';'                 { $$ = $1 ? ast_build_expr_stmt(A, $1, L(@1)) : NULL; }
    | decl_spec init_declarator_list ';' { $$ = make_decls(ctx, $1, $2, true); }
    ;

/* ---- expressions, by C precedence ---------------------------------------------- */

expr_opt
    : %empty                       { $$ = NULL; }
    | expr
    ;

expr
    : assign_expr
    | expr ',' assign_expr         { $$ = ast_build_binary(A, ',', $1, $3, L(@2)); }
    ;

assign_expr
    : cond_expr
    | unary_expr assign_op assign_expr { $$ = ast_build_assign(A, $2, $1, $3, L(@2)); }
    ;

assign_op
    : '='                          { $$ = '='; }
    | ADD_ASSIGN                   { $$ = '+'; }
    | SUB_ASSIGN                   { $$ = '-'; }
    | MUL_ASSIGN                   { $$ = '*'; }
    | DIV_ASSIGN                   { $$ = '/'; }
    | MOD_ASSIGN                   { $$ = '%'; }
    | SHL_ASSIGN                   { $$ = OP_SHL; }
    | SHR_ASSIGN                   { $$ = OP_SHR; }
    | AND_ASSIGN                   { $$ = '&'; }
    | OR_ASSIGN                    { $$ = '|'; }
    | XOR_ASSIGN                   { $$ = '^'; }
    ;

cond_expr
    : lor_expr
    | lor_expr '?' expr ':' cond_expr { $$ = ast_build_cond(A, $1, $3, $5, L(@2)); }
    ;

lor_expr
    : land_expr
    | lor_expr OR land_expr        { $$ = ast_build_binary(A, OP_OR, $1, $3, L(@2)); }
    ;

land_expr
    : or_expr
    | land_expr AND or_expr        { $$ = ast_build_binary(A, OP_AND, $1, $3, L(@2)); }
    ;

or_expr
    : xor_expr
    | or_expr '|' xor_expr         { $$ = ast_build_binary(A, '|', $1, $3, L(@2)); }
    ;

xor_expr
    : and_expr
    | xor_expr '^' and_expr        { $$ = ast_build_binary(A, '^', $1, $3, L(@2)); }
    ;

and_expr
    : eq_expr
    | and_expr '&' eq_expr         { $$ = ast_build_binary(A, '&', $1, $3, L(@2)); }
    ;

eq_expr
    : rel_expr
    | eq_expr EQ rel_expr          { $$ = ast_build_binary(A, OP_EQ, $1, $3, L(@2)); }
    | eq_expr NE rel_expr          { $$ = ast_build_binary(A, OP_NE, $1, $3, L(@2)); }
    ;

rel_expr
    : shift_expr
    | rel_expr '<' shift_expr      { $$ = ast_build_binary(A, '<', $1, $3, L(@2)); }
    | rel_expr '>' shift_expr      { $$ = ast_build_binary(A, '>', $1, $3, L(@2)); }
    | rel_expr LE shift_expr       { $$ = ast_build_binary(A, OP_LE, $1, $3, L(@2)); }
    | rel_expr GE shift_expr       { $$ = ast_build_binary(A, OP_GE, $1, $3, L(@2)); }
    ;

shift_expr
    : add_expr
    | shift_expr SHL add_expr      { $$ = ast_build_binary(A, OP_SHL, $1, $3, L(@2)); }
    | shift_expr SHR add_expr      { $$ = ast_build_binary(A, OP_SHR, $1, $3, L(@2)); }
    ;

add_expr
    : mul_expr
    | add_expr '+' mul_expr        { $$ = ast_build_binary(A, '+', $1, $3, L(@2)); }
    | add_expr '-' mul_expr        { $$ = ast_build_binary(A, '-', $1, $3, L(@2)); }
    ;

mul_expr
    : cast_expr
    | mul_expr '*' cast_expr       { $$ = ast_build_binary(A, '*', $1, $3, L(@2)); }
    | mul_expr '/' cast_expr       { $$ = ast_build_binary(A, '/', $1, $3, L(@2)); }
    | mul_expr '%' cast_expr       { $$ = ast_build_binary(A, '%', $1, $3, L(@2)); }
    ;

cast_expr
    : unary_expr
    | '(' scalar_type ')' cast_expr { $$ = ast_build_cast(A, $2, $4, L(@1)); }
    ;

unary_expr
    : postfix_expr
    | INC unary_expr               { $$ = ast_build_unary(A, OP_PREINC, $2, L(@1)); }
    | DEC unary_expr               { $$ = ast_build_unary(A, OP_PREDEC, $2, L(@1)); }
    | '-' cast_expr                { $$ = ast_build_unary(A, '-', $2, L(@1)); }
    | '+' cast_expr                { $$ = ast_build_unary(A, '+', $2, L(@1)); }
    | '!' cast_expr                { $$ = ast_build_unary(A, '!', $2, L(@1)); }
    | '~' cast_expr                { $$ = ast_build_unary(A, '~', $2, L(@1)); }
    | '&' cast_expr                { diag_error(ctx->diag, L(@1), "the address-of operator '&' is not supported"); $$ = $2; }
    | '*' cast_expr                { diag_error(ctx->diag, L(@1), "pointer dereference is not supported"); $$ = $2; }
    ;

postfix_expr
    : primary_expr
    | postfix_expr '[' expr ']'    { $$ = ast_build_index(A, $1, $3, L(@2)); }
    | postfix_expr '.' IDENT       { $$ = make_member(ctx, $1, $3, @3); }
    | postfix_expr INC             { $$ = ast_build_unary(A, OP_POSTINC, $1, L(@2)); }
    | postfix_expr DEC             { $$ = ast_build_unary(A, OP_POSTDEC, $1, L(@2)); }
    ;

call_args
    : assign_expr                  { $$ = ast_build_call(A, "", L(@1)); ast_append_arg(A, $$, $1); }
    | call_args ',' assign_expr    { $$ = $1; ast_append_arg(A, $$, $3); }
    ;

primary_expr
    : IDENT                        { $$ = make_var(ctx, $1, @1); }
    | IDENT '(' ')'                { $$ = ast_build_call(A, $1, L(@1)); }
    | IDENT '(' call_args ')'      { $$ = $3; $$->u.call.name = $1; $$->u.call.math = math_lookup($1); $$->loc = L(@1); }
    | INT_LIT                      { $$ = make_int(ctx, $1, @1); }
    | CHAR_LIT                     { $$ = make_char(ctx, $1, @1); }
    | FLOAT_LIT                    { $$ = make_float(ctx, $1, @1); }
    | '(' expr ')'                 { $$ = $2; }
    | STRING_LIT                   { if ($1) diag_error(ctx->diag, L(@1), "string literals are not supported"); $$ = ast_build_int(A, 0, L(@1)); }
    ;

%%

/* A bison token name in the user's words: IDENT -> "identifier", KW_WHILE ->
 * "'while'", SHL -> "'<<'"; quoted characters such as "';'" stay as they are. */
static void token_words(StrBuf *out, const char *name, size_t len)
{
    static const struct { const char *tok, *word; } words[] = {
        {"IDENT", "identifier"}, {"INT_LIT", "integer literal"},
        {"FLOAT_LIT", "floating literal"}, {"CHAR_LIT", "character literal"},
        {"STRING_LIT", "string literal"}, {"BAD_CHAR", "invalid character"},
        {"PRAGMA_END", "end of pragma line"}, {"PRAGMA_IMCL", "'#pragma imcl'"},
        {"P_GRID", "'grid'"}, {"P_GRID_SIZE", "'grid_size'"}, {"P_BOUNDARY", "'boundary_cond'"},
        {"P_HALO", "'halo'"}, {"P_INDEX_ORDER", "'index_order'"}, {"P_ITERATE", "'iterate'"}, {"P_UNKNOWN", "pragma directive"},
        {"INC", "'++'"}, {"DEC", "'--'"}, {"SHL", "'<<'"}, {"SHR", "'>>'"}, {"LE", "'<='"},
        {"GE", "'>='"}, {"EQ", "'=='"}, {"NE", "'!='"}, {"AND", "'&&'"}, {"OR", "'||'"},
        {"ADD_ASSIGN", "'+='"}, {"SUB_ASSIGN", "'-='"}, {"MUL_ASSIGN", "'*='"},
        {"DIV_ASSIGN", "'/='"}, {"MOD_ASSIGN", "'%='"}, {"SHL_ASSIGN", "'<<='"},
        {"SHR_ASSIGN", "'>>='"}, {"AND_ASSIGN", "'&='"}, {"OR_ASSIGN", "'|='"},
        {"XOR_ASSIGN", "'^='"},
    };
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++)
        if (strlen(words[w].tok) == len && strncmp(name, words[w].tok, len) == 0) {
            sb_puts(out, words[w].word);
            return;
        }
    if (len > 3 && strncmp(name, "KW_", 3) == 0) {
        sb_putc(out, '\'');
        for (size_t i = 3; i < len; i++)
            sb_putc(out, (char)(name[i] >= 'A' && name[i] <= 'Z' ? name[i] - 'A' + 'a' : name[i]));
        sb_putc(out, '\'');
        return;
    }
    for (size_t i = 0; i < len; i++)
        sb_putc(out, name[i]);
}

/* Bison says "syntax error, unexpected X, expecting Y or Z". That is kept, in the
 * user's words and with the spelling of X; but when X starts a later line than the
 * token before it, the likely mistake is a missing terminator at the end of that
 * token, so the error is put there: "expected Y or Z before X". */
static void yyerror(YYLTYPE *loc, ParseCtx *ctx, void *scanner, const char *msg)
{
    (void)scanner;
    /* The lexer already said what is wrong here (or why the input stops). */
    if (ctx->lex_fatal)
        return;
    if (ctx->expect_error) {
        ctx->expect_error = false;
        return;
    }
    if (ctx->lex_err_file && loc->file && strcmp(loc->file, ctx->lex_err_file) == 0 &&
        loc->first_line == ctx->lex_err_line)
        return;
    if (strcmp(msg, "memory exhausted") == 0) {
        diag_error(ctx->diag, L(*loc), "statements or expressions nested too deeply");
        return;
    }
    const char *u = strstr(msg, "unexpected ");
    if (!u) {
        diag_error(ctx->diag, L(*loc), "%s", msg);
        return;
    }
    u += strlen("unexpected ");
    const char *e = strstr(u, ", expecting ");
    size_t ulen = e ? (size_t)(e - u) : strlen(u);
    StrBuf what = {0}, expected = {0};
    token_words(&what, u, ulen);
    static const char *spelled[] = {"IDENT", "INT_LIT", "FLOAT_LIT", "CHAR_LIT"};
    for (size_t i = 0; i < sizeof spelled / sizeof spelled[0]; i++)
        if (strlen(spelled[i]) == ulen && strncmp(u, spelled[i], ulen) == 0 && ctx->tok_text[0])
            sb_printf(&what, " '%s'", ctx->tok_text);
    if (e) {
        for (const char *p = e + strlen(", expecting "); *p;) {
            const char *q = strstr(p, " or ");
            size_t n = q ? (size_t)(q - p) : strlen(p);
            token_words(&expected, p, n);
            p += n;
            if (q) {
                sb_puts(&expected, " or ");
                p += 4;
            }
        }
    }
    bool at_eof = ulen == strlen("end of file") && strncmp(u, "end of file", ulen) == 0;
    Loc prev = ctx->prev_tok_end;
    if (e && prev.line > 0 && (at_eof || loc->first_line > prev.line ||
                               (loc->file && prev.file && strcmp(loc->file, prev.file) != 0)))
        diag_error(ctx->diag, prev, "expected %s before %s", sb_str(&expected), sb_str(&what));
    else if (e)
        diag_error(ctx->diag, L(*loc), "syntax error, unexpected %s, expecting %s", sb_str(&what),
                   sb_str(&expected));
    else
        diag_error(ctx->diag, L(*loc), "syntax error, unexpected %s", sb_str(&what));
    sb_free(&what);
    sb_free(&expected);
}

static Type *elem_type(ParseCtx *ctx, const char *name, YYLTYPE loc)
{
    diag_error(ctx->diag, L(loc), "unknown element type '%s' (expected char, uchar, short, ushort, int, uint, float or double)", name);
    return type_scalar(TY_INT);
}

static Node *make_var(ParseCtx *ctx, const char *name, YYLTYPE loc)
{
    /* A placeholder symbol holding the name; sema binds the real one. */
    Symbol *s = ast_build_symbol(A, name, SYM_LOCAL, NULL, L(loc));
    return ast_build_var_ref(A, s, L(loc));
}

static Node *make_member(ParseCtx *ctx, Node *base, const char *member, YYLTYPE loc)
{
    int dim = strcmp(member, "width") == 0 ? 0 : strcmp(member, "height") == 0 ? 1
            : strcmp(member, "depth") == 0 ? 2 : -1;
    if (dim < 0) {
        diag_error(ctx->diag, L(loc), "unknown member '%s' (expected width, height or depth)", member);
        dim = 0;
    }
    if (base->kind != AST_VAR) {
        diag_error(ctx->diag, L(loc), "'.%s' needs an Image or Block name on its left", member);
        return base;
    }
    return ast_build_extent(A, base->u.var.sym, dim, L(loc));
}

static Declarator *make_declarator(ParseCtx *ctx, const char *name, YYLTYPE loc)
{
    Declarator *d = ARENA_NEW(A, Declarator);
    d->name = name;
    d->loc = L(loc);
    return d;
}

static void decl_push(ParseCtx *ctx, DeclList *l, Declarator *d)
{
    if (l->len == l->cap) {
        int cap = l->cap ? l->cap * 2 : 4;
        Declarator **items = arena_alloc(A, sizeof *items * (size_t)cap);
        if (l->len)
            memcpy(items, l->items, sizeof *items * (size_t)l->len);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->len++] = d;
}

static void param_push(ParseCtx *ctx, ParamList *l, Symbol *s)
{
    if (l->len == l->cap) {
        int cap = l->cap ? l->cap * 2 : 4;
        Symbol **items = arena_alloc(A, sizeof *items * (size_t)cap);
        if (l->len)
            memcpy(items, l->items, sizeof *items * (size_t)l->len);
        l->items = items;
        l->cap = cap;
    }
    l->items[l->len++] = s;
}

/* Array extents of a declarator must be positive integer constants. */
static Type *declarator_type(ParseCtx *ctx, Type *base, Declarator *d)
{
    if (d->dims.len == 0)
        return base;
    int dims[TYPE_MAX_DIMS] = {0};
    if (d->dims.len > TYPE_MAX_DIMS)
        diag_error(ctx->diag, d->loc, "array '%s' has %d dimensions; at most %d are supported", d->name, d->dims.len, TYPE_MAX_DIMS);
    if (!type_is_scalar(base))
        diag_error(ctx->diag, d->loc, "array '%s' must have a scalar element type, not %s", d->name, type_name(base));
    for (int i = 0; i < d->dims.len && i < TYPE_MAX_DIMS; i++) {
        long long v;
        Node *e = d->dims.items[i];
        ConstVal c = const_eval(e);
        if (c.status == CONST_UNDEFINED) {
            diag_error(ctx->diag, c.where->loc, "undefined constant expression: %s", c.why);
            v = 1;
        } else if (!ast_const_int(e, &v)) {
            diag_error(ctx->diag, e->loc, "extent of array '%s' must be an integer constant", d->name);
            v = 1;
        } else if (v <= 0 || v > (1 << 24)) {
            diag_error(ctx->diag, e->loc, "extent of array '%s' must be between 1 and %d, not %lld", d->name, 1 << 24, v);
            v = 1;
        }
        dims[i] = (int)v;
    }
    return type_array(A, type_is_scalar(base) ? base : type_scalar(TY_INT),
                      d->dims.len > TYPE_MAX_DIMS ? TYPE_MAX_DIMS : d->dims.len, dims);
}

static Symbol *make_param(ParseCtx *ctx, DeclSpec spec, Declarator *d)
{
    Type *t = declarator_type(ctx, spec.type, d);
    Symbol *s = ast_build_symbol(A, d->name, SYM_PARAM, t, d->loc);
    if (d->init)
        diag_error(ctx->diag, d->init->loc, "parameter '%s' cannot have a default value", d->name);
    return s;
}

static Node *make_decls(ParseCtx *ctx, DeclSpec spec, DeclList *l, bool in_for)
{
    Node *group = ast_new(A, in_for ? AST_DECL_LIST : AST_BLOCK, spec.loc);
    for (int i = 0; i < l->len; i++) {
        Declarator *d = l->items[i];
        Symbol *s = ast_build_symbol(A, d->name, SYM_LOCAL, declarator_type(ctx, spec.type, d), d->loc);
        Node *decl = ast_build_decl(A, s, d->init, d->loc);
        decl->u.decl.is_const = spec.is_const;
        ast_append_stmt(A, group, decl);
    }
    /* A plain declaration statement with one declarator is just that AST_DECL;
     * several become a block that sema flattens into the enclosing one. */
    if (!in_for && group->u.block.stmts.len == 1)
        return group->u.block.stmts.items[0];
    if (!in_for)
        group->kind = AST_DECL_LIST;
    return group;
}

static void finish_function(ParseCtx *ctx, DeclSpec spec, const char *name, YYLTYPE loc,
                            ParamList *params, Node *body)
{
    Function *f = ARENA_NEW(A, Function);
    f->name = name;
    f->loc = L(loc);
    f->ret = spec.type;
    f->params = params->items;
    f->nparams = params->len;
    f->body = body;
    f->pragmas = ctx->pending;
    ctx->pending = NULL;
    ctx->pending_tail = &ctx->pending;
    for (int i = 0; i < f->nparams; i++)
        f->params[i]->param_index = i;
    program_add_function(ctx->prog, f);
}

static void add_pragma(ParseCtx *ctx, PragmaKind kind, const char *name, YYLTYPE loc,
                       const char *bc, YYLTYPE bc_loc, Node *expr)
{
    PragmaItem *p = ARENA_NEW(A, PragmaItem);
    p->kind = kind;
    p->loc = L(loc);
    p->name = name;
    p->bc = bc;
    p->bc_loc = L(bc_loc);
    p->expr = expr;
    if (!ctx->pending) {
        ctx->pending_loc = L(loc);
        ctx->pending_errors = ctx->diag->errors;
    }
    *ctx->pending_tail = p;
    ctx->pending_tail = &p->next;
}

static Node *make_float(ParseCtx *ctx, const char *text, YYLTYPE loc)
{
    size_t n = strlen(text);
    bool is_float = n > 0 && (text[n - 1] == 'f' || text[n - 1] == 'F');
    double v = strtod(text, NULL);
    return ast_build_float(A, v, text, type_scalar(is_float ? TY_FLOAT : TY_DOUBLE), L(loc));
}

/* Integer literals: decimal, octal or hex, with u/U; int unless it needs uint. */
static Node *make_int(ParseCtx *ctx, const char *text, YYLTYPE loc)
{
    errno = 0;
    char *end;
    unsigned long long v = strtoull(text, &end, 0);
    bool is_unsigned = false;
    for (; *end; end++) {
        if (*end == 'u' || *end == 'U')
            is_unsigned = true;
        else if (*end == 'l' || *end == 'L') {
            diag_error(ctx->diag, L(loc), "long integer literals are not supported");
            break;
        } else {
            /* strtoull stopped at a digit: 8 or 9 after a leading 0 */
            diag_error(ctx->diag, L(loc), "invalid digit '%c' in octal literal '%s' (a leading 0 makes a literal octal)",
                       *end, text);
            v = 0;
            break;
        }
    }
    if (errno == ERANGE || v > 0xffffffffull) {
        diag_error(ctx->diag, L(loc), "integer literal '%s' does not fit in 32 bits", text);
        v = 0;
    }
    if (v > 0x7fffffffull && !is_unsigned && text[0] == '0' && text[1] != 0)
        is_unsigned = true; /* hex/octal literals become unsigned, as in C */
    if (v > 0x7fffffffull && !is_unsigned) {
        diag_error(ctx->diag, L(loc), "integer literal '%s' does not fit in int (add a 'u' suffix)", text);
        v = 0;
    }
    Node *n = ast_build_int(A, (long long)v, L(loc));
    n->u.lit.text = text;
    if (is_unsigned)
        n->type = type_scalar(TY_UINT);
    return n;
}

static Node *make_char(ParseCtx *ctx, const char *text, YYLTYPE loc)
{
    /* text is the literal with its quotes: 'a' or an escape '\n'. */
    long long v = (unsigned char)text[1];
    if (text[1] == '\\') {
        switch (text[2]) {
        case 'n': v = '\n'; break;
        case 't': v = '\t'; break;
        case 'r': v = '\r'; break;
        case '0': v = 0; break;
        case '\\': v = '\\'; break;
        case '\'': v = '\''; break;
        case '"': v = '"'; break;
        default:
            diag_error(ctx->diag, L(loc), "unsupported escape sequence in character literal");
            v = 0;
        }
    }
    Node *n = ast_build_int(A, v, L(loc));
    n->u.lit.text = text;
    return n;
}
