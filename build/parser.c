/* A Bison parser, made by GNU Bison 3.8.2.  */

/* Bison implementation for Yacc-like parsers in C

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

/* C LALR(1) parser skeleton written by Richard Stallman, by
   simplifying the original so-called "semantic" parser.  */

/* DO NOT RELY ON FEATURES THAT ARE NOT DOCUMENTED in the manual,
   especially those whose name start with YY_ or yy_.  They are
   private implementation details that can be changed or removed.  */

/* All symbols defined below should begin with yy or YY, to avoid
   infringing on user name space.  This should be done even for local
   variables, as they might otherwise be expanded by user macros.
   There are some unavoidable exceptions within include files to
   define necessary library symbols; they are noted "INFRINGES ON
   USER NAME SPACE" below.  */

/* Identify Bison output, and Bison version.  */
#define YYBISON 30802

/* Bison version string.  */
#define YYBISON_VERSION "3.8.2"

/* Skeleton name.  */
#define YYSKELETON_NAME "yacc.c"

/* Pure parsers.  */
#define YYPURE 2

/* Push parsers.  */
#define YYPUSH 0

/* Pull parsers.  */
#define YYPULL 1





# ifndef YY_CAST
#  ifdef __cplusplus
#   define YY_CAST(Type, Val) static_cast<Type> (Val)
#   define YY_REINTERPRET_CAST(Type, Val) reinterpret_cast<Type> (Val)
#  else
#   define YY_CAST(Type, Val) ((Type) (Val))
#   define YY_REINTERPRET_CAST(Type, Val) ((Type) (Val))
#  endif
# endif
# ifndef YY_NULLPTR
#  if defined __cplusplus
#   if 201103L <= __cplusplus
#    define YY_NULLPTR nullptr
#   else
#    define YY_NULLPTR 0
#   endif
#  else
#   define YY_NULLPTR ((void*)0)
#  endif
# endif

#include "parser.h"
/* Symbol kind.  */
enum yysymbol_kind_t
{
  YYSYMBOL_YYEMPTY = -2,
  YYSYMBOL_YYEOF = 0,                      /* "end of file"  */
  YYSYMBOL_YYerror = 1,                    /* error  */
  YYSYMBOL_YYUNDEF = 2,                    /* "invalid token"  */
  YYSYMBOL_IDENT = 3,                      /* IDENT  */
  YYSYMBOL_INT_LIT = 4,                    /* INT_LIT  */
  YYSYMBOL_FLOAT_LIT = 5,                  /* FLOAT_LIT  */
  YYSYMBOL_CHAR_LIT = 6,                   /* CHAR_LIT  */
  YYSYMBOL_KW_VOID = 7,                    /* KW_VOID  */
  YYSYMBOL_KW_CHAR = 8,                    /* KW_CHAR  */
  YYSYMBOL_KW_SHORT = 9,                   /* KW_SHORT  */
  YYSYMBOL_KW_INT = 10,                    /* KW_INT  */
  YYSYMBOL_KW_UNSIGNED = 11,               /* KW_UNSIGNED  */
  YYSYMBOL_KW_SIGNED = 12,                 /* KW_SIGNED  */
  YYSYMBOL_KW_FLOAT = 13,                  /* KW_FLOAT  */
  YYSYMBOL_KW_DOUBLE = 14,                 /* KW_DOUBLE  */
  YYSYMBOL_KW_UCHAR = 15,                  /* KW_UCHAR  */
  YYSYMBOL_KW_USHORT = 16,                 /* KW_USHORT  */
  YYSYMBOL_KW_UINT = 17,                   /* KW_UINT  */
  YYSYMBOL_KW_CONST = 18,                  /* KW_CONST  */
  YYSYMBOL_KW_IMAGE = 19,                  /* KW_IMAGE  */
  YYSYMBOL_KW_BLOCK = 20,                  /* KW_BLOCK  */
  YYSYMBOL_KW_LONG = 21,                   /* KW_LONG  */
  YYSYMBOL_KW_BOOL = 22,                   /* KW_BOOL  */
  YYSYMBOL_KW_STRUCT = 23,                 /* KW_STRUCT  */
  YYSYMBOL_KW_IF = 24,                     /* KW_IF  */
  YYSYMBOL_KW_ELSE = 25,                   /* KW_ELSE  */
  YYSYMBOL_KW_FOR = 26,                    /* KW_FOR  */
  YYSYMBOL_KW_WHILE = 27,                  /* KW_WHILE  */
  YYSYMBOL_KW_DO = 28,                     /* KW_DO  */
  YYSYMBOL_KW_BREAK = 29,                  /* KW_BREAK  */
  YYSYMBOL_KW_CONTINUE = 30,               /* KW_CONTINUE  */
  YYSYMBOL_KW_RETURN = 31,                 /* KW_RETURN  */
  YYSYMBOL_INC = 32,                       /* INC  */
  YYSYMBOL_DEC = 33,                       /* DEC  */
  YYSYMBOL_SHL = 34,                       /* SHL  */
  YYSYMBOL_SHR = 35,                       /* SHR  */
  YYSYMBOL_LE = 36,                        /* LE  */
  YYSYMBOL_GE = 37,                        /* GE  */
  YYSYMBOL_EQ = 38,                        /* EQ  */
  YYSYMBOL_NE = 39,                        /* NE  */
  YYSYMBOL_AND = 40,                       /* AND  */
  YYSYMBOL_OR = 41,                        /* OR  */
  YYSYMBOL_ADD_ASSIGN = 42,                /* ADD_ASSIGN  */
  YYSYMBOL_SUB_ASSIGN = 43,                /* SUB_ASSIGN  */
  YYSYMBOL_MUL_ASSIGN = 44,                /* MUL_ASSIGN  */
  YYSYMBOL_DIV_ASSIGN = 45,                /* DIV_ASSIGN  */
  YYSYMBOL_MOD_ASSIGN = 46,                /* MOD_ASSIGN  */
  YYSYMBOL_SHL_ASSIGN = 47,                /* SHL_ASSIGN  */
  YYSYMBOL_SHR_ASSIGN = 48,                /* SHR_ASSIGN  */
  YYSYMBOL_AND_ASSIGN = 49,                /* AND_ASSIGN  */
  YYSYMBOL_OR_ASSIGN = 50,                 /* OR_ASSIGN  */
  YYSYMBOL_XOR_ASSIGN = 51,                /* XOR_ASSIGN  */
  YYSYMBOL_PRAGMA_IMCL = 52,               /* PRAGMA_IMCL  */
  YYSYMBOL_PRAGMA_END = 53,                /* PRAGMA_END  */
  YYSYMBOL_P_GRID = 54,                    /* P_GRID  */
  YYSYMBOL_P_GRID_SIZE = 55,               /* P_GRID_SIZE  */
  YYSYMBOL_P_BOUNDARY = 56,                /* P_BOUNDARY  */
  YYSYMBOL_P_HALO = 57,                    /* P_HALO  */
  YYSYMBOL_P_UNKNOWN = 58,                 /* P_UNKNOWN  */
  YYSYMBOL_STRING_LIT = 59,                /* STRING_LIT  */
  YYSYMBOL_BAD_CHAR = 60,                  /* BAD_CHAR  */
  YYSYMBOL_61_ = 61,                       /* ';'  */
  YYSYMBOL_62_ = 62,                       /* '}'  */
  YYSYMBOL_63_ = 63,                       /* '('  */
  YYSYMBOL_64_ = 64,                       /* ')'  */
  YYSYMBOL_65_ = 65,                       /* ','  */
  YYSYMBOL_66_ = 66,                       /* ':'  */
  YYSYMBOL_67_ = 67,                       /* '<'  */
  YYSYMBOL_68_ = 68,                       /* '>'  */
  YYSYMBOL_69_ = 69,                       /* '['  */
  YYSYMBOL_70_ = 70,                       /* ']'  */
  YYSYMBOL_71_ = 71,                       /* '='  */
  YYSYMBOL_72_ = 72,                       /* '{'  */
  YYSYMBOL_73_ = 73,                       /* '?'  */
  YYSYMBOL_74_ = 74,                       /* '|'  */
  YYSYMBOL_75_ = 75,                       /* '^'  */
  YYSYMBOL_76_ = 76,                       /* '&'  */
  YYSYMBOL_77_ = 77,                       /* '+'  */
  YYSYMBOL_78_ = 78,                       /* '-'  */
  YYSYMBOL_79_ = 79,                       /* '*'  */
  YYSYMBOL_80_ = 80,                       /* '/'  */
  YYSYMBOL_81_ = 81,                       /* '%'  */
  YYSYMBOL_82_ = 82,                       /* '!'  */
  YYSYMBOL_83_ = 83,                       /* '~'  */
  YYSYMBOL_84_ = 84,                       /* '.'  */
  YYSYMBOL_YYACCEPT = 85,                  /* $accept  */
  YYSYMBOL_translation_unit = 86,          /* translation_unit  */
  YYSYMBOL_external_decl = 87,             /* external_decl  */
  YYSYMBOL_pragma_line = 88,               /* pragma_line  */
  YYSYMBOL_89_1 = 89,                      /* $@1  */
  YYSYMBOL_skip_to_end = 90,               /* skip_to_end  */
  YYSYMBOL_grid_names = 91,                /* grid_names  */
  YYSYMBOL_size_exprs = 92,                /* size_exprs  */
  YYSYMBOL_bc_items = 93,                  /* bc_items  */
  YYSYMBOL_bc_item = 94,                   /* bc_item  */
  YYSYMBOL_halo_items = 95,                /* halo_items  */
  YYSYMBOL_halo_item = 96,                 /* halo_item  */
  YYSYMBOL_function_def = 97,              /* function_def  */
  YYSYMBOL_params_opt = 98,                /* params_opt  */
  YYSYMBOL_param_list = 99,                /* param_list  */
  YYSYMBOL_param = 100,                    /* param  */
  YYSYMBOL_decl_spec = 101,                /* decl_spec  */
  YYSYMBOL_type_spec = 102,                /* type_spec  */
  YYSYMBOL_scalar_type = 103,              /* scalar_type  */
  YYSYMBOL_declarator = 104,               /* declarator  */
  YYSYMBOL_init_declarator = 105,          /* init_declarator  */
  YYSYMBOL_106_2 = 106,                    /* $@2  */
  YYSYMBOL_init_declarator_list = 107,     /* init_declarator_list  */
  YYSYMBOL_compound_stmt = 108,            /* compound_stmt  */
  YYSYMBOL_stmt_list = 109,                /* stmt_list  */
  YYSYMBOL_decl_stmt = 110,                /* decl_stmt  */
  YYSYMBOL_stmt = 111,                     /* stmt  */
  YYSYMBOL_for_init = 112,                 /* for_init  */
  YYSYMBOL_expr_opt = 113,                 /* expr_opt  */
  YYSYMBOL_expr = 114,                     /* expr  */
  YYSYMBOL_assign_expr = 115,              /* assign_expr  */
  YYSYMBOL_assign_op = 116,                /* assign_op  */
  YYSYMBOL_cond_expr = 117,                /* cond_expr  */
  YYSYMBOL_lor_expr = 118,                 /* lor_expr  */
  YYSYMBOL_land_expr = 119,                /* land_expr  */
  YYSYMBOL_or_expr = 120,                  /* or_expr  */
  YYSYMBOL_xor_expr = 121,                 /* xor_expr  */
  YYSYMBOL_and_expr = 122,                 /* and_expr  */
  YYSYMBOL_eq_expr = 123,                  /* eq_expr  */
  YYSYMBOL_rel_expr = 124,                 /* rel_expr  */
  YYSYMBOL_shift_expr = 125,               /* shift_expr  */
  YYSYMBOL_add_expr = 126,                 /* add_expr  */
  YYSYMBOL_mul_expr = 127,                 /* mul_expr  */
  YYSYMBOL_cast_expr = 128,                /* cast_expr  */
  YYSYMBOL_unary_expr = 129,               /* unary_expr  */
  YYSYMBOL_postfix_expr = 130,             /* postfix_expr  */
  YYSYMBOL_call_args = 131,                /* call_args  */
  YYSYMBOL_primary_expr = 132              /* primary_expr  */
};
typedef enum yysymbol_kind_t yysymbol_kind_t;



/* Unqualified %code blocks.  */
#line 78 "/work/main/frontend/parser.y"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "lexer.h"

#define L(l) ((Loc){(l).file, (l).first_line, (l).first_column})
#define A (ctx->a)

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

#line 263 "/work/main/build/parser.c"

#ifdef short
# undef short
#endif

/* On compilers that do not define __PTRDIFF_MAX__ etc., make sure
   <limits.h> and (if available) <stdint.h> are included
   so that the code can choose integer types of a good width.  */

#ifndef __PTRDIFF_MAX__
# include <limits.h> /* INFRINGES ON USER NAME SPACE */
# if defined __STDC_VERSION__ && 199901 <= __STDC_VERSION__
#  include <stdint.h> /* INFRINGES ON USER NAME SPACE */
#  define YY_STDINT_H
# endif
#endif

/* Narrow types that promote to a signed type and that can represent a
   signed or unsigned integer of at least N bits.  In tables they can
   save space and decrease cache pressure.  Promoting to a signed type
   helps avoid bugs in integer arithmetic.  */

#ifdef __INT_LEAST8_MAX__
typedef __INT_LEAST8_TYPE__ yytype_int8;
#elif defined YY_STDINT_H
typedef int_least8_t yytype_int8;
#else
typedef signed char yytype_int8;
#endif

#ifdef __INT_LEAST16_MAX__
typedef __INT_LEAST16_TYPE__ yytype_int16;
#elif defined YY_STDINT_H
typedef int_least16_t yytype_int16;
#else
typedef short yytype_int16;
#endif

/* Work around bug in HP-UX 11.23, which defines these macros
   incorrectly for preprocessor constants.  This workaround can likely
   be removed in 2023, as HPE has promised support for HP-UX 11.23
   (aka HP-UX 11i v2) only through the end of 2022; see Table 2 of
   <https://h20195.www2.hpe.com/V2/getpdf.aspx/4AA4-7673ENW.pdf>.  */
#ifdef __hpux
# undef UINT_LEAST8_MAX
# undef UINT_LEAST16_MAX
# define UINT_LEAST8_MAX 255
# define UINT_LEAST16_MAX 65535
#endif

#if defined __UINT_LEAST8_MAX__ && __UINT_LEAST8_MAX__ <= __INT_MAX__
typedef __UINT_LEAST8_TYPE__ yytype_uint8;
#elif (!defined __UINT_LEAST8_MAX__ && defined YY_STDINT_H \
       && UINT_LEAST8_MAX <= INT_MAX)
typedef uint_least8_t yytype_uint8;
#elif !defined __UINT_LEAST8_MAX__ && UCHAR_MAX <= INT_MAX
typedef unsigned char yytype_uint8;
#else
typedef short yytype_uint8;
#endif

#if defined __UINT_LEAST16_MAX__ && __UINT_LEAST16_MAX__ <= __INT_MAX__
typedef __UINT_LEAST16_TYPE__ yytype_uint16;
#elif (!defined __UINT_LEAST16_MAX__ && defined YY_STDINT_H \
       && UINT_LEAST16_MAX <= INT_MAX)
typedef uint_least16_t yytype_uint16;
#elif !defined __UINT_LEAST16_MAX__ && USHRT_MAX <= INT_MAX
typedef unsigned short yytype_uint16;
#else
typedef int yytype_uint16;
#endif

