/* isa_neon.c — the kernels for neon: backend + the shared op bodies. */
#define PB_ISA neon
#include "backend_neon.h"
#include "kernel_body.h"
