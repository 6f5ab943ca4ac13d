/* A Bison parser, made by GNU Bison 3.8.2.  */

/* Bison interface for Yacc-like parsers in C

   Copyright (C) 1984, 1989-1990, 2000-2015, 2018-2021 Free Software Foundation,
   Inc.

   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.

   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.

   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <https://www.gnu.org/licenses/>.  */

/* As a special exception, you may create a larger work that contains
   part or all of the Bison parser skeleton and distribute that work
   under terms of your choice, so long as that work isn't itself a
   parser generator using the skeleton or a modified version thereof
   as a parser skeleton.  Alternatively, if you modify or redistribute
   the parser skeleton itself, you may (at your option) remove this
   special exception, which will cause the skeleton and the resulting
   Bison output files to be licensed under the GNU General Public
   License without this special exception.

   This special exception was added by the Free Software Foundation in
   version 2.2 of Bison.  */

/* DO NOT RELY ON FEATURES THAT ARE NOT DOCUMENTED in the manual,
   especially those whose name start with YY_ or yy_.  They are
   private implementation details that can be changed or removed.  */

#ifndef YY_YY_WORK_MAIN_BUILD_PARSER_H_INCLUDED
# define YY_YY_WORK_MAIN_BUILD_PARSER_H_INCLUDED
/* Debug traces.  */
#ifndef YYDEBUG
# define YYDEBUG 0
#endif
#if YYDEBUG
extern int yydebug;
#endif
/* "%code requires" blocks.  */
#line 11 "/work/main/frontend/parser.y"

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
    const char *file;
} ParseCtx;

/* The lexer's state: where the next character is. */
struct LexState {
    ParseCtx *ctx;
    int line, col;
    const char *file;
};

#line 116 "/work/main/build/parser.h"

/* Token kinds.  */
#ifndef YYTOKENTYPE
# define YYTOKENTYPE
  enum yytokentype
  {
    YYEMPTY = -2,
    YYEOF = 0,                     /* "end of file"  */
    YYerror = 256,                 /* error  */
    YYUNDEF = 257,                 /* "invalid token"  */
    IDENT = 258,                   /* IDENT  */
    INT_LIT = 259,                 /* INT_LIT  */
    FLOAT_LIT = 260,               /* FLOAT_LIT  */
    CHAR_LIT = 261,                /* CHAR_LIT  */
    KW_VOID = 262,                 /* KW_VOID  */
    KW_CHAR = 263,                 /* KW_CHAR  */
    KW_SHORT = 264,                /* KW_SHORT  */
    KW_INT = 265,                  /* KW_INT  */
    KW_UNSIGNED = 266,             /* KW_UNSIGNED  */
    KW_SIGNED = 267,               /* KW_SIGNED  */
    KW_FLOAT = 268,                /* KW_FLOAT  */
    KW_DOUBLE = 269,               /* KW_DOUBLE  */
    KW_UCHAR = 270,                /* KW_UCHAR  */
    KW_USHORT = 271,               /* KW_USHORT  */
    KW_UINT = 272,                 /* KW_UINT  */
    KW_CONST = 273,                /* KW_CONST  */
    KW_IMAGE = 274,                /* KW_IMAGE  */
    KW_BLOCK = 275,                /* KW_BLOCK  */
    KW_LONG = 276,                 /* KW_LONG  */
    KW_BOOL = 277,                 /* KW_BOOL  */
    KW_STRUCT = 278,               /* KW_STRUCT  */
    KW_IF = 279,                   /* KW_IF  */
    KW_ELSE = 280,                 /* KW_ELSE  */
    KW_FOR = 281,                  /* KW_FOR  */
    KW_WHILE = 282,                /* KW_WHILE  */
    KW_DO = 283,                   /* KW_DO  */
    KW_BREAK = 284,                /* KW_BREAK  */
    KW_CONTINUE = 285,             /* KW_CONTINUE  */
    KW_RETURN = 286,               /* KW_RETURN  */
    INC = 287,                     /* INC  */
    DEC = 288,                     /* DEC  */
    SHL = 289,                     /* SHL  */
    SHR = 290,                     /* SHR  */
    LE = 291,                      /* LE  */
    GE = 292,                      /* GE  */
    EQ = 293,                      /* EQ  */
    NE = 294,                      /* NE  */
    AND = 295,                     /* AND  */
    OR = 296,                      /* OR  */
    ADD_ASSIGN = 297,              /* ADD_ASSIGN  */
    SUB_ASSIGN = 298,              /* SUB_ASSIGN  */
    MUL_ASSIGN = 299,              /* MUL_ASSIGN  */
    DIV_ASSIGN = 300,              /* DIV_ASSIGN  */
    MOD_ASSIGN = 301,              /* MOD_ASSIGN  */
    SHL_ASSIGN = 302,              /* SHL_ASSIGN  */
    SHR_ASSIGN = 303,              /* SHR_ASSIGN  */
    AND_ASSIGN = 304,              /* AND_ASSIGN  */
    OR_ASSIGN = 305,               /* OR_ASSIGN  */
    XOR_ASSIGN = 306,              /* XOR_ASSIGN  */
    PRAGMA_IMCL = 307,             /* PRAGMA_IMCL  */
    PRAGMA_END = 308,              /* PRAGMA_END  */
    P_GRID = 309,                  /* P_GRID  */
    P_GRID_SIZE = 310,             /* P_GRID_SIZE  */
    P_BOUNDARY = 311,              /* P_BOUNDARY  */
    P_HALO = 312,                  /* P_HALO  */
    P_UNKNOWN = 313,               /* P_UNKNOWN  */
    STRING_LIT = 314,              /* STRING_LIT  */
    BAD_CHAR = 315                 /* BAD_CHAR  */
  };
  typedef enum yytokentype yytoken_kind_t;
#endif

/* Value type.  */
#if ! defined YYSTYPE && ! defined YYSTYPE_IS_DECLARED
union YYSTYPE
{
#line 105 "/work/main/frontend/parser.y"

    Node *node;
    const char *str;
    Type *type;
    DeclSpec spec;
    Declarator *declarator;
    DeclList *decls;
    ParamList *params;
    Symbol *sym;
    int op;

#line 205 "/work/main/build/parser.h"

};
typedef union YYSTYPE YYSTYPE;
# define YYSTYPE_IS_TRIVIAL 1
# define YYSTYPE_IS_DECLARED 1
#endif

/* Location type.  */
#if ! defined YYLTYPE && ! defined YYLTYPE_IS_DECLARED
typedef struct YYLTYPE YYLTYPE;
struct YYLTYPE
{
  int first_line;
  int first_column;
  int last_line;
  int last_column;
};
# define YYLTYPE_IS_DECLARED 1
# define YYLTYPE_IS_TRIVIAL 1
#endif




int yyparse (ParseCtx *ctx, void *scanner);


#endif /* !YY_YY_WORK_MAIN_BUILD_PARSER_H_INCLUDED  */