#ifndef YYPTRDIFF_T
# if defined __PTRDIFF_TYPE__ && defined __PTRDIFF_MAX__
#  define YYPTRDIFF_T __PTRDIFF_TYPE__
#  define YYPTRDIFF_MAXIMUM __PTRDIFF_MAX__
# elif defined PTRDIFF_MAX
#  ifndef ptrdiff_t
#   include <stddef.h> /* INFRINGES ON USER NAME SPACE */
#  endif
#  define YYPTRDIFF_T ptrdiff_t
#  define YYPTRDIFF_MAXIMUM PTRDIFF_MAX
# else
#  define YYPTRDIFF_T long
#  define YYPTRDIFF_MAXIMUM LONG_MAX
# endif
#endif

#ifndef YYSIZE_T
# ifdef __SIZE_TYPE__
#  define YYSIZE_T __SIZE_TYPE__
# elif defined size_t
#  define YYSIZE_T size_t
# elif defined __STDC_VERSION__ && 199901 <= __STDC_VERSION__
#  include <stddef.h> /* INFRINGES ON USER NAME SPACE */
#  define YYSIZE_T size_t
# else
#  define YYSIZE_T unsigned
# endif
#endif

#define YYSIZE_MAXIMUM                                  \
  YY_CAST (YYPTRDIFF_T,                                 \
           (YYPTRDIFF_MAXIMUM < YY_CAST (YYSIZE_T, -1)  \
            ? YYPTRDIFF_MAXIMUM                         \
            : YY_CAST (YYSIZE_T, -1)))

#define YYSIZEOF(X) YY_CAST (YYPTRDIFF_T, sizeof (X))


/* Stored state numbers (used for stacks). */
typedef yytype_int16 yy_state_t;

/* State numbers in computations.  */
typedef int yy_state_fast_t;

#ifndef YY_
# if defined YYENABLE_NLS && YYENABLE_NLS
#  if ENABLE_NLS
#   include <libintl.h> /* INFRINGES ON USER NAME SPACE */
#   define YY_(Msgid) dgettext ("bison-runtime", Msgid)
#  endif
# endif
# ifndef YY_
#  define YY_(Msgid) Msgid
# endif
#endif


#ifndef YY_ATTRIBUTE_PURE
# if defined __GNUC__ && 2 < __GNUC__ + (96 <= __GNUC_MINOR__)
#  define YY_ATTRIBUTE_PURE __attribute__ ((__pure__))
# else
#  define YY_ATTRIBUTE_PURE
# endif
#endif

#ifndef YY_ATTRIBUTE_UNUSED
# if defined __GNUC__ && 2 < __GNUC__ + (7 <= __GNUC_MINOR__)
#  define YY_ATTRIBUTE_UNUSED __attribute__ ((__unused__))
# else
#  define YY_ATTRIBUTE_UNUSED
# endif
#endif

/* Suppress unused-variable warnings by "using" E.  */
#if ! defined lint || defined __GNUC__
# define YY_USE(E) ((void) (E))
#else
# define YY_USE(E) /* empty */
#endif

/* Suppress an incorrect diagnostic about yylval being uninitialized.  */
#if defined __GNUC__ && ! defined __ICC && 406 <= __GNUC__ * 100 + __GNUC_MINOR__
# if __GNUC__ * 100 + __GNUC_MINOR__ < 407
#  define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN                           \
    _Pragma ("GCC diagnostic push")                                     \
    _Pragma ("GCC diagnostic ignored \"-Wuninitialized\"")
# else
#  define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN                           \
    _Pragma ("GCC diagnostic push")                                     \
    _Pragma ("GCC diagnostic ignored \"-Wuninitialized\"")              \
    _Pragma ("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
# endif
# define YY_IGNORE_MAYBE_UNINITIALIZED_END      \
    _Pragma ("GCC diagnostic pop")
#else
# define YY_INITIAL_VALUE(Value) Value
#endif
#ifndef YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
# define YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
# define YY_IGNORE_MAYBE_UNINITIALIZED_END
#endif
#ifndef YY_INITIAL_VALUE
# define YY_INITIAL_VALUE(Value) /* Nothing. */
#endif

#if defined __cplusplus && defined __GNUC__ && ! defined __ICC && 6 <= __GNUC__
# define YY_IGNORE_USELESS_CAST_BEGIN                          \
    _Pragma ("GCC diagnostic push")                            \
    _Pragma ("GCC diagnostic ignored \"-Wuseless-cast\"")
# define YY_IGNORE_USELESS_CAST_END            \
    _Pragma ("GCC diagnostic pop")
#endif
#ifndef YY_IGNORE_USELESS_CAST_BEGIN
# define YY_IGNORE_USELESS_CAST_BEGIN
# define YY_IGNORE_USELESS_CAST_END
#endif


#define YY_ASSERT(E) ((void) (0 && (E)))

#if 1

/* The parser invokes alloca or malloc; define the necessary symbols.  */

# ifdef YYSTACK_USE_ALLOCA
#  if YYSTACK_USE_ALLOCA
#   ifdef __GNUC__
#    define YYSTACK_ALLOC __builtin_alloca
#   elif defined __BUILTIN_VA_ARG_INCR
#    include <alloca.h> /* INFRINGES ON USER NAME SPACE */
#   elif defined _AIX
#    define YYSTACK_ALLOC __alloca
#   elif defined _MSC_VER
#    include <malloc.h> /* INFRINGES ON USER NAME SPACE */
#    define alloca _alloca
#   else
#    define YYSTACK_ALLOC alloca
#    if ! defined _ALLOCA_H && ! defined EXIT_SUCCESS
#     include <stdlib.h> /* INFRINGES ON USER NAME SPACE */
      /* Use EXIT_SUCCESS as a witness for stdlib.h.  */
#     ifndef EXIT_SUCCESS
#      define EXIT_SUCCESS 0
#     endif
#    endif
#   endif
#  endif
# endif

# ifdef YYSTACK_ALLOC
   /* Pacify GCC's 'empty if-body' warning.  */
#  define YYSTACK_FREE(Ptr) do { /* empty */; } while (0)
#  ifndef YYSTACK_ALLOC_MAXIMUM
    /* The OS might guarantee only one guard page at the bottom of the stack,
       and a page size can be as small as 4096 bytes.  So we cannot safely
       invoke alloca (N) if N exceeds 4096.  Use a slightly smaller number
       to allow for a few compiler-allocated temporary stack slots.  */
#   define YYSTACK_ALLOC_MAXIMUM 4032 /* reasonable circa 2006 */
#  endif
# else
#  define YYSTACK_ALLOC YYMALLOC
#  define YYSTACK_FREE YYFREE
#  ifndef YYSTACK_ALLOC_MAXIMUM
#   define YYSTACK_ALLOC_MAXIMUM YYSIZE_MAXIMUM
#  endif
#  if (defined __cplusplus && ! defined EXIT_SUCCESS \
       && ! ((defined YYMALLOC || defined malloc) \
             && (defined YYFREE || defined free)))
#   include <stdlib.h> /* INFRINGES ON USER NAME SPACE */
#   ifndef EXIT_SUCCESS
#    define EXIT_SUCCESS 0
#   endif
#  endif
#  ifndef YYMALLOC
#   define YYMALLOC malloc
#   if ! defined malloc && ! defined EXIT_SUCCESS
void *malloc (YYSIZE_T); /* INFRINGES ON USER NAME SPACE */
#   endif
#  endif
#  ifndef YYFREE
#   define YYFREE free
#   if ! defined free && ! defined EXIT_SUCCESS
void free (void *); /* INFRINGES ON USER NAME SPACE */
#   endif
#  endif
# endif
#endif /* 1 */

#if (! defined yyoverflow \
     && (! defined __cplusplus \
         || (defined YYLTYPE_IS_TRIVIAL && YYLTYPE_IS_TRIVIAL \
             && defined YYSTYPE_IS_TRIVIAL && YYSTYPE_IS_TRIVIAL)))

/* A type that is properly aligned for any stack member.  */
union yyalloc
{
  yy_state_t yyss_alloc;
  YYSTYPE yyvs_alloc;
  YYLTYPE yyls_alloc;
};

/* The size of the maximum gap between one aligned stack and the next.  */
# define YYSTACK_GAP_MAXIMUM (YYSIZEOF (union yyalloc) - 1)

/* The size of an array large to enough to hold all stacks, each with
   N elements.  */
# define YYSTACK_BYTES(N) \
     ((N) * (YYSIZEOF (yy_state_t) + YYSIZEOF (YYSTYPE) \
             + YYSIZEOF (YYLTYPE)) \
      + 2 * YYSTACK_GAP_MAXIMUM)

# define YYCOPY_NEEDED 1

/* Relocate STACK from its old location to the new one.  The
   local variables YYSIZE and YYSTACKSIZE give the old and new number of
   elements in the stack, and YYPTR gives the new location of the
   stack.  Advance YYPTR to a properly aligned location for the next
   stack.  */
# define YYSTACK_RELOCATE(Stack_alloc, Stack)                           \
    do                                                                  \
      {                                                                 \
        YYPTRDIFF_T yynewbytes;                                         \
        YYCOPY (&yyptr->Stack_alloc, Stack, yysize);                    \
        Stack = &yyptr->Stack_alloc;                                    \
        yynewbytes = yystacksize * YYSIZEOF (*Stack) + YYSTACK_GAP_MAXIMUM; \
        yyptr += yynewbytes / YYSIZEOF (*yyptr);                        \
      }                                                                 \
    while (0)

#endif

#if defined YYCOPY_NEEDED && YYCOPY_NEEDED
/* Copy COUNT objects from SRC to DST.  The source and destination do
   not overlap.  */
# ifndef YYCOPY
#  if defined __GNUC__ && 1 < __GNUC__
#   define YYCOPY(Dst, Src, Count) \
      __builtin_memcpy (Dst, Src, YY_CAST (YYSIZE_T, (Count)) * sizeof (*(Src)))
#  else
#   define YYCOPY(Dst, Src, Count)              \
      do                                        \
        {                                       \
          YYPTRDIFF_T yyi;                      \
          for (yyi = 0; yyi < (Count); yyi++)   \
            (Dst)[yyi] = (Src)[yyi];            \
        }                                       \
      while (0)
#  endif
# endif
#endif /* !YYCOPY_NEEDED */

/* YYFINAL -- State number of the termination state.  */
#define YYFINAL  2
/* YYLAST -- Last index in YYTABLE.  */
#define YYLAST   647

/* YYNTOKENS -- Number of terminals.  */
#define YYNTOKENS  85
/* YYNNTS -- Number of nonterminals.  */
#define YYNNTS  48
/* YYNRULES -- Number of rules.  */
#define YYNRULES  167
/* YYNSTATES -- Number of states.  */
#define YYNSTATES  298

/* YYMAXUTOK -- Last valid token kind.  */
#define YYMAXUTOK   315


/* YYTRANSLATE(TOKEN-NUM) -- Symbol number corresponding to TOKEN-NUM
   as returned by yylex, with out-of-bounds checking.  */
#define YYTRANSLATE(YYX)                                \
  (0 <= (YYX) && (YYX) <= YYMAXUTOK                     \
   ? YY_CAST (yysymbol_kind_t, yytranslate[YYX])        \
   : YYSYMBOL_YYUNDEF)

/* YYTRANSLATE[TOKEN-NUM] -- Symbol number corresponding to TOKEN-NUM
   as returned by yylex.  */
static const yytype_int8 yytranslate[] =
{
       0,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,    82,     2,     2,     2,    81,    76,     2,
      63,    64,    79,    77,    65,    78,    84,    80,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,    66,    61,
      67,    71,    68,    73,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,    69,     2,    70,    75,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,    72,    74,    62,    83,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     2,     2,     2,     2,
       2,     2,     2,     2,     2,     2,     1,     2,     3,     4,
       5,     6,     7,     8,     9,    10,    11,    12,    13,    14,
      15,    16,    17,    18,    19,    20,    21,    22,    23,    24,
      25,    26,    27,    28,    29,    30,    31,    32,    33,    34,
      35,    36,    37,    38,    39,    40,    41,    42,    43,    44,
      45,    46,    47,    48,    49,    50,    51,    52,    53,    54,
      55,    56,    57,    58,    59,    60
};

#if YYDEBUG
/* YYRLINE[YYN] -- Source line where rule number YYN was defined.  */
static const yytype_int16 yyrline[] =
{
       0,   145,   145,   146,   150,   151,   152,   153,   154,   160,
     161,   162,   163,   164,   164,   166,   167,   171,   172,   176,
     177,   181,   182,   186,   187,   191,   192,   196,   197,   201,
     207,   211,   212,   213,   217,   218,   222,   226,   227,   228,
     232,   233,   234,   235,   236,   237,   238,   239,   243,   244,
     245,   246,   247,   248,   249,   250,   251,   252,   253,   254,
     255,   256,   257,   258,   259,   260,   261,   265,   266,   270,
     271,   272,   272,   277,   278,   284,   288,   289,   293,   297,
     298,   299,   300,   301,   302,   303,   304,   305,   306,   307,
     308,   309,   310,   314,   315,   321,   322,   326,   327,   331,
     332,   336,   337,   338,   339,   340,   341,   342,   343,   344,
     345,   346,   350,   351,   355,   356,   360,   361,   365,   366,
     370,   371,   375,   376,   380,   381,   382,   386,   387,   388,
     389,   390,   394,   395,   396,   400,   401,   402,   406,   407,
     408,   409,   413,   414,   418,   419,   420,   421,   422,   423,
     424,   425,   426,   430,   431,   432,   433,   434,   438,   439,
     443,   444,   445,   446,   447,   448,   449,   450
};
#endif

/** Accessing symbol of state STATE.  */
#define YY_ACCESSING_SYMBOL(State) YY_CAST (yysymbol_kind_t, yystos[State])

#if 1
/* The user-facing name of the symbol whose (internal) number is
   YYSYMBOL.  No bounds checking.  */
static const char *yysymbol_name (yysymbol_kind_t yysymbol) YY_ATTRIBUTE_UNUSED;

/* YYTNAME[SYMBOL-NUM] -- String name of the symbol SYMBOL-NUM.
   First, the terminals, then, starting at YYNTOKENS, nonterminals.  */
