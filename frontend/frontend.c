/* Reading, preprocessing and parsing a source file. */
#include "frontend.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "parser.h"
#include "lexer.h"

Program *frontend_parse_text(Arena *a, Diag *diag, const char *file, const char *text)
{
    Program *prog = ARENA_NEW(a, Program);
    prog->arena = a;
    prog->file = arena_strdup(a, file);
    program_add_file(prog, prog->file);

    ParseCtx ctx = {0};
    ctx.a = a;
    ctx.diag = diag;
    ctx.prog = prog;
    ctx.pending_tail = &ctx.pending;
    ctx.file = prog->file;

    struct LexState st = {.ctx = &ctx, .line = 1, .col = 1, .file = prog->file};
    yyscan_t scanner;
    if (yylex_init_extra(&st, &scanner) != 0) {
        diag_plain_error(diag, "cannot start the lexer");
        return prog;
    }
    YY_BUFFER_STATE buf = yy_scan_bytes(text, (int)strlen(text), scanner);
    yyparse(&ctx, scanner);
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);

    /* After a syntax error the pragmas may well have a function, a broken one. */
    if (ctx.pending && diag->errors == ctx.pending_errors)
        diag_error(diag, ctx.pending->loc, "pragma is not followed by a function");
    return prog;
}

/* True when the text has a directive other than #pragma (so cpp must run). */
bool preprocess_needed(const char *text)
{
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#') {
            p++;
            while (*p == ' ' || *p == '\t')
                p++;
            if (strncmp(p, "pragma", 6) != 0)
                return true;
        }
        p = strchr(p, '\n');
        if (!p)
            break;
        p++;
    }
    return false;
}

/* Re-reports the preprocessor's messages `file:line:col: error: text` as imcl's
 * own (with the source line and a caret); other lines ("In file included from
 * ...") are passed on as they are. */
static void relay_cpp_messages(Diag *diag, const char *text)
{
    int before = diag->errors;
    static const char *kinds[] = {": fatal error: ", ": error: ", ": warning: "};
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        char *l = arena_strndup(diag->arena, line, len);
        line += len + (end ? 1 : 0);
        bool done = strcmp(l, "compilation terminated.") == 0;
        for (size_t k = 0; k < 3 && !done; k++) {
            char *m = strstr(l, kinds[k]);
            if (!m)
                continue;
            /* `file:LINE:COL` or `file:LINE` before the kind */
            char *num[2] = {NULL, NULL};
            char *p = m;
            for (int i = 0; i < 2; i++) {
                char *q = p;
                while (q > l && q[-1] >= '0' && q[-1] <= '9')
                    q--;
                if (q == p || q - 1 <= l || q[-1] != ':')
                    break;
                num[i] = q;
                p = q - 1;
            }
            if (!num[0])
                continue;
            Loc loc = {arena_strndup(diag->arena, l, (size_t)(p - l)), 0, 0};
            long line_no = strtol(num[1] ? num[1] : num[0], NULL, 10);
            long col_no = num[1] ? strtol(num[0], NULL, 10) : 0;
            loc.line = line_no > 0 && line_no < 100000000 ? (int)line_no : 0;
            loc.col = col_no > 0 && col_no < 100000000 ? (int)col_no : 0;
            if (k == 2)
                diag_warning(diag, loc, "%s", m + strlen(kinds[k]));
            else
                diag_error(diag, loc, "%s", m + strlen(kinds[k]));
            done = true;
        }
        if (!done)
            fprintf(diag->out, "%s\n", l);
    }
    if (diag->errors == before)
        diag_plain_error(diag, "the C preprocessor failed");
}

/* Runs `cpp` (or $IMCL_CPP) on the file itself, so that its line markers name
 * the original files and lines. Predefined macros (-undef) and system headers
 * (-nostdinc) are left out: an ImageCL file is not C. */
