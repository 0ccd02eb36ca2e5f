/* status.h — error codes and messages returned by every public posebench call.
 *
 * Every function that takes user input returns a pb_status. On failure it also
 * records a human-readable message (naming the argument and what was wrong) in
 * a thread-local buffer readable with pb_last_error(). Messages are never
 * needed for control flow: the code alone says which class of problem it was. */
#ifndef POSEBENCH_STATUS_H
#define POSEBENCH_STATUS_H

#include "export.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef enum pb_status {
    PB_OK = 0,
    PB_ERR_NULL,        /* a required pointer argument is NULL */
    PB_ERR_EMPTY,       /* n = 0 where at least one element is required */
    PB_ERR_SIZE,        /* sizes of two arguments disagree, or a size is absurd */
    PB_ERR_ALIGN,       /* a buffer is not 64-byte aligned */
    PB_ERR_PADDING,     /* a plane is not padded to a multiple of PB_PAD, or its padding is not identity */
    PB_ERR_PARAM,       /* a scalar parameter is NaN/Inf or outside its domain */
    PB_ERR_OP,          /* unknown op id or name, or the op does not take this kind of call */
    PB_ERR_VARIANT,     /* unknown variant name */
    PB_ERR_UNSUPPORTED, /* the variant exists but this CPU cannot run it */
    PB_ERR_NOMEM,       /* allocation failed */
    PB_ERR_IO,          /* a file could not be opened, read or written */
    PB_ERR_PARSE,       /* a file's contents are malformed */
    PB_ERR_ALIAS,       /* output partially overlaps an input */
    PB_ERR_STATIC,      /* a static pose (no velocity planes) where the op needs velocities */
    PB_ERR_STALE,       /* a plan's pose, clip or skeleton was freed or changed since the plan was made */
    PB_ERR_THREAD       /* a worker thread could not be created */
} pb_status;

/* Short stable name of a status code ("PB_ERR_ALIGN"). Never NULL. */
PB_API const char *pb_status_name(pb_status s);

/* Message of the last failing call on this thread ("" after success is not
 * guaranteed: only read it after a call returned non-PB_OK). Never NULL. */
PB_API const char *pb_last_error(void);

#ifdef __cplusplus
}
#endif
#endif
