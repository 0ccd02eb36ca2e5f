/* isa_avx2.c — the kernels for avx2: backend + the shared op bodies. */
#define PB_ISA avx2
#include "backend_avx2.h"
#include "kernel_body.h"
