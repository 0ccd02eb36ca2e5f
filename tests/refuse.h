/* refuse.h — REFUSE(want, what, call): the call must fail with status want
 * and an error message containing what (the argument or element it names). */
#ifndef PB_REFUSE_H
#define PB_REFUSE_H
#include <string.h>
#include "check.h"
#include "posebench/status.h"

#define REFUSE(want, what, call)                                                                                   \
    do {                                                                                                           \
        pb_status s_ = (call);                                                                                     \
        CHECK(s_ == (want) && strstr(pb_last_error(), (what)), "%s: %s, got %s: %s", #call, pb_status_name(want), \
              pb_status_name(s_), pb_last_error());                                                                \
    } while (0)
#endif
