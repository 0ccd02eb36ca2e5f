/* quality_int.h — between the quality metrics' check (quality_check.c) and
 * their measurement (quality.c). */
#ifndef PB_QUALITY_INT_H
#define PB_QUALITY_INT_H

#include "posebench/quality.h"

/* Every failure case of pb_quality_measure (quality.h) but PB_ERR_NOMEM, with its message. */
pb_status pbq_check(const pb_quality_window *w, const pb_quality *q);

#endif
