/* status.c — status names and the thread-local last-error message. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "internal.h"

static _Thread_local char last_error[512];

const char *pb_status_name(pb_status s)
{
    switch (s) {
    case PB_OK: return "PB_OK";
    case PB_ERR_NULL: return "PB_ERR_NULL";
    case PB_ERR_EMPTY: return "PB_ERR_EMPTY";
    case PB_ERR_SIZE: return "PB_ERR_SIZE";
    case PB_ERR_ALIGN: return "PB_ERR_ALIGN";
    case PB_ERR_PADDING: return "PB_ERR_PADDING";
    case PB_ERR_PARAM: return "PB_ERR_PARAM";
    case PB_ERR_OP: return "PB_ERR_OP";
    case PB_ERR_VARIANT: return "PB_ERR_VARIANT";
    case PB_ERR_UNSUPPORTED: return "PB_ERR_UNSUPPORTED";
    case PB_ERR_NOMEM: return "PB_ERR_NOMEM";
    case PB_ERR_IO: return "PB_ERR_IO";
    case PB_ERR_PARSE: return "PB_ERR_PARSE";
    case PB_ERR_ALIAS: return "PB_ERR_ALIAS";
    case PB_ERR_STATIC: return "PB_ERR_STATIC";
    case PB_ERR_STALE: return "PB_ERR_STALE";
    case PB_ERR_THREAD: return "PB_ERR_THREAD";
    }
    return "PB_ERR_UNKNOWN";
}

const char *pb_last_error(void) { return last_error; }

pb_status pb_fail(pb_status s, const char *fmt, ...)
{
    /* formatted apart first: an argument may be pb_last_error() itself (a callee's message
     * re-raised with a prefix), and vsnprintf into its own source is undefined */
    char msg[sizeof last_error];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    memcpy(last_error, msg, sizeof msg);
    return s;
}