static const char *const yytname[] =
{
  "\"end of file\"", "error", "\"invalid token\"", "IDENT", "INT_LIT",
  "FLOAT_LIT", "CHAR_LIT", "KW_VOID", "KW_CHAR", "KW_SHORT", "KW_INT",
  "KW_UNSIGNED", "KW_SIGNED", "KW_FLOAT", "KW_DOUBLE", "KW_UCHAR",
  "KW_USHORT", "KW_UINT", "KW_CONST", "KW_IMAGE", "KW_BLOCK", "KW_LONG",
  "KW_BOOL", "KW_STRUCT", "KW_IF", "KW_ELSE", "KW_FOR", "KW_WHILE",
  "KW_DO", "KW_BREAK", "KW_CONTINUE", "KW_RETURN", "INC", "DEC", "SHL",
  "SHR", "LE", "GE", "EQ", "NE", "AND", "OR", "ADD_ASSIGN", "SUB_ASSIGN",
  "MUL_ASSIGN", "DIV_ASSIGN", "MOD_ASSIGN", "SHL_ASSIGN", "SHR_ASSIGN",
  "AND_ASSIGN", "OR_ASSIGN", "XOR_ASSIGN", "PRAGMA_IMCL", "PRAGMA_END",
  "P_GRID", "P_GRID_SIZE", "P_BOUNDARY", "P_HALO", "P_UNKNOWN",
  "STRING_LIT", "BAD_CHAR", "';'", "'}'", "'('", "')'", "','", "':'",
  "'<'", "'>'", "'['", "']'", "'='", "'{'", "'?'", "'|'", "'^'", "'&'",
  "'+'", "'-'", "'*'", "'/'", "'%'", "'!'", "'~'", "'.'", "$accept",
  "translation_unit", "external_decl", "pragma_line", "$@1", "skip_to_end",
  "grid_names", "size_exprs", "bc_items", "bc_item", "halo_items",
  "halo_item", "function_def", "params_opt", "param_list", "param",
  "decl_spec", "type_spec", "scalar_type", "declarator", "init_declarator",
  "$@2", "init_declarator_list", "compound_stmt", "stmt_list", "decl_stmt",
  "stmt", "for_init", "expr_opt", "expr", "assign_expr", "assign_op",
  "cond_expr", "lor_expr", "land_expr", "or_expr", "xor_expr", "and_expr",
  "eq_expr", "rel_expr", "shift_expr", "add_expr", "mul_expr", "cast_expr",
  "unary_expr", "postfix_expr", "call_args", "primary_expr", YY_NULLPTR
};

static const char *
yysymbol_name (yysymbol_kind_t yysymbol)
{
  return yytname[yysymbol];
}
#endif

#define YYPACT_NINF (-245)

#define yypact_value_is_default(Yyn) \
  ((Yyn) == YYPACT_NINF)

#define YYTABLE_NINF (-33)

#define yytable_value_is_error(Yyn) \
  0

/* YYPACT[STATE-NUM] -- Index in YYTABLE of the portion describing
   STATE-NUM.  */
static const yytype_int16 yypact[] =
{
    -245,   535,  -245,   -18,  -245,  -245,  -245,  -245,    62,    86,
    -245,  -245,  -245,  -245,  -245,   624,   -46,   -14,  -245,  -245,
    -245,    46,  -245,  -245,  -245,  -245,    55,    38,  -245,  -245,
    -245,  -245,  -245,  -245,  -245,  -245,  -245,  -245,   258,   556,
      39,  -245,    71,    91,   100,   113,  -245,   120,  -245,    50,
      57,   104,   117,   119,   122,  -245,   111,   444,   191,   195,
       2,   590,  -245,  -245,  -245,  -245,  -245,  -245,  -245,   -31,
     140,  -245,  -245,  -245,   455,   455,  -245,   423,   444,   444,
     444,   444,   444,   444,    44,  -245,  -245,   -37,   169,   137,
     138,   136,    67,   -17,    89,    54,    41,  -245,   -19,   -21,
    -245,   148,    88,  -245,   150,    93,  -245,   164,  -245,  -245,
     154,   155,   156,  -245,   217,   170,   219,    34,   444,  -245,
    -245,   160,    95,  -245,  -245,  -245,  -245,  -245,  -245,  -245,
    -245,   173,   444,   444,   444,   444,   444,   444,   444,   444,
     444,   444,   444,   444,   444,   444,   444,   444,   444,   444,
     444,   444,  -245,  -245,  -245,  -245,  -245,  -245,  -245,  -245,
    -245,  -245,  -245,   444,  -245,  -245,   444,   224,   226,   209,
     191,   444,   210,   195,  -245,   192,   607,  -245,   207,  -245,
    -245,  -245,  -245,    97,   444,  -245,   444,  -245,  -245,   169,
     102,   137,   138,   136,    67,   -17,   -17,    89,    89,    89,
      89,    54,    54,    41,    41,  -245,  -245,  -245,  -245,   -16,
    -245,   214,  -245,  -245,  -245,  -245,  -245,  -245,  -245,  -245,
     444,  -245,   444,  -245,  -245,   444,  -245,   444,   227,   208,
    -245,  -245,   218,   108,   220,   221,   222,   310,   230,   231,
     444,  -245,  -245,   217,  -245,  -245,  -245,     3,  -245,  -245,
    -245,  -245,   444,   342,   444,   260,  -245,  -245,   232,   229,
     -61,  -245,     4,  -245,   109,   217,   444,   234,   116,   233,
    -245,   123,  -245,   217,   310,    12,   236,  -245,   310,   444,
    -245,  -245,  -245,   273,  -245,   444,  -245,   124,   299,   310,
     237,   241,   245,  -245,   310,  -245,  -245,  -245
};

/* YYDEFACT[STATE-NUM] -- Default reduction number in state STATE-NUM.
   Performed when YYTABLE does not specify something else to do.  Zero
   means the default is an error.  */
static const yytype_uint8 yydefact[] =
{
       2,     0,     1,     0,    41,    48,    52,    56,    59,    57,
      62,    63,    51,    55,    61,     0,     0,     0,    64,    65,
      66,     0,     6,     3,     5,     4,     0,    37,    40,     8,
       7,    50,    54,    60,    49,    53,    58,    38,     0,     0,
       0,    15,     0,     0,     0,     0,    13,     0,    39,     0,
       0,     0,     0,     0,     0,    16,     0,     0,     0,     0,
       0,    31,    44,    46,    42,    45,    47,    43,    19,     0,
     160,   163,   165,   164,     0,     0,   167,     0,     0,     0,
       0,     0,     0,     0,     0,    21,    99,   112,   114,   116,
     118,   120,   122,   124,   127,   132,   135,   138,   142,   144,
     153,     0,     0,    23,     0,     0,    27,     0,    17,    14,
      41,     0,    33,    34,     0,     0,     0,     0,     0,   145,
     146,     0,     0,    97,   151,   142,   148,   147,   152,   149,
     150,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,   102,   103,   104,   105,   106,   107,   108,   109,
     110,   111,   101,     0,   156,   157,     0,     0,     0,     0,
       0,     0,     0,     0,    18,     0,     0,    67,    36,     9,
      20,   161,   158,     0,     0,   166,     0,    10,    22,   115,
       0,   117,   119,   121,   123,   125,   126,   130,   131,   128,
     129,   133,   134,   136,   137,   139,   140,   141,   100,     0,
     155,    25,    11,    24,    29,    12,    28,    76,    30,    35,
       0,   162,     0,   143,    98,     0,   154,     0,     0,     0,
     159,   113,     0,     0,     0,     0,     0,     0,     0,     0,
      95,    82,    75,     0,    79,    80,    77,     0,    68,    26,
      91,    92,     0,    95,     0,     0,    88,    89,     0,    96,
      69,    73,     0,    81,     0,     0,    95,     0,     0,     0,
      90,     0,    78,     0,     0,     0,     0,    93,     0,     0,
      71,    70,    74,    83,    94,    95,    85,     0,     0,     0,
       0,     0,     0,    84,     0,    86,    72,    87
};

/* YYPGOTO[NTERM-NUM].  */
static const yytype_int16 yypgoto[] =
{
    -245,  -245,  -245,  -245,  -245,  -245,  -245,  -245,  -245,   142,
    -245,   135,  -245,  -245,  -245,   159,    -1,   329,   -32,   252,
      94,  -245,   103,   197,  -245,  -245,  -232,  -245,  -244,   -75,
     -56,  -245,   145,  -245,   243,   242,   244,   246,   240,    53,
     -54,    51,    60,   -65,     0,  -245,  -245,  -245
};

/* YYDEFGOTO[NTERM-NUM].  */
static const yytype_int16 yydefgoto[] =
{
       0,     1,    23,    24,    60,   109,    69,    84,   102,   103,
     105,   106,    25,   111,   112,   113,   243,    27,    28,   260,
     261,   288,   262,   244,   228,   245,   246,   266,   258,   247,
     123,   163,    86,    87,    88,    89,    90,    91,    92,    93,
      94,    95,    96,    97,    98,    99,   183,   100
};

/* YYTABLE[YYPACT[STATE-NUM]] -- What to do in state STATE-NUM.  If
   positive, shift that token.  If negative, reduce the rule whose
   number is the opposite.  If YYTABLE_NINF, syntax error.  */
static const yytype_int16 yytable[] =
{
      26,    85,   122,   107,   133,   255,    51,    54,   220,   267,
     271,   164,   165,   124,   126,   127,   128,   129,   130,   141,
     142,    38,   276,   152,   153,   154,   155,   156,   157,   158,
     159,   160,   161,   115,   116,    29,   134,    70,    71,    72,
      73,   290,   283,   122,    30,   121,   286,    40,   166,   186,
     143,   144,   162,    39,   226,   108,    48,   293,    47,   190,
     114,   182,   297,   167,   263,   272,    74,    75,   186,   273,
      31,    32,    33,   284,   119,   120,   188,   273,   125,   125,
     125,   125,   125,   125,   205,   206,   207,   197,   198,   199,
     200,   209,    55,    76,    34,    35,    36,    77,   181,    41,
      42,    43,    44,    45,    46,   139,   140,   208,   131,   132,
      78,    79,    80,    81,    68,   214,    82,    83,    62,   223,
     149,   150,   151,   145,   146,    63,    70,    71,    72,    73,
     224,   147,   148,   125,    56,   125,   125,   125,   125,   125,
     125,   125,   125,   125,   125,   125,   125,   125,   125,   125,
     125,   125,   169,   170,    57,    74,    75,   172,   173,   185,
     186,   221,   222,    58,   229,   259,   230,   186,   225,   250,
     251,   232,    64,   274,   186,   114,    59,   264,   259,   268,
     278,   186,    76,    61,   125,    65,    77,    66,   291,   186,
      67,   259,   195,   196,   101,   280,   201,   202,   104,    78,
      79,    80,    81,   117,   287,    82,    83,   203,   204,   135,
     259,   136,   138,   137,   168,   281,   171,   174,   -32,   175,
     177,   176,   180,   179,   184,   125,   187,   210,   233,   211,
      70,    71,    72,    73,     4,     5,     6,     7,     8,     9,
      10,    11,    12,    13,    14,    15,    16,    17,    18,    19,
      20,   234,   265,   235,   236,   237,   238,   239,   240,    74,
      75,    49,   212,   215,   217,    50,     5,     6,     7,     8,
       9,    10,    11,    12,    13,    14,   220,   227,   248,    18,
      19,    20,   249,   252,   253,   254,    76,   269,   241,   242,
      77,   256,   257,   270,   186,   277,   279,   285,   289,   217,
     292,   294,   295,    78,    79,    80,    81,   296,   216,    82,
      83,   233,   213,    70,    71,    72,    73,     4,     5,     6,
       7,     8,     9,    10,    11,    12,    13,    14,    15,    16,
      17,    18,    19,    20,   234,   219,   235,   236,   237,   238,
     239,   240,    74,    75,    37,    70,    71,    72,    73,     4,
       5,     6,     7,     8,     9,    10,    11,    12,    13,    14,
      15,    16,    17,    18,    19,    20,   178,   282,   275,    76,
     231,   241,   218,    77,    74,    75,   189,   191,   194,     0,
     192,     0,   217,   193,     0,     0,    78,    79,    80,    81,
       0,     0,    82,    83,     0,     0,     0,     0,     0,     0,
       0,    76,     0,     0,     0,    77,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,     0,     0,    78,    79,
      80,    81,     0,     0,    82,    83,    70,    71,    72,    73,
       0,     5,     6,     7,     8,     9,    10,    11,    12,    13,
      14,     0,     0,     0,    18,    19,    20,    70,    71,    72,
      73,     0,     0,     0,     0,    74,    75,     0,    70,    71,
      72,    73,     0,     0,     0,     0,     0,     0,     0,     0,
       0,     0,     0,     0,     0,     0,    74,    75,     0,     0,
       0,     0,    76,     0,     0,     0,    77,    74,    75,     0,
       0,     0,     0,     0,     0,     0,     0,     0,     0,    78,
      79,    80,    81,    76,     0,    82,    83,    77,     0,     0,
       0,     0,     0,     0,    76,     0,     0,     0,   118,     0,
      78,    79,    80,    81,     0,     0,    82,    83,     0,     0,
       0,    78,    79,    80,    81,     2,     3,    82,    83,     0,
       0,     0,     4,     5,     6,     7,     8,     9,    10,    11,
      12,    13,    14,    15,    16,    17,    18,    19,    20,    52,
       0,     0,     0,    53,     5,     6,     7,     8,     9,    10,
      11,    12,    13,    14,     0,     0,     0,    18,    19,    20,
       0,     0,     0,     0,     0,     0,     0,    21,     0,     0,
       0,     0,     0,     0,     0,     0,    22,   110,     5,     6,
       7,     8,     9,    10,    11,    12,    13,    14,    15,    16,
      17,    18,    19,    20,     4,     5,     6,     7,     8,     9,
      10,    11,    12,    13,    14,    15,    16,    17,    18,    19,
      20,     4,     5,     6,     7,     8,     9,    10,    11,    12,
      13,    14,     0,    16,    17,    18,    19,    20
};

