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

    ParseCtx ctx = {0};
    ctx.a = a;
    ctx.diag = diag;
    ctx.prog = prog;
    ctx.pending_tail = &ctx.pending;
    ctx.file = prog->file;

    struct LexState st = {&ctx, 1, 1, prog->file};
    yyscan_t scanner;
    if (yylex_init_extra(&st, &scanner) != 0) {
        diag_plain_error(diag, "cannot start the lexer");
        return prog;
    }
    YY_BUFFER_STATE buf = yy_scan_bytes(text, (int)strlen(text), scanner);
    yyparse(&ctx, scanner);
    yy_delete_buffer(buf, scanner);
    yylex_destroy(scanner);

    if (ctx.pending)
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

/* Runs `cpp` (or $IMCL_CPP) on the file itself, so that its line markers name
 * the original files and lines. Predefined macros (-undef) and system headers
 * (-nostdinc) are left out: an ImageCL file is not C. */
bool preprocess_run(Diag *diag, const char *path, const char *text, StrBuf *out)
{
    (void)text;
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
    int outp[2];
    if (pipe(outp) != 0) {
        close(errfd);
        diag_plain_error(diag, "cannot run the preprocessor: %s", strerror(errno));
        return false;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(errfd);
        close(outp[0]);
        close(outp[1]);
        diag_plain_error(diag, "cannot run the preprocessor: %s", strerror(errno));
        return false;
    }
    if (pid == 0) {
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(outp[1], 1);
        dup2(errfd, 2);
        close(outp[0]);
        close(outp[1]);
        execlp(cpp, cpp, "-x", "c", "-undef", "-nostdinc", "-D__IMAGECL__=1", path, (char *)NULL);
        _exit(127);
    }
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
            /* Relay cpp's own diagnostics: they already read file:line:col. */
            lseek(errfd, 0, SEEK_SET);
            while ((r = read(errfd, buf, sizeof buf)) > 0)
                fwrite(buf, 1, (size_t)r, diag->out);
            diag->errors++;
        }
    }
    close(errfd);
    return ok;
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
    bool has_nul = false;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        for (size_t i = 0; i < n; i++) {
            if (buf[i] == 0)
                has_nul = true;
            sb_putc(&sb, buf[i] ? buf[i] : ' ');
        }
    }
    fclose(f);
    diag_add_source(diag, path, sb_str(&sb));
    Program *p = NULL;
    if (has_nul) {
        diag_error(diag, (Loc){arena_strdup(a, path), 1, 1}, "source file contains NUL bytes (is it a binary file?)");
        p = ARENA_NEW(a, Program);
        p->arena = a;
        p->file = arena_strdup(a, path);
    } else if (preprocess_needed(sb_str(&sb))) {
        StrBuf pp = {0};
        if (preprocess_run(diag, path, sb_str(&sb), &pp))
            p = frontend_parse_text(a, diag, path, sb_str(&pp));
        else {
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
