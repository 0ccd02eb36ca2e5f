/* export.h — PB_API marks the functions libposebench exports.
 *
 * The library is compiled with hidden visibility, so a shared build
 * (BUILD_SHARED_LIBS=ON, which defines PB_BUILDING_SHARED while compiling it)
 * exports exactly the declarations marked PB_API: the public headers' API,
 * nothing else (no clashes with an engine's own symbols, a smaller dynamic
 * symbol table). For a static library, and for every program using either
 * kind, PB_API is empty: on ELF a caller needs no import marking. */
#ifndef POSEBENCH_EXPORT_H
#define POSEBENCH_EXPORT_H

#if defined(PB_BUILDING_SHARED) && defined(__GNUC__)
#define PB_API __attribute__((visibility("default")))
#else
#define PB_API
#endif

#endif