static const yytype_int16 yycheck[] =
{
       1,    57,    77,     1,    41,   237,    38,    39,    69,   253,
      71,    32,    33,    78,    79,    80,    81,    82,    83,    36,
      37,    67,   266,    42,    43,    44,    45,    46,    47,    48,
      49,    50,    51,    64,    65,    53,    73,     3,     4,     5,
       6,   285,   274,   118,    62,    77,   278,     1,    69,    65,
      67,    68,    71,    67,    70,    53,    18,   289,     3,   134,
      61,   117,   294,    84,    61,    61,    32,    33,    65,    65,
       8,     9,    10,    61,    74,    75,   132,    65,    78,    79,
      80,    81,    82,    83,   149,   150,   151,   141,   142,   143,
     144,   166,    53,    59,     8,     9,    10,    63,    64,    53,
      54,    55,    56,    57,    58,    38,    39,   163,    64,    65,
      76,    77,    78,    79,     3,   171,    82,    83,    68,   184,
      79,    80,    81,    34,    35,    68,     3,     4,     5,     6,
     186,    77,    78,   133,    63,   135,   136,   137,   138,   139,
     140,   141,   142,   143,   144,   145,   146,   147,   148,   149,
     150,   151,    64,    65,    63,    32,    33,    64,    65,    64,
      65,    64,    65,    63,   220,   240,   222,    65,    66,    61,
      62,   227,    68,    64,    65,   176,    63,   252,   253,   254,
      64,    65,    59,    63,   184,    68,    63,    68,    64,    65,
      68,   266,   139,   140,     3,    72,   145,   146,     3,    76,
      77,    78,    79,    63,   279,    82,    83,   147,   148,    40,
     285,    74,    76,    75,    66,   271,    66,    53,    64,    64,
       3,    65,     3,    53,    64,   225,    53,     3,     1,     3,
       3,     4,     5,     6,     7,     8,     9,    10,    11,    12,
      13,    14,    15,    16,    17,    18,    19,    20,    21,    22,
      23,    24,   253,    26,    27,    28,    29,    30,    31,    32,
      33,     3,    53,    53,    72,     7,     8,     9,    10,    11,
      12,    13,    14,    15,    16,    17,    69,    63,    70,    21,
      22,    23,    64,    63,    63,    63,    59,    27,    61,    62,
      63,    61,    61,    61,    65,    61,    63,    61,    25,    72,
       1,    64,    61,    76,    77,    78,    79,    62,   173,    82,
      83,     1,   170,     3,     4,     5,     6,     7,     8,     9,
      10,    11,    12,    13,    14,    15,    16,    17,    18,    19,
      20,    21,    22,    23,    24,   176,    26,    27,    28,    29,
      30,    31,    32,    33,    15,     3,     4,     5,     6,     7,
       8,     9,    10,    11,    12,    13,    14,    15,    16,    17,
      18,    19,    20,    21,    22,    23,   114,   273,   265,    59,
     225,    61,   175,    63,    32,    33,   133,   135,   138,    -1,
     136,    -1,    72,   137,    -1,    -1,    76,    77,    78,    79,
      -1,    -1,    82,    83,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    59,    -1,    -1,    -1,    63,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    76,    77,
      78,    79,    -1,    -1,    82,    83,     3,     4,     5,     6,
      -1,     8,     9,    10,    11,    12,    13,    14,    15,    16,
      17,    -1,    -1,    -1,    21,    22,    23,     3,     4,     5,
       6,    -1,    -1,    -1,    -1,    32,    33,    -1,     3,     4,
       5,     6,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    32,    33,    -1,    -1,
      -1,    -1,    59,    -1,    -1,    -1,    63,    32,    33,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    -1,    76,
      77,    78,    79,    59,    -1,    82,    83,    63,    -1,    -1,
      -1,    -1,    -1,    -1,    59,    -1,    -1,    -1,    63,    -1,
      76,    77,    78,    79,    -1,    -1,    82,    83,    -1,    -1,
      -1,    76,    77,    78,    79,     0,     1,    82,    83,    -1,
      -1,    -1,     7,     8,     9,    10,    11,    12,    13,    14,
      15,    16,    17,    18,    19,    20,    21,    22,    23,     3,
      -1,    -1,    -1,     7,     8,     9,    10,    11,    12,    13,
      14,    15,    16,    17,    -1,    -1,    -1,    21,    22,    23,
      -1,    -1,    -1,    -1,    -1,    -1,    -1,    52,    -1,    -1,
      -1,    -1,    -1,    -1,    -1,    -1,    61,     7,     8,     9,
      10,    11,    12,    13,    14,    15,    16,    17,    18,    19,
      20,    21,    22,    23,     7,     8,     9,    10,    11,    12,
      13,    14,    15,    16,    17,    18,    19,    20,    21,    22,
      23,     7,     8,     9,    10,    11,    12,    13,    14,    15,
      16,    17,    -1,    19,    20,    21,    22,    23
};

/* YYSTOS[STATE-NUM] -- The symbol kind of the accessing symbol of
   state STATE-NUM.  */
static const yytype_uint8 yystos[] =
{
       0,    86,     0,     1,     7,     8,     9,    10,    11,    12,
      13,    14,    15,    16,    17,    18,    19,    20,    21,    22,
      23,    52,    61,    87,    88,    97,   101,   102,   103,    53,
      62,     8,     9,    10,     8,     9,    10,   102,    67,    67,
       1,    53,    54,    55,    56,    57,    58,     3,    18,     3,
       7,   103,     3,     7,   103,    53,    63,    63,    63,    63,
      89,    63,    68,    68,    68,    68,    68,    68,     3,    91,
       3,     4,     5,     6,    32,    33,    59,    63,    76,    77,
      78,    79,    82,    83,    92,   115,   117,   118,   119,   120,
     121,   122,   123,   124,   125,   126,   127,   128,   129,   130,
     132,     3,    93,    94,     3,    95,    96,     1,    53,    90,
       7,    98,    99,   100,   101,    64,    65,    63,    63,   129,
     129,   103,   114,   115,   128,   129,   128,   128,   128,   128,
     128,    64,    65,    41,    73,    40,    74,    75,    76,    38,
      39,    36,    37,    67,    68,    34,    35,    77,    78,    79,
      80,    81,    42,    43,    44,    45,    46,    47,    48,    49,
      50,    51,    71,   116,    32,    33,    69,    84,    66,    64,
      65,    66,    64,    65,    53,    64,    65,     3,   104,    53,
       3,    64,   115,   131,    64,    64,    65,    53,   115,   119,
     114,   120,   121,   122,   123,   124,   124,   125,   125,   125,
     125,   126,   126,   127,   127,   128,   128,   128,   115,   114,
       3,     3,    53,    94,   115,    53,    96,    72,   108,   100,
      69,    64,    65,   128,   115,    66,    70,    63,   109,   115,
     115,   117,   115,     1,    24,    26,    27,    28,    29,    30,
      31,    61,    62,   101,   108,   110,   111,   114,    70,    64,
      61,    62,    63,    63,    63,   111,    61,    61,   113,   114,
     104,   105,   107,    61,   114,   101,   112,   113,   114,    27,
      61,    71,    61,    65,    64,   107,   113,    61,    64,    63,
      72,   115,   105,   111,    61,    61,   111,   114,   106,    25,
     113,    64,     1,   111,    64,    61,    62,   111
};

/* YYR1[RULE-NUM] -- Symbol kind of the left-hand side of rule RULE-NUM.  */
static const yytype_uint8 yyr1[] =
{
       0,    85,    86,    86,    87,    87,    87,    87,    87,    88,
      88,    88,    88,    89,    88,    88,    88,    90,    90,    91,
      91,    92,    92,    93,    93,    94,    94,    95,    95,    96,
      97,    98,    98,    98,    99,    99,   100,   101,   101,   101,
     102,   102,   102,   102,   102,   102,   102,   102,   103,   103,
     103,   103,   103,   103,   103,   103,   103,   103,   103,   103,
     103,   103,   103,   103,   103,   103,   103,   104,   104,   105,
     105,   106,   105,   107,   107,   108,   109,   109,   110,   111,
     111,   111,   111,   111,   111,   111,   111,   111,   111,   111,
     111,   111,   111,   112,   112,   113,   113,   114,   114,   115,
     115,   116,   116,   116,   116,   116,   116,   116,   116,   116,
     116,   116,   117,   117,   118,   118,   119,   119,   120,   120,
     121,   121,   122,   122,   123,   123,   123,   124,   124,   124,
     124,   124,   125,   125,   125,   126,   126,   126,   127,   127,
     127,   127,   128,   128,   129,   129,   129,   129,   129,   129,
     129,   129,   129,   130,   130,   130,   130,   130,   131,   131,
     132,   132,   132,   132,   132,   132,   132,   132
};

/* YYR2[RULE-NUM] -- Number of symbols on the right-hand side of rule RULE-NUM.  */
static const yytype_int8 yyr2[] =
{
       0,     2,     0,     2,     1,     1,     1,     2,     2,     6,
       6,     6,     6,     0,     4,     2,     3,     1,     2,     1,
       3,     1,     3,     1,     3,     3,     6,     1,     3,     3,
       6,     0,     1,     1,     1,     3,     2,     1,     2,     2,
       1,     1,     4,     4,     4,     4,     4,     4,     1,     2,
       2,     1,     1,     2,     2,     1,     1,     1,     2,     1,
       2,     1,     1,     1,     1,     1,     1,     1,     4,     1,
       3,     0,     6,     1,     3,     3,     0,     2,     3,     1,
       1,     2,     1,     5,     7,     5,     7,     8,     2,     2,
       3,     2,     2,     2,     3,     0,     1,     1,     3,     1,
       3,     1,     1,     1,     1,     1,     1,     1,     1,     1,
       1,     1,     1,     5,     1,     3,     1,     3,     1,     3,
       1,     3,     1,     3,     1,     3,     3,     1,     3,     3,
       3,     3,     1,     3,     3,     1,     3,     3,     1,     3,
       3,     3,     1,     4,     1,     2,     2,     2,     2,     2,
       2,     2,     2,     1,     4,     3,     2,     2,     1,     3,
       1,     3,     4,     1,     1,     1,     3,     1
};


enum { YYENOMEM = -2 };

#define yyerrok         (yyerrstatus = 0)
#define yyclearin       (yychar = YYEMPTY)

#define YYACCEPT        goto yyacceptlab
#define YYABORT         goto yyabortlab
#define YYERROR         goto yyerrorlab
#define YYNOMEM         goto yyexhaustedlab


#define YYRECOVERING()  (!!yyerrstatus)

#define YYBACKUP(Token, Value)                                    \
  do                                                              \
    if (yychar == YYEMPTY)                                        \
      {                                                           \
        yychar = (Token);                                         \
        yylval = (Value);                                         \
        YYPOPSTACK (yylen);                                       \
        yystate = *yyssp;                                         \
        goto yybackup;                                            \
      }                                                           \
    else                                                          \
      {                                                           \
        yyerror (&yylloc, ctx, scanner, YY_("syntax error: cannot back up")); \
        YYERROR;                                                  \
      }                                                           \
  while (0)

/* Backward compatibility with an undocumented macro.
   Use YYerror or YYUNDEF. */
#define YYERRCODE YYUNDEF

/* YYLLOC_DEFAULT -- Set CURRENT to span from RHS[1] to RHS[N].
   If N is 0, then set CURRENT to the empty location which ends
   the previous symbol: RHS[0] (always defined).  */

#ifndef YYLLOC_DEFAULT
# define YYLLOC_DEFAULT(Current, Rhs, N)                                \
    do                                                                  \
      if (N)                                                            \
        {                                                               \
          (Current).first_line   = YYRHSLOC (Rhs, 1).first_line;        \
          (Current).first_column = YYRHSLOC (Rhs, 1).first_column;      \
          (Current).last_line    = YYRHSLOC (Rhs, N).last_line;         \
          (Current).last_column  = YYRHSLOC (Rhs, N).last_column;       \
        }                                                               \
      else                                                              \
        {                                                               \
          (Current).first_line   = (Current).last_line   =              \
            YYRHSLOC (Rhs, 0).last_line;                                \
          (Current).first_column = (Current).last_column =              \
            YYRHSLOC (Rhs, 0).last_column;                              \
        }                                                               \
    while (0)
#endif

#define YYRHSLOC(Rhs, K) ((Rhs)[K])


/* Enable debugging if requested.  */
#if YYDEBUG

# ifndef YYFPRINTF
#  include <stdio.h> /* INFRINGES ON USER NAME SPACE */
#  define YYFPRINTF fprintf
# endif

# define YYDPRINTF(Args)                        \
do {                                            \
  if (yydebug)                                  \
    YYFPRINTF Args;                             \
} while (0)


/* YYLOCATION_PRINT -- Print the location on the stream.
   This macro was not mandated originally: define only if we know
   we won't break user code: when these are the locations we know.  */

# ifndef YYLOCATION_PRINT

#  if defined YY_LOCATION_PRINT

   /* Temporary convenience wrapper in case some people defined the
      undocumented and private YY_LOCATION_PRINT macros.  */
#   define YYLOCATION_PRINT(File, Loc)  YY_LOCATION_PRINT(File, *(Loc))

#  elif defined YYLTYPE_IS_TRIVIAL && YYLTYPE_IS_TRIVIAL

/* Print *YYLOCP on YYO.  Private, do not rely on its existence. */

YY_ATTRIBUTE_UNUSED
static int
yy_location_print_ (FILE *yyo, YYLTYPE const * const yylocp)
{
  int res = 0;
  int end_col = 0 != yylocp->last_column ? yylocp->last_column - 1 : 0;
  if (0 <= yylocp->first_line)
    {
      res += YYFPRINTF (yyo, "%d", yylocp->first_line);
      if (0 <= yylocp->first_column)
        res += YYFPRINTF (yyo, ".%d", yylocp->first_column);
    }
  if (0 <= yylocp->last_line)
    {
      if (yylocp->first_line < yylocp->last_line)
        {
          res += YYFPRINTF (yyo, "-%d", yylocp->last_line);
          if (0 <= end_col)
            res += YYFPRINTF (yyo, ".%d", end_col);
        }
      else if (0 <= end_col && yylocp->first_column < end_col)
        res += YYFPRINTF (yyo, "-%d", end_col);
    }
  return res;
}

#   define YYLOCATION_PRINT  yy_location_print_

    /* Temporary convenience wrapper in case some people defined the
       undocumented and private YY_LOCATION_PRINT macros.  */
#   define YY_LOCATION_PRINT(File, Loc)  YYLOCATION_PRINT(File, &(Loc))

#  else

#   define YYLOCATION_PRINT(File, Loc) ((void) 0)
    /* Temporary convenience wrapper in case some people defined the
       undocumented and private YY_LOCATION_PRINT macros.  */
#   define YY_LOCATION_PRINT  YYLOCATION_PRINT

#  endif
# endif /* !defined YYLOCATION_PRINT */


# define YY_SYMBOL_PRINT(Title, Kind, Value, Location)                    \
do {                                                                      \
  if (yydebug)                                                            \
    {                                                                     \
      YYFPRINTF (stderr, "%s ", Title);                                   \
      yy_symbol_print (stderr,                                            \
                  Kind, Value, Location, ctx, scanner); \
      YYFPRINTF (stderr, "\n");                                           \
    }                                                                     \
} while (0)


/*-----------------------------------.
| Print this symbol's value on YYO.  |
`-----------------------------------*/

static void
yy_symbol_value_print (FILE *yyo,
                       yysymbol_kind_t yykind, YYSTYPE const * const yyvaluep, YYLTYPE const * const yylocationp, ParseCtx *ctx, void *scanner)
{
  FILE *yyoutput = yyo;
  YY_USE (yyoutput);
  YY_USE (yylocationp);
  YY_USE (ctx);
  YY_USE (scanner);
  if (!yyvaluep)
    return;
  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  YY_USE (yykind);
  YY_IGNORE_MAYBE_UNINITIALIZED_END
}


/*---------------------------.
| Print this symbol on YYO.  |
`---------------------------*/

static void
yy_symbol_print (FILE *yyo,
                 yysymbol_kind_t yykind, YYSTYPE const * const yyvaluep, YYLTYPE const * const yylocationp, ParseCtx *ctx, void *scanner)
{
  YYFPRINTF (yyo, "%s %s (",
             yykind < YYNTOKENS ? "token" : "nterm", yysymbol_name (yykind));

  YYLOCATION_PRINT (yyo, yylocationp);
  YYFPRINTF (yyo, ": ");
  yy_symbol_value_print (yyo, yykind, yyvaluep, yylocationp, ctx, scanner);
  YYFPRINTF (yyo, ")");
}

/*------------------------------------------------------------------.
| yy_stack_print -- Print the state stack from its BOTTOM up to its |
| TOP (included).                                                   |
`------------------------------------------------------------------*/

static void
yy_stack_print (yy_state_t *yybottom, yy_state_t *yytop)
{
  YYFPRINTF (stderr, "Stack now");
  for (; yybottom <= yytop; yybottom++)
    {
      int yybot = *yybottom;
      YYFPRINTF (stderr, " %d", yybot);
    }
  YYFPRINTF (stderr, "\n");
}

# define YY_STACK_PRINT(Bottom, Top)                            \
do {                                                            \
  if (yydebug)                                                  \
    yy_stack_print ((Bottom), (Top));                           \
} while (0)


/*------------------------------------------------.
| Report that the YYRULE is going to be reduced.  |
`------------------------------------------------*/

