/* isa_sse41.c — the kernels for sse41: backend + the shared op bodies. */
#define PB_ISA sse41
#include "backend_sse41.h"
#include "kernel_body.h"
