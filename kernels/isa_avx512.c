/* isa_avx512.c — the kernels for avx512: backend + the shared op bodies. */
#define PB_ISA avx512
#include "backend_avx512.h"
#include "kernel_body.h"