static void
yy_reduce_print (yy_state_t *yyssp, YYSTYPE *yyvsp, YYLTYPE *yylsp,
                 int yyrule, ParseCtx *ctx, void *scanner)
{
  int yylno = yyrline[yyrule];
  int yynrhs = yyr2[yyrule];
  int yyi;
  YYFPRINTF (stderr, "Reducing stack by rule %d (line %d):\n",
             yyrule - 1, yylno);
  /* The symbols being reduced.  */
  for (yyi = 0; yyi < yynrhs; yyi++)
    {
      YYFPRINTF (stderr, "   $%d = ", yyi + 1);
      yy_symbol_print (stderr,
                       YY_ACCESSING_SYMBOL (+yyssp[yyi + 1 - yynrhs]),
                       &yyvsp[(yyi + 1) - (yynrhs)],
                       &(yylsp[(yyi + 1) - (yynrhs)]), ctx, scanner);
      YYFPRINTF (stderr, "\n");
    }
}

# define YY_REDUCE_PRINT(Rule)          \
do {                                    \
  if (yydebug)                          \
    yy_reduce_print (yyssp, yyvsp, yylsp, Rule, ctx, scanner); \
} while (0)

/* Nonzero means print parse trace.  It is left uninitialized so that
   multiple parsers can coexist.  */
int yydebug;
#else /* !YYDEBUG */
# define YYDPRINTF(Args) ((void) 0)
# define YY_SYMBOL_PRINT(Title, Kind, Value, Location)
# define YY_STACK_PRINT(Bottom, Top)
# define YY_REDUCE_PRINT(Rule)
#endif /* !YYDEBUG */


/* YYINITDEPTH -- initial size of the parser's stacks.  */
#ifndef YYINITDEPTH
# define YYINITDEPTH 200
#endif

/* YYMAXDEPTH -- maximum size the stacks can grow to (effective only
   if the built-in stack extension method is used).

   Do not make this value too large; the results are undefined if
   YYSTACK_ALLOC_MAXIMUM < YYSTACK_BYTES (YYMAXDEPTH)
   evaluated with infinite-precision integer arithmetic.  */

#ifndef YYMAXDEPTH
# define YYMAXDEPTH 10000
#endif


/* Context of a parse error.  */
typedef struct
{
  yy_state_t *yyssp;
  yysymbol_kind_t yytoken;
  YYLTYPE *yylloc;
} yypcontext_t;

/* Put in YYARG at most YYARGN of the expected tokens given the
   current YYCTX, and return the number of tokens stored in YYARG.  If
   YYARG is null, return the number of expected tokens (guaranteed to
   be less than YYNTOKENS).  Return YYENOMEM on memory exhaustion.
   Return 0 if there are more than YYARGN expected tokens, yet fill
   YYARG up to YYARGN. */
static int
yypcontext_expected_tokens (const yypcontext_t *yyctx,
                            yysymbol_kind_t yyarg[], int yyargn)
{
  /* Actual size of YYARG. */
  int yycount = 0;
  int yyn = yypact[+*yyctx->yyssp];
  if (!yypact_value_is_default (yyn))
    {
      /* Start YYX at -YYN if negative to avoid negative indexes in
         YYCHECK.  In other words, skip the first -YYN actions for
         this state because they are default actions.  */
      int yyxbegin = yyn < 0 ? -yyn : 0;
      /* Stay within bounds of both yycheck and yytname.  */
      int yychecklim = YYLAST - yyn + 1;
      int yyxend = yychecklim < YYNTOKENS ? yychecklim : YYNTOKENS;
      int yyx;
      for (yyx = yyxbegin; yyx < yyxend; ++yyx)
        if (yycheck[yyx + yyn] == yyx && yyx != YYSYMBOL_YYerror
            && !yytable_value_is_error (yytable[yyx + yyn]))
          {
            if (!yyarg)
              ++yycount;
            else if (yycount == yyargn)
              return 0;
            else
              yyarg[yycount++] = YY_CAST (yysymbol_kind_t, yyx);
          }
    }
  if (yyarg && yycount == 0 && 0 < yyargn)
    yyarg[0] = YYSYMBOL_YYEMPTY;
  return yycount;
}




#ifndef yystrlen
# if defined __GLIBC__ && defined _STRING_H
#  define yystrlen(S) (YY_CAST (YYPTRDIFF_T, strlen (S)))
# else
/* Return the length of YYSTR.  */
static YYPTRDIFF_T
yystrlen (const char *yystr)
{
  YYPTRDIFF_T yylen;
  for (yylen = 0; yystr[yylen]; yylen++)
    continue;
  return yylen;
}
# endif
#endif

#ifndef yystpcpy
# if defined __GLIBC__ && defined _STRING_H && defined _GNU_SOURCE
#  define yystpcpy stpcpy
# else
/* Copy YYSRC to YYDEST, returning the address of the terminating '\0' in
   YYDEST.  */
static char *
yystpcpy (char *yydest, const char *yysrc)
{
  char *yyd = yydest;
  const char *yys = yysrc;

  while ((*yyd++ = *yys++) != '\0')
    continue;

  return yyd - 1;
}
# endif
#endif

#ifndef yytnamerr
/* Copy to YYRES the contents of YYSTR after stripping away unnecessary
   quotes and backslashes, so that it's suitable for yyerror.  The
   heuristic is that double-quoting is unnecessary unless the string
   contains an apostrophe, a comma, or backslash (other than
   backslash-backslash).  YYSTR is taken from yytname.  If YYRES is
   null, do not copy; instead, return the length of what the result
   would have been.  */
static YYPTRDIFF_T
yytnamerr (char *yyres, const char *yystr)
{
  if (*yystr == '"')
    {
      YYPTRDIFF_T yyn = 0;
      char const *yyp = yystr;
      for (;;)
        switch (*++yyp)
          {
          case '\'':
          case ',':
            goto do_not_strip_quotes;

          case '\\':
            if (*++yyp != '\\')
              goto do_not_strip_quotes;
            else
              goto append;

          append:
          default:
            if (yyres)
              yyres[yyn] = *yyp;
            yyn++;
            break;

          case '"':
            if (yyres)
              yyres[yyn] = '\0';
            return yyn;
          }
    do_not_strip_quotes: ;
    }

  if (yyres)
    return yystpcpy (yyres, yystr) - yyres;
  else
    return yystrlen (yystr);
}
#endif


static int
yy_syntax_error_arguments (const yypcontext_t *yyctx,
                           yysymbol_kind_t yyarg[], int yyargn)
{
  /* Actual size of YYARG. */
  int yycount = 0;
  /* There are many possibilities here to consider:
     - If this state is a consistent state with a default action, then
       the only way this function was invoked is if the default action
       is an error action.  In that case, don't check for expected
       tokens because there are none.
     - The only way there can be no lookahead present (in yychar) is if
       this state is a consistent state with a default action.  Thus,
       detecting the absence of a lookahead is sufficient to determine
       that there is no unexpected or expected token to report.  In that
       case, just report a simple "syntax error".
     - Don't assume there isn't a lookahead just because this state is a
       consistent state with a default action.  There might have been a
       previous inconsistent state, consistent state with a non-default
       action, or user semantic action that manipulated yychar.
     - Of course, the expected token list depends on states to have
       correct lookahead information, and it depends on the parser not
       to perform extra reductions after fetching a lookahead from the
       scanner and before detecting a syntax error.  Thus, state merging
       (from LALR or IELR) and default reductions corrupt the expected
       token list.  However, the list is correct for canonical LR with
       one exception: it will still contain any token that will not be
       accepted due to an error action in a later state.
  */
  if (yyctx->yytoken != YYSYMBOL_YYEMPTY)
    {
      int yyn;
      if (yyarg)
        yyarg[yycount] = yyctx->yytoken;
      ++yycount;
      yyn = yypcontext_expected_tokens (yyctx,
                                        yyarg ? yyarg + 1 : yyarg, yyargn - 1);
      if (yyn == YYENOMEM)
        return YYENOMEM;
      else
        yycount += yyn;
    }
  return yycount;
}

/* Copy into *YYMSG, which is of size *YYMSG_ALLOC, an error message
   about the unexpected token YYTOKEN for the state stack whose top is
   YYSSP.

   Return 0 if *YYMSG was successfully written.  Return -1 if *YYMSG is
   not large enough to hold the message.  In that case, also set
   *YYMSG_ALLOC to the required number of bytes.  Return YYENOMEM if the
   required number of bytes is too large to store.  */
static int
yysyntax_error (YYPTRDIFF_T *yymsg_alloc, char **yymsg,
                const yypcontext_t *yyctx)
{
  enum { YYARGS_MAX = 5 };
  /* Internationalized format string. */
  const char *yyformat = YY_NULLPTR;
  /* Arguments of yyformat: reported tokens (one for the "unexpected",
     one per "expected"). */
  yysymbol_kind_t yyarg[YYARGS_MAX];
  /* Cumulated lengths of YYARG.  */
  YYPTRDIFF_T yysize = 0;

  /* Actual size of YYARG. */
  int yycount = yy_syntax_error_arguments (yyctx, yyarg, YYARGS_MAX);
  if (yycount == YYENOMEM)
    return YYENOMEM;

  switch (yycount)
    {
#define YYCASE_(N, S)                       \
      case N:                               \
        yyformat = S;                       \
        break
    default: /* Avoid compiler warnings. */
      YYCASE_(0, YY_("syntax error"));
      YYCASE_(1, YY_("syntax error, unexpected %s"));
      YYCASE_(2, YY_("syntax error, unexpected %s, expecting %s"));
      YYCASE_(3, YY_("syntax error, unexpected %s, expecting %s or %s"));
      YYCASE_(4, YY_("syntax error, unexpected %s, expecting %s or %s or %s"));
      YYCASE_(5, YY_("syntax error, unexpected %s, expecting %s or %s or %s or %s"));
#undef YYCASE_
    }

  /* Compute error message size.  Don't count the "%s"s, but reserve
     room for the terminator.  */
  yysize = yystrlen (yyformat) - 2 * yycount + 1;
  {
    int yyi;
    for (yyi = 0; yyi < yycount; ++yyi)
      {
        YYPTRDIFF_T yysize1
          = yysize + yytnamerr (YY_NULLPTR, yytname[yyarg[yyi]]);
        if (yysize <= yysize1 && yysize1 <= YYSTACK_ALLOC_MAXIMUM)
          yysize = yysize1;
        else
          return YYENOMEM;
      }
  }

  if (*yymsg_alloc < yysize)
    {
      *yymsg_alloc = 2 * yysize;
      if (! (yysize <= *yymsg_alloc
             && *yymsg_alloc <= YYSTACK_ALLOC_MAXIMUM))
        *yymsg_alloc = YYSTACK_ALLOC_MAXIMUM;
      return -1;
    }

  /* Avoid sprintf, as that infringes on the user's name space.
     Don't have undefined behavior even if the translation
     produced a string with the wrong number of "%s"s.  */
  {
    char *yyp = *yymsg;
    int yyi = 0;
    while ((*yyp = *yyformat) != '\0')
      if (*yyp == '%' && yyformat[1] == 's' && yyi < yycount)
        {
          yyp += yytnamerr (yyp, yytname[yyarg[yyi++]]);
          yyformat += 2;
        }
      else
        {
          ++yyp;
          ++yyformat;
        }
  }
  return 0;
}


/*-----------------------------------------------.
| Release the memory associated to this symbol.  |
`-----------------------------------------------*/

static void
yydestruct (const char *yymsg,
            yysymbol_kind_t yykind, YYSTYPE *yyvaluep, YYLTYPE *yylocationp, ParseCtx *ctx, void *scanner)
{
  YY_USE (yyvaluep);
  YY_USE (yylocationp);
  YY_USE (ctx);
  YY_USE (scanner);
  if (!yymsg)
    yymsg = "Deleting";
  YY_SYMBOL_PRINT (yymsg, yykind, yyvaluep, yylocationp);

  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  YY_USE (yykind);
  YY_IGNORE_MAYBE_UNINITIALIZED_END
}






/*----------.
| yyparse.  |
`----------*/

