/* headers_pedantic.c — every public header compiled as a strict ISO C11 consumer would
 * (-std=c11 -Wpedantic -Werror, tests/CMakeLists.txt): an engine building with -Wpedantic must
 * see no warning from posebench's headers (issue 62: an enumerator of 1u << 31, outside int).
 * Built only, never run: the build fails when a header regresses. */
#include <posebench/posebench.h>
#include <posebench/export.h>

/* the flags keep their values whatever their form (enumerator or macro) */
_Static_assert((uint32_t)PB_OPF_FOOT == 0x80000000u, "PB_OPF_FOOT is bit 31");
_Static_assert((uint32_t)PB_OPF_NCHAIN == 0x40000000u, "PB_OPF_NCHAIN is bit 30");

int pb_headers_pedantic_unused(void);
int pb_headers_pedantic_unused(void) { return PB_OK; }
