/* file.c — the one way posebench reads a file a user names (BVH clips, graph
 * definitions, the report's JSON): a regular file only, at most a stated
 * number of bytes, read whole into a NUL-terminated buffer.
 *
 * Why one helper: every reader had its own fopen + fread loop, and each
 * inherited the same two faults. A FIFO blocks fopen until a writer appears
 * (forever, from the command line), and /dev/zero or a growing pipe reads
 * until memory runs out. Opening without blocking and checking the file's
 * type before reading a byte refuses both, and the byte cap bounds the
 * buffer for anything accepted. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

static const char *file_kind(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "a special file";
}

pb_status pb_file_read(const char *path, size_t max_bytes, const char *what, char **out, size_t *size)
{
    *out = NULL;
    *size = 0;
    /* O_NONBLOCK: opening a FIFO for reading must not wait for a writer (regular files ignore it) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return pb_fail(PB_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return pb_fail(PB_ERR_IO, "%s: cannot stat: %s", path, strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return pb_fail(PB_ERR_IO, "%s: is %s, not a regular file; a %s must be a regular file", path,
                       file_kind(st.st_mode), what);
    }
    if (st.st_size < 0 || (uintmax_t)st.st_size > max_bytes) {
        close(fd);
        return pb_fail(PB_ERR_SIZE, "%s: %jd bytes, more than the limit of %zu bytes for a %s", path,
                       (intmax_t)st.st_size, max_bytes, what);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    /* sized from fstat, one byte more to see a file that grew since; grown (to the cap) only if it did */
    size_t cap = (size_t)st.st_size + 1, n = 0;
    char *buf = malloc(cap + 1);
    pb_status s = buf ? PB_OK : pb_fail(PB_ERR_NOMEM, "%s: out of memory for %zu bytes", path, cap);
    while (s == PB_OK) {
        if (n == cap) {
            if (cap > max_bytes) {
                s = pb_fail(PB_ERR_SIZE, "%s: grew past the limit of %zu bytes for a %s while being read", path,
                            max_bytes, what);
                break;
            }
            size_t ncap = cap > max_bytes / 2 ? max_bytes + 1 : cap * 2;
            char *b = realloc(buf, ncap + 1);
            if (!b) {
                s = pb_fail(PB_ERR_NOMEM, "%s: out of memory reading %zu bytes", path, n);
                break;
            }
            buf = b;
            cap = ncap;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) s = pb_fail(PB_ERR_IO, "%s: read error: %s", path, strerror(errno));
        if (got <= 0) break;
        n += (size_t)got;
    }
    close(fd);
    if (s != PB_OK) {
        free(buf);
        return s;
    }
    buf[n] = '\0';
    *out = buf;
    *size = n;
    return PB_OK;
}