int
yyparse (ParseCtx *ctx, void *scanner)
{
/* Lookahead token kind.  */
int yychar;


/* The semantic value of the lookahead symbol.  */
/* Default value used for initialization, for pacifying older GCCs
   or non-GCC compilers.  */
YY_INITIAL_VALUE (static YYSTYPE yyval_default;)
YYSTYPE yylval YY_INITIAL_VALUE (= yyval_default);

/* Location data for the lookahead symbol.  */
static YYLTYPE yyloc_default
# if defined YYLTYPE_IS_TRIVIAL && YYLTYPE_IS_TRIVIAL
  = { 1, 1, 1, 1 }
# endif
;
YYLTYPE yylloc = yyloc_default;

    /* Number of syntax errors so far.  */
    int yynerrs = 0;

    yy_state_fast_t yystate = 0;
    /* Number of tokens to shift before error messages enabled.  */
    int yyerrstatus = 0;

    /* Refer to the stacks through separate pointers, to allow yyoverflow
       to reallocate them elsewhere.  */

    /* Their size.  */
    YYPTRDIFF_T yystacksize = YYINITDEPTH;

    /* The state stack: array, bottom, top.  */
    yy_state_t yyssa[YYINITDEPTH];
    yy_state_t *yyss = yyssa;
    yy_state_t *yyssp = yyss;

    /* The semantic value stack: array, bottom, top.  */
    YYSTYPE yyvsa[YYINITDEPTH];
    YYSTYPE *yyvs = yyvsa;
    YYSTYPE *yyvsp = yyvs;

    /* The location stack: array, bottom, top.  */
    YYLTYPE yylsa[YYINITDEPTH];
    YYLTYPE *yyls = yylsa;
    YYLTYPE *yylsp = yyls;

  int yyn;
  /* The return value of yyparse.  */
  int yyresult;
  /* Lookahead symbol kind.  */
  yysymbol_kind_t yytoken = YYSYMBOL_YYEMPTY;
  /* The variables used to return semantic value and location from the
     action routines.  */
  YYSTYPE yyval;
  YYLTYPE yyloc;

  /* The locations where the error started and ended.  */
  YYLTYPE yyerror_range[3];

  /* Buffer for error messages, and its allocated size.  */
  char yymsgbuf[128];
  char *yymsg = yymsgbuf;
  YYPTRDIFF_T yymsg_alloc = sizeof yymsgbuf;

#define YYPOPSTACK(N)   (yyvsp -= (N), yyssp -= (N), yylsp -= (N))

  /* The number of symbols on the RHS of the reduced rule.
     Keep to zero when no symbol should be popped.  */
  int yylen = 0;

  YYDPRINTF ((stderr, "Starting parse\n"));

  yychar = YYEMPTY; /* Cause a token to be read.  */

  yylsp[0] = yylloc;
  goto yysetstate;


/*------------------------------------------------------------.
| yynewstate -- push a new state, which is found in yystate.  |
`------------------------------------------------------------*/
yynewstate:
  /* In all cases, when you get here, the value and location stacks
     have just been pushed.  So pushing a state here evens the stacks.  */
  yyssp++;


/*--------------------------------------------------------------------.
| yysetstate -- set current state (the top of the stack) to yystate.  |
`--------------------------------------------------------------------*/
yysetstate:
  YYDPRINTF ((stderr, "Entering state %d\n", yystate));
  YY_ASSERT (0 <= yystate && yystate < YYNSTATES);
  YY_IGNORE_USELESS_CAST_BEGIN
  *yyssp = YY_CAST (yy_state_t, yystate);
  YY_IGNORE_USELESS_CAST_END
  YY_STACK_PRINT (yyss, yyssp);

  if (yyss + yystacksize - 1 <= yyssp)
#if !defined yyoverflow && !defined YYSTACK_RELOCATE
    YYNOMEM;
#else
    {
      /* Get the current used size of the three stacks, in elements.  */
      YYPTRDIFF_T yysize = yyssp - yyss + 1;

# if defined yyoverflow
      {
        /* Give user a chance to reallocate the stack.  Use copies of
           these so that the &'s don't force the real ones into
           memory.  */
        yy_state_t *yyss1 = yyss;
        YYSTYPE *yyvs1 = yyvs;
        YYLTYPE *yyls1 = yyls;

        /* Each stack pointer address is followed by the size of the
           data in use in that stack, in bytes.  This used to be a
           conditional around just the two extra args, but that might
           be undefined if yyoverflow is a macro.  */
        yyoverflow (YY_("memory exhausted"),
                    &yyss1, yysize * YYSIZEOF (*yyssp),
                    &yyvs1, yysize * YYSIZEOF (*yyvsp),
                    &yyls1, yysize * YYSIZEOF (*yylsp),
                    &yystacksize);
        yyss = yyss1;
        yyvs = yyvs1;
        yyls = yyls1;
      }
# else /* defined YYSTACK_RELOCATE */
      /* Extend the stack our own way.  */
      if (YYMAXDEPTH <= yystacksize)
        YYNOMEM;
      yystacksize *= 2;
      if (YYMAXDEPTH < yystacksize)
        yystacksize = YYMAXDEPTH;

      {
        yy_state_t *yyss1 = yyss;
        union yyalloc *yyptr =
          YY_CAST (union yyalloc *,
                   YYSTACK_ALLOC (YY_CAST (YYSIZE_T, YYSTACK_BYTES (yystacksize))));
        if (! yyptr)
          YYNOMEM;
        YYSTACK_RELOCATE (yyss_alloc, yyss);
        YYSTACK_RELOCATE (yyvs_alloc, yyvs);
        YYSTACK_RELOCATE (yyls_alloc, yyls);
#  undef YYSTACK_RELOCATE
        if (yyss1 != yyssa)
          YYSTACK_FREE (yyss1);
      }
# endif

      yyssp = yyss + yysize - 1;
      yyvsp = yyvs + yysize - 1;
      yylsp = yyls + yysize - 1;

      YY_IGNORE_USELESS_CAST_BEGIN
      YYDPRINTF ((stderr, "Stack size increased to %ld\n",
                  YY_CAST (long, yystacksize)));
      YY_IGNORE_USELESS_CAST_END

      if (yyss + yystacksize - 1 <= yyssp)
        YYABORT;
    }
#endif /* !defined yyoverflow && !defined YYSTACK_RELOCATE */


  if (yystate == YYFINAL)
    YYACCEPT;

  goto yybackup;


/*-----------.
| yybackup.  |
`-----------*/
yybackup:
  /* Do appropriate processing given the current state.  Read a
     lookahead token if we need one and don't already have one.  */

  /* First try to decide what to do without reference to lookahead token.  */
  yyn = yypact[yystate];
  if (yypact_value_is_default (yyn))
    goto yydefault;

  /* Not known => get a lookahead token if don't already have one.  */

  /* YYCHAR is either empty, or end-of-input, or a valid lookahead.  */
  if (yychar == YYEMPTY)
    {
      YYDPRINTF ((stderr, "Reading a token\n"));
      yychar = yylex (&yylval, &yylloc, scanner);
    }

  if (yychar <= YYEOF)
    {
      yychar = YYEOF;
      yytoken = YYSYMBOL_YYEOF;
      YYDPRINTF ((stderr, "Now at end of input.\n"));
    }
  else if (yychar == YYerror)
    {
      /* The scanner already issued an error message, process directly
         to error recovery.  But do not keep the error token as
         lookahead, it is too special and may lead us to an endless
         loop in error recovery. */
      yychar = YYUNDEF;
      yytoken = YYSYMBOL_YYerror;
      yyerror_range[1] = yylloc;
      goto yyerrlab1;
    }
  else
    {
      yytoken = YYTRANSLATE (yychar);
      YY_SYMBOL_PRINT ("Next token is", yytoken, &yylval, &yylloc);
    }

  /* If the proper action on seeing token YYTOKEN is to reduce or to
     detect an error, take that action.  */
  yyn += yytoken;
  if (yyn < 0 || YYLAST < yyn || yycheck[yyn] != yytoken)
    goto yydefault;
  yyn = yytable[yyn];
  if (yyn <= 0)
    {
      if (yytable_value_is_error (yyn))
        goto yyerrlab;
      yyn = -yyn;
      goto yyreduce;
    }

  /* Count tokens shifted since error; after three, turn off error
     status.  */
  if (yyerrstatus)
    yyerrstatus--;

  /* Shift the lookahead token.  */
  YY_SYMBOL_PRINT ("Shifting", yytoken, &yylval, &yylloc);
  yystate = yyn;
  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  *++yyvsp = yylval;
  YY_IGNORE_MAYBE_UNINITIALIZED_END
  *++yylsp = yylloc;

  /* Discard the shifted token.  */
  yychar = YYEMPTY;
  goto yynewstate;


/*-----------------------------------------------------------.
| yydefault -- do the default action for the current state.  |
`-----------------------------------------------------------*/
yydefault:
  yyn = yydefact[yystate];
  if (yyn == 0)
    goto yyerrlab;
  goto yyreduce;


/*-----------------------------.
| yyreduce -- do a reduction.  |
`-----------------------------*/
yyreduce:
  /* yyn is the number of a rule to reduce with.  */
  yylen = yyr2[yyn];

  /* If YYLEN is nonzero, implement the default value of the action:
     '$$ = $1'.

     Otherwise, the following line sets YYVAL to garbage.
     This behavior is undocumented and Bison
     users should not rely upon it.  Assigning to YYVAL
     unconditionally makes the parser a bit smaller, and it avoids a
     GCC warning that YYVAL may be used uninitialized.  */
  yyval = yyvsp[1-yylen];

  /* Default location. */
  YYLLOC_DEFAULT (yyloc, (yylsp - yylen), yylen);
  yyerror_range[1] = yyloc;
  YY_REDUCE_PRINT (yyn);
  switch (yyn)
    {
  case 7: /* external_decl: error '}'  */
#line 153 "/work/main/frontend/parser.y"
                                   { yyerrok; }
#line 1899 "/work/main/build/parser.c"
    break;

  case 8: /* external_decl: error PRAGMA_END  */
#line 154 "/work/main/frontend/parser.y"
                                   { yyerrok; }
#line 1905 "/work/main/build/parser.c"
    break;

  case 13: /* $@1: %empty  */
#line 164 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[0])), "unknown pragma 'imcl %s' (expected grid, grid_size, boundary_cond or halo)", (yyvsp[0].str)); }
#line 1911 "/work/main/build/parser.c"
    break;

  case 15: /* pragma_line: PRAGMA_IMCL PRAGMA_END  */
#line 166 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[-1])), "'#pragma imcl' needs a directive (grid, grid_size, boundary_cond or halo)"); }
#line 1917 "/work/main/build/parser.c"
    break;

  case 16: /* pragma_line: PRAGMA_IMCL error PRAGMA_END  */
#line 167 "/work/main/frontend/parser.y"
                                   { yyerrok; }
#line 1923 "/work/main/build/parser.c"
    break;

  case 18: /* skip_to_end: error PRAGMA_END  */
#line 172 "/work/main/frontend/parser.y"
                                   { yyerrok; }
#line 1929 "/work/main/build/parser.c"
    break;

  case 19: /* grid_names: IDENT  */
#line 176 "/work/main/frontend/parser.y"
                                   { add_pragma(ctx, PRAGMA_GRID, (yyvsp[0].str), (yylsp[0]), NULL, (yylsp[0]), NULL); }
#line 1935 "/work/main/build/parser.c"
    break;

  case 20: /* grid_names: grid_names ',' IDENT  */
#line 177 "/work/main/frontend/parser.y"
                                   { add_pragma(ctx, PRAGMA_GRID, (yyvsp[0].str), (yylsp[0]), NULL, (yylsp[0]), NULL); }
#line 1941 "/work/main/build/parser.c"
    break;

  case 21: /* size_exprs: assign_expr  */
#line 181 "/work/main/frontend/parser.y"
                                   { add_pragma(ctx, PRAGMA_GRID_SIZE, NULL, (yylsp[0]), NULL, (yylsp[0]), (yyvsp[0].node)); }
#line 1947 "/work/main/build/parser.c"
    break;

  case 22: /* size_exprs: size_exprs ',' assign_expr  */
#line 182 "/work/main/frontend/parser.y"
                                   { add_pragma(ctx, PRAGMA_GRID_SIZE, NULL, (yylsp[0]), NULL, (yylsp[0]), (yyvsp[0].node)); }
#line 1953 "/work/main/build/parser.c"
    break;

  case 25: /* bc_item: IDENT ':' IDENT  */
#line 191 "/work/main/frontend/parser.y"
                                   { add_pragma(ctx, PRAGMA_BOUNDARY, (yyvsp[-2].str), (yylsp[-2]), (yyvsp[0].str), (yylsp[0]), NULL); }
#line 1959 "/work/main/build/parser.c"
    break;

  case 26: /* bc_item: IDENT ':' IDENT '(' assign_expr ')'  */
#line 192 "/work/main/frontend/parser.y"
                                          { add_pragma(ctx, PRAGMA_BOUNDARY, (yyvsp[-5].str), (yylsp[-5]), (yyvsp[-3].str), (yylsp[-3]), (yyvsp[-1].node)); }
#line 1965 "/work/main/build/parser.c"
    break;

  case 29: /* halo_item: IDENT ':' assign_expr  */
#line 201 "/work/main/frontend/parser.y"
                                   { add_pragma(ctx, PRAGMA_HALO, (yyvsp[-2].str), (yylsp[-2]), NULL, (yylsp[0]), (yyvsp[0].node)); }
#line 1971 "/work/main/build/parser.c"
    break;

  case 30: /* function_def: decl_spec IDENT '(' params_opt ')' compound_stmt  */
#line 207 "/work/main/frontend/parser.y"
                                                       { finish_function(ctx, (yyvsp[-5].spec), (yyvsp[-4].str), (yylsp[-4]), (yyvsp[-2].params), (yyvsp[0].node)); }
#line 1977 "/work/main/build/parser.c"
    break;

  case 31: /* params_opt: %empty  */
#line 211 "/work/main/frontend/parser.y"
                                   { (yyval.params) = ARENA_NEW(A, ParamList); }
#line 1983 "/work/main/build/parser.c"
    break;

  case 32: /* params_opt: KW_VOID  */
#line 212 "/work/main/frontend/parser.y"
                                   { (yyval.params) = ARENA_NEW(A, ParamList); }
#line 1989 "/work/main/build/parser.c"
    break;

  case 34: /* param_list: param  */
#line 217 "/work/main/frontend/parser.y"
                                   { (yyval.params) = ARENA_NEW(A, ParamList); param_push(ctx, (yyval.params), (yyvsp[0].sym)); }
#line 1995 "/work/main/build/parser.c"
    break;

  case 35: /* param_list: param_list ',' param  */
#line 218 "/work/main/frontend/parser.y"
                                   { (yyval.params) = (yyvsp[-2].params); param_push(ctx, (yyval.params), (yyvsp[0].sym)); }
#line 2001 "/work/main/build/parser.c"
    break;

  case 36: /* param: decl_spec declarator  */
#line 222 "/work/main/frontend/parser.y"
                                   { (yyval.sym) = make_param(ctx, (yyvsp[-1].spec), (yyvsp[0].declarator)); }
#line 2007 "/work/main/build/parser.c"
    break;

  case 37: /* decl_spec: type_spec  */
#line 226 "/work/main/frontend/parser.y"
                                   { (yyval.spec) = (DeclSpec){(yyvsp[0].type), false, L((yylsp[0]))}; }
#line 2013 "/work/main/build/parser.c"
    break;

  case 38: /* decl_spec: KW_CONST type_spec  */
#line 227 "/work/main/frontend/parser.y"
                                   { (yyval.spec) = (DeclSpec){(yyvsp[0].type), true, L((yylsp[0]))}; }
#line 2019 "/work/main/build/parser.c"
    break;

  case 39: /* decl_spec: type_spec KW_CONST  */
#line 228 "/work/main/frontend/parser.y"
                                   { (yyval.spec) = (DeclSpec){(yyvsp[-1].type), true, L((yylsp[-1]))}; }
#line 2025 "/work/main/build/parser.c"
    break;

  case 41: /* type_spec: KW_VOID  */
#line 233 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_VOID); }
#line 2031 "/work/main/build/parser.c"
    break;

  case 42: /* type_spec: KW_IMAGE '<' scalar_type '>'  */
#line 234 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_grid(A, TY_IMAGE, (yyvsp[-1].type)); }
#line 2037 "/work/main/build/parser.c"
    break;

  case 43: /* type_spec: KW_BLOCK '<' scalar_type '>'  */
#line 235 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_grid(A, TY_BLOCK, (yyvsp[-1].type)); }
#line 2043 "/work/main/build/parser.c"
    break;

  case 44: /* type_spec: KW_IMAGE '<' IDENT '>'  */
#line 236 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_grid(A, TY_IMAGE, elem_type(ctx, (yyvsp[-1].str), (yylsp[-1]))); }
#line 2049 "/work/main/build/parser.c"
    break;

  case 45: /* type_spec: KW_BLOCK '<' IDENT '>'  */
#line 237 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_grid(A, TY_BLOCK, elem_type(ctx, (yyvsp[-1].str), (yylsp[-1]))); }
#line 2055 "/work/main/build/parser.c"
    break;

  case 46: /* type_spec: KW_IMAGE '<' KW_VOID '>'  */
#line 238 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[-1])), "element type of an Image cannot be void"); (yyval.type) = type_grid(A, TY_IMAGE, type_scalar(TY_INT)); }
#line 2061 "/work/main/build/parser.c"
    break;

  case 47: /* type_spec: KW_BLOCK '<' KW_VOID '>'  */
#line 239 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[-1])), "element type of a Block cannot be void"); (yyval.type) = type_grid(A, TY_BLOCK, type_scalar(TY_INT)); }
#line 2067 "/work/main/build/parser.c"
    break;

  case 48: /* scalar_type: KW_CHAR  */
#line 243 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_CHAR); }
#line 2073 "/work/main/build/parser.c"
    break;

  case 49: /* scalar_type: KW_SIGNED KW_CHAR  */
#line 244 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_CHAR); }
#line 2079 "/work/main/build/parser.c"
    break;

  case 50: /* scalar_type: KW_UNSIGNED KW_CHAR  */
#line 245 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_UCHAR); }
#line 2085 "/work/main/build/parser.c"
    break;

  case 51: /* scalar_type: KW_UCHAR  */
#line 246 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_UCHAR); }
#line 2091 "/work/main/build/parser.c"
    break;

  case 52: /* scalar_type: KW_SHORT  */
#line 247 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_SHORT); }
#line 2097 "/work/main/build/parser.c"
    break;

  case 53: /* scalar_type: KW_SIGNED KW_SHORT  */
#line 248 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_SHORT); }
#line 2103 "/work/main/build/parser.c"
    break;

  case 54: /* scalar_type: KW_UNSIGNED KW_SHORT  */
#line 249 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_USHORT); }
#line 2109 "/work/main/build/parser.c"
    break;

  case 55: /* scalar_type: KW_USHORT  */
#line 250 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_USHORT); }
#line 2115 "/work/main/build/parser.c"
    break;

  case 56: /* scalar_type: KW_INT  */
#line 251 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_INT); }
#line 2121 "/work/main/build/parser.c"
    break;

  case 57: /* scalar_type: KW_SIGNED  */
#line 252 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_INT); }
#line 2127 "/work/main/build/parser.c"
    break;

  case 58: /* scalar_type: KW_SIGNED KW_INT  */
#line 253 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_INT); }
#line 2133 "/work/main/build/parser.c"
    break;

  case 59: /* scalar_type: KW_UNSIGNED  */
#line 254 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_UINT); }
#line 2139 "/work/main/build/parser.c"
    break;

  case 60: /* scalar_type: KW_UNSIGNED KW_INT  */
#line 255 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_UINT); }
#line 2145 "/work/main/build/parser.c"
    break;

  case 61: /* scalar_type: KW_UINT  */
#line 256 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_UINT); }
#line 2151 "/work/main/build/parser.c"
    break;

  case 62: /* scalar_type: KW_FLOAT  */
#line 257 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_FLOAT); }
#line 2157 "/work/main/build/parser.c"
    break;

  case 63: /* scalar_type: KW_DOUBLE  */
#line 258 "/work/main/frontend/parser.y"
                                   { (yyval.type) = type_scalar(TY_DOUBLE); }
#line 2163 "/work/main/build/parser.c"
    break;

  case 64: /* scalar_type: KW_LONG  */
#line 259 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[0])), "type 'long' is not supported (use int or double)"); (yyval.type) = type_scalar(TY_INT); }
#line 2169 "/work/main/build/parser.c"
    break;

  case 65: /* scalar_type: KW_BOOL  */
#line 260 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[0])), "type 'bool' is not supported (use int)"); (yyval.type) = type_scalar(TY_INT); }
#line 2175 "/work/main/build/parser.c"
    break;

  case 66: /* scalar_type: KW_STRUCT  */
#line 261 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[0])), "structs are not supported"); (yyval.type) = type_scalar(TY_INT); }
#line 2181 "/work/main/build/parser.c"
    break;

  case 67: /* declarator: IDENT  */
#line 265 "/work/main/frontend/parser.y"
                                   { (yyval.declarator) = make_declarator(ctx, (yyvsp[0].str), (yylsp[0])); }
#line 2187 "/work/main/build/parser.c"
    break;

  case 68: /* declarator: declarator '[' assign_expr ']'  */
#line 266 "/work/main/frontend/parser.y"
                                     { (yyval.declarator) = (yyvsp[-3].declarator); nodelist_push(A, &(yyval.declarator)->dims, (yyvsp[-1].node)); }
#line 2193 "/work/main/build/parser.c"
    break;

  case 70: /* init_declarator: declarator '=' assign_expr  */
#line 271 "/work/main/frontend/parser.y"
                                   { (yyval.declarator) = (yyvsp[-2].declarator); (yyval.declarator)->init = (yyvsp[0].node); }
#line 2199 "/work/main/build/parser.c"
    break;

  case 71: /* $@2: %empty  */
#line 272 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[0])), "initializer lists are not supported"); }
#line 2205 "/work/main/build/parser.c"
    break;

  case 72: /* init_declarator: declarator '=' '{' $@2 error '}'  */
#line 273 "/work/main/frontend/parser.y"
                                   { (yyval.declarator) = (yyvsp[-5].declarator); }
#line 2211 "/work/main/build/parser.c"
    break;

  case 73: /* init_declarator_list: init_declarator  */
#line 277 "/work/main/frontend/parser.y"
                                   { (yyval.decls) = ARENA_NEW(A, DeclList); decl_push(ctx, (yyval.decls), (yyvsp[0].declarator)); }
#line 2217 "/work/main/build/parser.c"
    break;

  case 74: /* init_declarator_list: init_declarator_list ',' init_declarator  */
#line 278 "/work/main/frontend/parser.y"
                                               { (yyval.decls) = (yyvsp[-2].decls); decl_push(ctx, (yyval.decls), (yyvsp[0].declarator)); }
#line 2223 "/work/main/build/parser.c"
    break;

  case 75: /* compound_stmt: '{' stmt_list '}'  */
#line 284 "/work/main/frontend/parser.y"
                                   { (yyval.node) = (yyvsp[-1].node); (yyval.node)->loc = L((yylsp[-2])); }
#line 2229 "/work/main/build/parser.c"
    break;

  case 76: /* stmt_list: %empty  */
#line 288 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_block(A, (Loc){0}); }
#line 2235 "/work/main/build/parser.c"
    break;

  case 77: /* stmt_list: stmt_list stmt  */
#line 289 "/work/main/frontend/parser.y"
                                   { (yyval.node) = (yyvsp[-1].node); if ((yyvsp[0].node)) ast_append_stmt(A, (yyval.node), (yyvsp[0].node)); }
#line 2241 "/work/main/build/parser.c"
    break;

  case 78: /* decl_stmt: decl_spec init_declarator_list ';'  */
#line 293 "/work/main/frontend/parser.y"
                                         { (yyval.node) = make_decls(ctx, (yyvsp[-2].spec), (yyvsp[-1].decls), false); }
#line 2247 "/work/main/build/parser.c"
    break;

  case 81: /* stmt: expr ';'  */
#line 299 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_expr_stmt(A, (yyvsp[-1].node), L((yylsp[-1]))); }
#line 2253 "/work/main/build/parser.c"
    break;

  case 82: /* stmt: ';'  */
#line 300 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_new(A, AST_EMPTY, L((yylsp[0]))); }
#line 2259 "/work/main/build/parser.c"
    break;

  case 83: /* stmt: KW_IF '(' expr ')' stmt  */
#line 301 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_if(A, (yyvsp[-2].node), (yyvsp[0].node), NULL, L((yylsp[-4]))); }
#line 2265 "/work/main/build/parser.c"
    break;

  case 84: /* stmt: KW_IF '(' expr ')' stmt KW_ELSE stmt  */
#line 302 "/work/main/frontend/parser.y"
                                           { (yyval.node) = ast_build_if(A, (yyvsp[-4].node), (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-6]))); }
