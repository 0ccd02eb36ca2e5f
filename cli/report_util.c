/* report_util.c — `posebench report`'s child processes, folders and small
 * output helpers (report.h). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "report.h"

/* Run argv with stdout into out_path (NULL: inherited), stderr inherited,
 * optionally in dir. Returns the exit status, 127 if it could not start,
 * 128 + signal if it was killed. */
int run_child(char *const argv[], const char *out_path, const char *dir, int search_path)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "posebench report: fork: %s\n", strerror(errno));
        return 127;
    }
    if (pid == 0) {
        if (out_path) {
            int fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) _exit(127);
            close(fd);
        }
        if (dir && chdir(dir) != 0) _exit(127);
        if (search_path) execvp(argv[0], argv);
        else execv(argv[0], argv);
        fprintf(stderr, "posebench report: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return 127;
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    return WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 127;
}

int mkdir_p(const char *path)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(buf, 0755) != 0 && errno != EEXIST) return -1;
            *p = '/';
        }
    return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

int file_exists(const char *p) { return access(p, F_OK) == 0; }

int input_file_check(const char *path, char *why, size_t len)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(why, len, "%s", errno == ENOENT ? "no such file" : strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        snprintf(why, len, "is %s, not a regular file",
                 S_ISDIR(st.st_mode)    ? "a directory"
                 : S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)"
                 : S_ISCHR(st.st_mode)  ? "a character device"
                                        : "a special file");
        return -1;
    }
    if (access(path, R_OK) != 0) {
        snprintf(why, len, "cannot be read: %s", strerror(errno));
        return -1;
    }
    return 0;
}
void html_esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}

void fmt_num(char *buf, size_t len, double v, int prec)
{
    if (!isfinite(v)) snprintf(buf, len, "-");
    else snprintf(buf, len, "%.*g", prec, v);
}

FILE *open_data(const report *r, const char *name)
{
    char p[2400];
    snprintf(p, sizeof p, "%s/%s", r->data, name);
    FILE *f = fopen(p, "w");
    if (!f) fprintf(stderr, "posebench report: cannot write %s: %s\n", p, strerror(errno));
    return f;
}

void dat_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, " %.6g", v);
    else fputs(" ?", f);
}