bool preprocess_run(Diag *diag, const char *path, const char *text, bool on_disk, StrBuf *out)
{
    const char *cpp = getenv("IMCL_CPP");
    if (!cpp || !*cpp)
        cpp = "cpp";
    char tmpl[] = "/tmp/imcl-cpp-XXXXXX";
    int errfd = mkstemp(tmpl);
    if (errfd < 0) {
        diag_plain_error(diag, "cannot create a temporary file: %s", strerror(errno));
        return false;
    }
    unlink(tmpl);
    /* Text that is not the file on disk goes to cpp's standard input, from a temporary
     * file, after a line marker that names `path`. */
    int infd = -1;
    if (!on_disk) {
        char itmpl[] = "/tmp/imcl-cpp-XXXXXX";
        infd = mkstemp(itmpl);
        if (infd >= 0)
            unlink(itmpl);
        StrBuf in = {0};
        sb_puts(&in, "# 1 \"");
        for (const char *q = path; *q; q++) {
            if (*q == '"' || *q == '\\')
                sb_putc(&in, '\\');
            sb_putc(&in, *q);
        }
        sb_puts(&in, "\"\n");
        sb_puts(&in, text);
        bool written = infd >= 0 && write(infd, in.data, in.len) == (ssize_t)in.len &&
                       lseek(infd, 0, SEEK_SET) == 0;
        sb_free(&in);
        if (!written) {
            if (infd >= 0)
                close(infd);
            close(errfd);
            diag_plain_error(diag, "cannot create a temporary file: %s", strerror(errno));
            return false;
        }
    }
    int outp[2];
    if (pipe(outp) != 0) {
        if (infd >= 0)
            close(infd);
        close(errfd);
        diag_plain_error(diag, "cannot run the preprocessor: %s", strerror(errno));
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        if (infd >= 0)
            close(infd);
        close(errfd);
        close(outp[0]);
        close(outp[1]);
        diag_plain_error(diag, "cannot run the preprocessor: %s", strerror(errno));
        return false;
    }
    if (pid == 0) {
        int devnull = infd >= 0 ? infd : open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(outp[1], 1);
        dup2(errfd, 2);
        close(outp[0]);
        close(outp[1]);
        if (on_disk) {
            execlp(cpp, cpp, "-x", "c", "-undef", "-nostdinc", "-fno-diagnostics-show-caret",
                   "-D__IMAGECL__=1", path, (char *)NULL);
        } else {
            /* Quoted includes are looked for beside `path`, as for the file itself. */
            const char *slash = strrchr(path, '/');
            char *dir = slash ? strndup(path, (size_t)(slash - path) + (slash == path)) : strdup(".");
            execlp(cpp, cpp, "-x", "c", "-undef", "-nostdinc", "-fno-diagnostics-show-caret",
                   "-D__IMAGECL__=1", "-iquote", dir ? dir : ".", "-", (char *)NULL);
        }
        _exit(127);
    }
    if (infd >= 0)
        close(infd);
    close(outp[1]);
    char buf[4096];
    ssize_t r;
    while ((r = read(outp[0], buf, sizeof buf)) > 0)
        for (ssize_t i = 0; i < r; i++)
            sb_putc(out, buf[i] ? buf[i] : ' ');
    close(outp[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!ok) {
        if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
            diag_plain_error(diag, "cannot run the C preprocessor '%s' (set IMCL_CPP)", cpp);
        } else {
            StrBuf msgs = {0};
            lseek(errfd, 0, SEEK_SET);
            while ((r = read(errfd, buf, sizeof buf)) > 0 && msgs.len < (1u << 20))
                for (ssize_t i = 0; i < r; i++)
                    sb_putc(&msgs, buf[i] ? buf[i] : ' ');
            relay_cpp_messages(diag, sb_str(&msgs));
            sb_free(&msgs);
        }
    }
    close(errfd);
    return ok;
}

/* The `len` bytes of a source file, preprocessed when they need it: cpp reads the
 * file itself when on_disk, else the text. */
static Program *parse_bytes(Arena *a, Diag *diag, const char *path, const char *data, size_t len, bool on_disk)
{
    if (len > FRONTEND_MAX_SOURCE) {
        /* Some analyses walk the whole kernel once per array or loop: a kernel of this
         * size takes about a second (docs/language.md, "Limits"). */
        diag_plain_error(diag, "%s: the source is %zu bytes; imcl reads sources of at most %d bytes (%d KiB)",
                         path, len, FRONTEND_MAX_SOURCE, FRONTEND_MAX_SOURCE / 1024);
        Program *p = ARENA_NEW(a, Program);
        p->arena = a;
        p->file = arena_strdup(a, path);
        return p;
    }
    StrBuf sb = {0};
    bool has_nul = false;
    int nul_line = 1, nul_col = 1;
    for (size_t i = 0; i < len; i++) {
        if (data[i] == 0) {
            has_nul = true;
        } else if (!has_nul) { /* where the first NUL will be */
            nul_line += data[i] == '\n';
            nul_col = data[i] == '\n' ? 1 : nul_col + 1;
        }
        sb_putc(&sb, data[i] ? data[i] : ' ');
    }
    /* The lines of a binary file are not worth echoing. */
    diag_add_source(diag, path, has_nul ? NULL : sb_str(&sb));
    Program *p = NULL;
    if (has_nul) {
        diag_error(diag, (Loc){arena_strdup(a, path), nul_line, nul_col},
                   "source file contains a NUL byte (is it a binary file?)");
        p = ARENA_NEW(a, Program);
        p->arena = a;
        p->file = arena_strdup(a, path);
    } else if (preprocess_needed(sb_str(&sb))) {
        StrBuf pp = {0};
        bool ran = preprocess_run(diag, path, sb_str(&sb), on_disk, &pp);
        if (ran && pp.len > FRONTEND_MAX_SOURCE)
            diag_plain_error(diag, "%s: the source is %zu bytes after preprocessing; imcl reads sources of at most "
                                   "%d bytes (%d KiB)", path, pp.len, FRONTEND_MAX_SOURCE, FRONTEND_MAX_SOURCE / 1024);
        if (ran && pp.len <= FRONTEND_MAX_SOURCE) {
            p = frontend_parse_text(a, diag, path, sb_str(&pp));
        } else {
            p = ARENA_NEW(a, Program);
            p->arena = a;
            p->file = arena_strdup(a, path);
        }
        sb_free(&pp);
    } else {
        p = frontend_parse_text(a, diag, path, sb_str(&sb));
    }
    sb_free(&sb);
    return p;
}

Program *frontend_parse_file(Arena *a, Diag *diag, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        diag_plain_error(diag, "cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    StrBuf sb = {0};
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sb_putn(&sb, buf, n);
    if (ferror(f)) { /* a directory, for one */
        diag_plain_error(diag, "cannot read '%s': %s", path, strerror(errno));
        fclose(f);
        sb_free(&sb);
        return NULL;
    }
    fclose(f);
    Program *p = parse_bytes(a, diag, path, sb_str(&sb), sb.len, true);
    sb_free(&sb);
    return p;
}

Program *frontend_parse_source(Arena *a, Diag *diag, const char *path, const char *text, size_t len)
{
    return parse_bytes(a, diag, path, text, len, false);
}