#line 2271 "/work/main/build/parser.c"
    break;

  case 85: /* stmt: KW_WHILE '(' expr ')' stmt  */
#line 303 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_while(A, (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-4]))); }
#line 2277 "/work/main/build/parser.c"
    break;

  case 86: /* stmt: KW_DO stmt KW_WHILE '(' expr ')' ';'  */
#line 304 "/work/main/frontend/parser.y"
                                           { (yyval.node) = ast_build_do(A, (yyvsp[-5].node), (yyvsp[-2].node), L((yylsp[-6]))); }
#line 2283 "/work/main/build/parser.c"
    break;

  case 87: /* stmt: KW_FOR '(' for_init expr_opt ';' expr_opt ')' stmt  */
#line 305 "/work/main/frontend/parser.y"
                                                         { (yyval.node) = ast_build_for(A, (yyvsp[-5].node), (yyvsp[-4].node), (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-7]))); }
#line 2289 "/work/main/build/parser.c"
    break;

  case 88: /* stmt: KW_BREAK ';'  */
#line 306 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_new(A, AST_BREAK, L((yylsp[-1]))); }
#line 2295 "/work/main/build/parser.c"
    break;

  case 89: /* stmt: KW_CONTINUE ';'  */
#line 307 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_new(A, AST_CONTINUE, L((yylsp[-1]))); }
#line 2301 "/work/main/build/parser.c"
    break;

  case 90: /* stmt: KW_RETURN expr_opt ';'  */
#line 308 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_return(A, (yyvsp[-1].node), L((yylsp[-2]))); }
#line 2307 "/work/main/build/parser.c"
    break;

  case 91: /* stmt: error ';'  */
#line 309 "/work/main/frontend/parser.y"
                                   { (yyval.node) = NULL; yyerrok; }
#line 2313 "/work/main/build/parser.c"
    break;

  case 92: /* stmt: error '}'  */
#line 310 "/work/main/frontend/parser.y"
                                   { (yyval.node) = NULL; yyerrok; }
#line 2319 "/work/main/build/parser.c"
    break;

  case 93: /* for_init: expr_opt ';'  */
#line 314 "/work/main/frontend/parser.y"
                                   { (yyval.node) = (yyvsp[-1].node) ? ast_build_expr_stmt(A, (yyvsp[-1].node), L((yylsp[-1]))) : NULL; }
#line 2325 "/work/main/build/parser.c"
    break;

  case 94: /* for_init: decl_spec init_declarator_list ';'  */
#line 315 "/work/main/frontend/parser.y"
                                         { (yyval.node) = make_decls(ctx, (yyvsp[-2].spec), (yyvsp[-1].decls), true); }
#line 2331 "/work/main/build/parser.c"
    break;

  case 95: /* expr_opt: %empty  */
#line 321 "/work/main/frontend/parser.y"
                                   { (yyval.node) = NULL; }
#line 2337 "/work/main/build/parser.c"
    break;

  case 98: /* expr: expr ',' assign_expr  */
#line 327 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, ',', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2343 "/work/main/build/parser.c"
    break;

  case 100: /* assign_expr: unary_expr assign_op assign_expr  */
