/* version.c — pb_version(): the version this library was built as. */
#include "posebench/version.h"

const char *pb_version(void) { return PB_VERSION_STRING; }