#line 332 "/work/main/frontend/parser.y"
                                       { (yyval.node) = ast_build_assign(A, (yyvsp[-1].op), (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2349 "/work/main/build/parser.c"
    break;

  case 101: /* assign_op: '='  */
#line 336 "/work/main/frontend/parser.y"
                                   { (yyval.op) = '='; }
#line 2355 "/work/main/build/parser.c"
    break;

  case 102: /* assign_op: ADD_ASSIGN  */
#line 337 "/work/main/frontend/parser.y"
                                   { (yyval.op) = '+'; }
#line 2361 "/work/main/build/parser.c"
    break;

  case 103: /* assign_op: SUB_ASSIGN  */
#line 338 "/work/main/frontend/parser.y"
                                   { (yyval.op) = '-'; }
#line 2367 "/work/main/build/parser.c"
    break;

  case 104: /* assign_op: MUL_ASSIGN  */
#line 339 "/work/main/frontend/parser.y"
                                   { (yyval.op) = '*'; }
#line 2373 "/work/main/build/parser.c"
    break;

  case 105: /* assign_op: DIV_ASSIGN  */
#line 340 "/work/main/frontend/parser.y"
                                   { (yyval.op) = '/'; }
#line 2379 "/work/main/build/parser.c"
    break;

  case 106: /* assign_op: MOD_ASSIGN  */
#line 341 "/work/main/frontend/parser.y"
                                   { (yyval.op) = '%'; }
#line 2385 "/work/main/build/parser.c"
    break;

  case 107: /* assign_op: SHL_ASSIGN  */
#line 342 "/work/main/frontend/parser.y"
                                   { (yyval.op) = OP_SHL; }
#line 2391 "/work/main/build/parser.c"
    break;

  case 108: /* assign_op: SHR_ASSIGN  */
#line 343 "/work/main/frontend/parser.y"
                                   { (yyval.op) = OP_SHR; }
#line 2397 "/work/main/build/parser.c"
    break;

  case 109: /* assign_op: AND_ASSIGN  */
#line 344 "/work/main/frontend/parser.y"
                                   { (yyval.op) = '&'; }
#line 2403 "/work/main/build/parser.c"
    break;

  case 110: /* assign_op: OR_ASSIGN  */
#line 345 "/work/main/frontend/parser.y"
                                   { (yyval.op) = '|'; }
#line 2409 "/work/main/build/parser.c"
    break;

  case 111: /* assign_op: XOR_ASSIGN  */
#line 346 "/work/main/frontend/parser.y"
                                   { (yyval.op) = '^'; }
#line 2415 "/work/main/build/parser.c"
    break;

  case 113: /* cond_expr: lor_expr '?' expr ':' cond_expr  */
#line 351 "/work/main/frontend/parser.y"
                                      { (yyval.node) = ast_build_cond(A, (yyvsp[-4].node), (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-3]))); }
#line 2421 "/work/main/build/parser.c"
    break;

  case 115: /* lor_expr: lor_expr OR land_expr  */
#line 356 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, OP_OR, (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2427 "/work/main/build/parser.c"
    break;

  case 117: /* land_expr: land_expr AND or_expr  */
#line 361 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, OP_AND, (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2433 "/work/main/build/parser.c"
    break;

  case 119: /* or_expr: or_expr '|' xor_expr  */
#line 366 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, '|', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2439 "/work/main/build/parser.c"
    break;

  case 121: /* xor_expr: xor_expr '^' and_expr  */
#line 371 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, '^', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2445 "/work/main/build/parser.c"
    break;

  case 123: /* and_expr: and_expr '&' eq_expr  */
#line 376 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, '&', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2451 "/work/main/build/parser.c"
    break;

  case 125: /* eq_expr: eq_expr EQ rel_expr  */
#line 381 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, OP_EQ, (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2457 "/work/main/build/parser.c"
    break;

  case 126: /* eq_expr: eq_expr NE rel_expr  */
#line 382 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, OP_NE, (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2463 "/work/main/build/parser.c"
    break;

  case 128: /* rel_expr: rel_expr '<' shift_expr  */
#line 387 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, '<', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2469 "/work/main/build/parser.c"
    break;

  case 129: /* rel_expr: rel_expr '>' shift_expr  */
#line 388 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, '>', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2475 "/work/main/build/parser.c"
    break;

  case 130: /* rel_expr: rel_expr LE shift_expr  */
#line 389 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, OP_LE, (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2481 "/work/main/build/parser.c"
    break;

  case 131: /* rel_expr: rel_expr GE shift_expr  */
#line 390 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, OP_GE, (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2487 "/work/main/build/parser.c"
    break;

  case 133: /* shift_expr: shift_expr SHL add_expr  */
#line 395 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, OP_SHL, (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2493 "/work/main/build/parser.c"
    break;

  case 134: /* shift_expr: shift_expr SHR add_expr  */
#line 396 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, OP_SHR, (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2499 "/work/main/build/parser.c"
    break;

  case 136: /* add_expr: add_expr '+' mul_expr  */
#line 401 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, '+', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2505 "/work/main/build/parser.c"
    break;

  case 137: /* add_expr: add_expr '-' mul_expr  */
#line 402 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, '-', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2511 "/work/main/build/parser.c"
    break;

  case 139: /* mul_expr: mul_expr '*' cast_expr  */
#line 407 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, '*', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2517 "/work/main/build/parser.c"
    break;

  case 140: /* mul_expr: mul_expr '/' cast_expr  */
#line 408 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, '/', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2523 "/work/main/build/parser.c"
    break;

  case 141: /* mul_expr: mul_expr '%' cast_expr  */
#line 409 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_binary(A, '%', (yyvsp[-2].node), (yyvsp[0].node), L((yylsp[-1]))); }
#line 2529 "/work/main/build/parser.c"
    break;

  case 143: /* cast_expr: '(' scalar_type ')' cast_expr  */
#line 414 "/work/main/frontend/parser.y"
                                    { (yyval.node) = ast_build_cast(A, (yyvsp[-2].type), (yyvsp[0].node), L((yylsp[-3]))); }
#line 2535 "/work/main/build/parser.c"
    break;

  case 145: /* unary_expr: INC unary_expr  */
#line 419 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_unary(A, OP_PREINC, (yyvsp[0].node), L((yylsp[-1]))); }
#line 2541 "/work/main/build/parser.c"
    break;

  case 146: /* unary_expr: DEC unary_expr  */
#line 420 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_unary(A, OP_PREDEC, (yyvsp[0].node), L((yylsp[-1]))); }
#line 2547 "/work/main/build/parser.c"
    break;

  case 147: /* unary_expr: '-' cast_expr  */
#line 421 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_unary(A, '-', (yyvsp[0].node), L((yylsp[-1]))); }
#line 2553 "/work/main/build/parser.c"
    break;

  case 148: /* unary_expr: '+' cast_expr  */
#line 422 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_unary(A, '+', (yyvsp[0].node), L((yylsp[-1]))); }
#line 2559 "/work/main/build/parser.c"
    break;

  case 149: /* unary_expr: '!' cast_expr  */
#line 423 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_unary(A, '!', (yyvsp[0].node), L((yylsp[-1]))); }
#line 2565 "/work/main/build/parser.c"
    break;

  case 150: /* unary_expr: '~' cast_expr  */
#line 424 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_unary(A, '~', (yyvsp[0].node), L((yylsp[-1]))); }
#line 2571 "/work/main/build/parser.c"
    break;

  case 151: /* unary_expr: '&' cast_expr  */
#line 425 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[-1])), "the address-of operator '&' is not supported"); (yyval.node) = (yyvsp[0].node); }
#line 2577 "/work/main/build/parser.c"
    break;

  case 152: /* unary_expr: '*' cast_expr  */
#line 426 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[-1])), "pointer dereference is not supported"); (yyval.node) = (yyvsp[0].node); }
#line 2583 "/work/main/build/parser.c"
    break;

  case 154: /* postfix_expr: postfix_expr '[' expr ']'  */
#line 431 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_index(A, (yyvsp[-3].node), (yyvsp[-1].node), L((yylsp[-2]))); }
#line 2589 "/work/main/build/parser.c"
    break;

  case 155: /* postfix_expr: postfix_expr '.' IDENT  */
#line 432 "/work/main/frontend/parser.y"
                                   { (yyval.node) = make_member(ctx, (yyvsp[-2].node), (yyvsp[0].str), (yylsp[0])); }
#line 2595 "/work/main/build/parser.c"
    break;

  case 156: /* postfix_expr: postfix_expr INC  */
#line 433 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_unary(A, OP_POSTINC, (yyvsp[-1].node), L((yylsp[0]))); }
#line 2601 "/work/main/build/parser.c"
    break;

  case 157: /* postfix_expr: postfix_expr DEC  */
#line 434 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_unary(A, OP_POSTDEC, (yyvsp[-1].node), L((yylsp[0]))); }
#line 2607 "/work/main/build/parser.c"
    break;

  case 158: /* call_args: assign_expr  */
#line 438 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_call(A, "", L((yylsp[0]))); ast_append_arg(A, (yyval.node), (yyvsp[0].node)); }
#line 2613 "/work/main/build/parser.c"
    break;

  case 159: /* call_args: call_args ',' assign_expr  */
#line 439 "/work/main/frontend/parser.y"
                                   { (yyval.node) = (yyvsp[-2].node); ast_append_arg(A, (yyval.node), (yyvsp[0].node)); }
#line 2619 "/work/main/build/parser.c"
    break;

  case 160: /* primary_expr: IDENT  */
#line 443 "/work/main/frontend/parser.y"
                                   { (yyval.node) = make_var(ctx, (yyvsp[0].str), (yylsp[0])); }
#line 2625 "/work/main/build/parser.c"
    break;

  case 161: /* primary_expr: IDENT '(' ')'  */
#line 444 "/work/main/frontend/parser.y"
                                   { (yyval.node) = ast_build_call(A, (yyvsp[-2].str), L((yylsp[-2]))); }
#line 2631 "/work/main/build/parser.c"
    break;

  case 162: /* primary_expr: IDENT '(' call_args ')'  */
#line 445 "/work/main/frontend/parser.y"
                                   { (yyval.node) = (yyvsp[-1].node); (yyval.node)->u.call.name = (yyvsp[-3].str); (yyval.node)->u.call.math = math_lookup((yyvsp[-3].str)); (yyval.node)->loc = L((yylsp[-3])); }
#line 2637 "/work/main/build/parser.c"
    break;

  case 163: /* primary_expr: INT_LIT  */
#line 446 "/work/main/frontend/parser.y"
                                   { (yyval.node) = make_int(ctx, (yyvsp[0].str), (yylsp[0])); }
#line 2643 "/work/main/build/parser.c"
    break;

  case 164: /* primary_expr: CHAR_LIT  */
#line 447 "/work/main/frontend/parser.y"
                                   { (yyval.node) = make_char(ctx, (yyvsp[0].str), (yylsp[0])); }
#line 2649 "/work/main/build/parser.c"
    break;

  case 165: /* primary_expr: FLOAT_LIT  */
#line 448 "/work/main/frontend/parser.y"
                                   { (yyval.node) = make_float(ctx, (yyvsp[0].str), (yylsp[0])); }
#line 2655 "/work/main/build/parser.c"
    break;

  case 166: /* primary_expr: '(' expr ')'  */
#line 449 "/work/main/frontend/parser.y"
                                   { (yyval.node) = (yyvsp[-1].node); }
#line 2661 "/work/main/build/parser.c"
    break;

  case 167: /* primary_expr: STRING_LIT  */
#line 450 "/work/main/frontend/parser.y"
                                   { diag_error(ctx->diag, L((yylsp[0])), "string literals are not supported"); (yyval.node) = ast_build_int(A, 0, L((yylsp[0]))); }
#line 2667 "/work/main/build/parser.c"
    break;


#line 2671 "/work/main/build/parser.c"

      default: break;
    }
  /* User semantic actions sometimes alter yychar, and that requires
     that yytoken be updated with the new translation.  We take the
     approach of translating immediately before every use of yytoken.
     One alternative is translating here after every semantic action,
     but that translation would be missed if the semantic action invokes
     YYABORT, YYACCEPT, or YYERROR immediately after altering yychar or
     if it invokes YYBACKUP.  In the case of YYABORT or YYACCEPT, an
     incorrect destructor might then be invoked immediately.  In the
     case of YYERROR or YYBACKUP, subsequent parser actions might lead
     to an incorrect destructor call or verbose syntax error message
     before the lookahead is translated.  */
  YY_SYMBOL_PRINT ("-> $$ =", YY_CAST (yysymbol_kind_t, yyr1[yyn]), &yyval, &yyloc);

  YYPOPSTACK (yylen);
  yylen = 0;

  *++yyvsp = yyval;
  *++yylsp = yyloc;

  /* Now 'shift' the result of the reduction.  Determine what state
     that goes to, based on the state we popped back to and the rule
     number reduced by.  */
  {
    const int yylhs = yyr1[yyn] - YYNTOKENS;
    const int yyi = yypgoto[yylhs] + *yyssp;
    yystate = (0 <= yyi && yyi <= YYLAST && yycheck[yyi] == *yyssp
               ? yytable[yyi]
               : yydefgoto[yylhs]);
  }

  goto yynewstate;


/*--------------------------------------.
| yyerrlab -- here on detecting error.  |
`--------------------------------------*/
yyerrlab:
  /* Make sure we have latest lookahead translation.  See comments at
     user semantic actions for why this is necessary.  */
  yytoken = yychar == YYEMPTY ? YYSYMBOL_YYEMPTY : YYTRANSLATE (yychar);
  /* If not already recovering from an error, report this error.  */
  if (!yyerrstatus)
    {
      ++yynerrs;
      {
        yypcontext_t yyctx
          = {yyssp, yytoken, &yylloc};
        char const *yymsgp = YY_("syntax error");
        int yysyntax_error_status;
        yysyntax_error_status = yysyntax_error (&yymsg_alloc, &yymsg, &yyctx);
        if (yysyntax_error_status == 0)
          yymsgp = yymsg;
        else if (yysyntax_error_status == -1)
          {
            if (yymsg != yymsgbuf)
              YYSTACK_FREE (yymsg);
            yymsg = YY_CAST (char *,
                             YYSTACK_ALLOC (YY_CAST (YYSIZE_T, yymsg_alloc)));
            if (yymsg)
              {
                yysyntax_error_status
                  = yysyntax_error (&yymsg_alloc, &yymsg, &yyctx);
                yymsgp = yymsg;
              }
            else
              {
                yymsg = yymsgbuf;
                yymsg_alloc = sizeof yymsgbuf;
                yysyntax_error_status = YYENOMEM;
              }
          }
        yyerror (&yylloc, ctx, scanner, yymsgp);
        if (yysyntax_error_status == YYENOMEM)
          YYNOMEM;
      }
    }

  yyerror_range[1] = yylloc;
  if (yyerrstatus == 3)
    {
      /* If just tried and failed to reuse lookahead token after an
         error, discard it.  */

      if (yychar <= YYEOF)
        {
          /* Return failure if at end of input.  */
          if (yychar == YYEOF)
            YYABORT;
        }
      else
        {
          yydestruct ("Error: discarding",
                      yytoken, &yylval, &yylloc, ctx, scanner);
          yychar = YYEMPTY;
        }
    }

  /* Else will try to reuse lookahead token after shifting the error
     token.  */
  goto yyerrlab1;


/*---------------------------------------------------.
| yyerrorlab -- error raised explicitly by YYERROR.  |
`---------------------------------------------------*/
yyerrorlab:
  /* Pacify compilers when the user code never invokes YYERROR and the
     label yyerrorlab therefore never appears in user code.  */
  if (0)
    YYERROR;
  ++yynerrs;

  /* Do not reclaim the symbols of the rule whose action triggered
     this YYERROR.  */
  YYPOPSTACK (yylen);
  yylen = 0;
  YY_STACK_PRINT (yyss, yyssp);
  yystate = *yyssp;
  goto yyerrlab1;


/*-------------------------------------------------------------.
| yyerrlab1 -- common code for both syntax error and YYERROR.  |
`-------------------------------------------------------------*/
yyerrlab1:
  yyerrstatus = 3;      /* Each real token shifted decrements this.  */

  /* Pop stack until we find a state that shifts the error token.  */
  for (;;)
    {
      yyn = yypact[yystate];
      if (!yypact_value_is_default (yyn))
        {
          yyn += YYSYMBOL_YYerror;
          if (0 <= yyn && yyn <= YYLAST && yycheck[yyn] == YYSYMBOL_YYerror)
            {
              yyn = yytable[yyn];
              if (0 < yyn)
                break;
            }
        }

      /* Pop the current state because it cannot handle the error token.  */
      if (yyssp == yyss)
        YYABORT;

      yyerror_range[1] = *yylsp;
      yydestruct ("Error: popping",
                  YY_ACCESSING_SYMBOL (yystate), yyvsp, yylsp, ctx, scanner);
      YYPOPSTACK (1);
      yystate = *yyssp;
      YY_STACK_PRINT (yyss, yyssp);
    }

  YY_IGNORE_MAYBE_UNINITIALIZED_BEGIN
  *++yyvsp = yylval;
  YY_IGNORE_MAYBE_UNINITIALIZED_END

  yyerror_range[2] = yylloc;
  ++yylsp;
  YYLLOC_DEFAULT (*yylsp, yyerror_range, 2);

  /* Shift the error token.  */
  YY_SYMBOL_PRINT ("Shifting", YY_ACCESSING_SYMBOL (yyn), yyvsp, yylsp);

  yystate = yyn;
  goto yynewstate;


/*-------------------------------------.
| yyacceptlab -- YYACCEPT comes here.  |
`-------------------------------------*/
yyacceptlab:
  yyresult = 0;
  goto yyreturnlab;


/*-----------------------------------.
| yyabortlab -- YYABORT comes here.  |
`-----------------------------------*/
yyabortlab:
  yyresult = 1;
  goto yyreturnlab;


/*-----------------------------------------------------------.
| yyexhaustedlab -- YYNOMEM (memory exhaustion) comes here.  |
`-----------------------------------------------------------*/
yyexhaustedlab:
  yyerror (&yylloc, ctx, scanner, YY_("memory exhausted"));
  yyresult = 2;
  goto yyreturnlab;


/*----------------------------------------------------------.
| yyreturnlab -- parsing is finished, clean up and return.  |
`----------------------------------------------------------*/
yyreturnlab:
  if (yychar != YYEMPTY)
    {
      /* Make sure we have latest lookahead translation.  See comments at
         user semantic actions for why this is necessary.  */
      yytoken = YYTRANSLATE (yychar);
      yydestruct ("Cleanup: discarding lookahead",
                  yytoken, &yylval, &yylloc, ctx, scanner);
    }
  /* Do not reclaim the symbols of the rule whose action triggered
     this YYABORT or YYACCEPT.  */
  YYPOPSTACK (yylen);
  YY_STACK_PRINT (yyss, yyssp);
  while (yyssp != yyss)
    {
      yydestruct ("Cleanup: popping",
                  YY_ACCESSING_SYMBOL (+*yyssp), yyvsp, yylsp, ctx, scanner);
      YYPOPSTACK (1);
    }
#ifndef yyoverflow
  if (yyss != yyssa)
    YYSTACK_FREE (yyss);
#endif
  if (yymsg != yymsgbuf)
    YYSTACK_FREE (yymsg);
  return yyresult;
}

#line 453 "/work/main/frontend/parser.y"


static void yyerror(YYLTYPE *loc, ParseCtx *ctx, void *scanner, const char *msg)
{
    (void)scanner;
    /* Bison says "syntax error, unexpected X, expecting Y": keep it, with token
     * names in the user's words. */
    char buf[512];
    size_t n = 0;
    for (const char *p = msg; *p && n + 40 < sizeof buf; p++) {
        static const struct { const char *tok, *word; } words[] = {
            {"IDENT", "identifier"}, {"INT_LIT", "integer literal"},
            {"FLOAT_LIT", "floating literal"}, {"CHAR_LIT", "character literal"},
            {"PRAGMA_END", "end of pragma line"}, {"PRAGMA_IMCL", "'#pragma imcl'"},
            {"STRING_LIT", "string literal"}, {"BAD_CHAR", "invalid character"},
            {"KW_", NULL}, {"end of file", "end of file"},
        };
        bool done = false;
        for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
            size_t len = strlen(words[w].tok);
            if (strncmp(p, words[w].tok, len) == 0 && words[w].word) {
                n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", words[w].word);
                p += len - 1;
                done = true;
                break;
            }
            if (!words[w].word && strncmp(p, "KW_", 3) == 0) {
                /* KW_WHILE -> 'while' */
                const char *q = p + 3;
                n += (size_t)snprintf(buf + n, sizeof buf - n, "'");
                while ((*q >= 'A' && *q <= 'Z') && n + 2 < sizeof buf) {
                    buf[n++] = (char)(*q - 'A' + 'a');
                    q++;
                }
                buf[n++] = '\'';
                p = q - 1;
                done = true;
                break;
            }
        }
        if (!done)
            buf[n++] = *p;
    }
    buf[n] = 0;
    diag_error(ctx->diag, L(*loc), "%s", buf);
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
        if (!ast_const_int(e, &v)) {
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
    if (!ctx->pending)
        ctx->pending_loc = L(loc);
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
