# isa.cmake — the ISA table: each kernel source kernels/isa_<isa>.c is built
# twice: "native" with the ISA's flags (only where the target architecture can
# run it; dispatch and benchmarks use it; in the runtime library) and "emu"
# with no ISA flags and SIMDE_NO_NATIVE (SIMDe's portable C path; in the
# harness, with PB_EMULATED=ON), so every ISA is validated on any host. Per-file flags, never __attribute__((target)): SIMDe picks native code
# from the file's predefined macros (__AVX2__, ...).
set(PB_ISAS sse41 avx2 avx512 neon)

set(PB_ISA_ARCH_sse41  x86_64)
set(PB_ISA_ARCH_avx2   x86_64)
set(PB_ISA_ARCH_avx512 x86_64)
set(PB_ISA_ARCH_neon   aarch64)

set(PB_ISA_FLAGS_sse41  -msse4.1)
set(PB_ISA_FLAGS_avx2   -mavx2 -mfma)
set(PB_ISA_FLAGS_avx512 -mavx512f -mavx512dq -mavx512bw -mavx512vl -mavx2 -mfma)
set(PB_ISA_FLAGS_neon   "")   # baseline on aarch64

string(TOLOWER "${CMAKE_SYSTEM_PROCESSOR}" _pb_proc)
if(_pb_proc MATCHES "^(x86_64|amd64)$")
  set(PB_ARCH x86_64)
elseif(_pb_proc MATCHES "^(aarch64|arm64)$")
  set(PB_ARCH aarch64)
else()
  set(PB_ARCH "${_pb_proc}")
endif()

# Kernel object libraries: position-independent (they go into a shared
# libposebench too) and hidden (their tables are reached through the variant
# table, never by name from outside the library that holds them).
function(_pb_kernel_object name isa)
  add_library(${name} OBJECT ${PROJECT_SOURCE_DIR}/kernels/isa_${isa}.c)
  target_include_directories(${name} PRIVATE
    ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include ${PROJECT_SOURCE_DIR}/src)
  set_target_properties(${name} PROPERTIES POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
endfunction()

# pb_add_native_kernels(<target>): the native build of every ISA the target
# architecture runs, into <target> (the runtime), with PB_HAVE_<isa>_native
# defined for src/variants.c.
function(pb_add_native_kernels target)
  foreach(isa IN LISTS PB_ISAS)
    if(PB_ARCH STREQUAL PB_ISA_ARCH_${isa})
      set(nat pbk_${isa}_native)
      _pb_kernel_object(${nat} ${isa})
      target_compile_definitions(${nat} PRIVATE PB_MODE=native)
      target_compile_options(${nat} PRIVATE ${PB_ISA_FLAGS_${isa}})
      target_sources(${target} PRIVATE $<TARGET_OBJECTS:${nat}>)
      target_compile_definitions(${target} PRIVATE PB_HAVE_${isa}_native)
      list(APPEND PB_NATIVE_ISAS ${isa})
    endif()
  endforeach()
  set(PB_NATIVE_ISAS "${PB_NATIVE_ISAS}" PARENT_SCOPE)
endfunction()

# pb_add_emulated_kernels(<target>): the emulated build of each ISA in
# PB_EMULATED_ISAS (default all), into <target> (the harness; only with
# PB_EMULATED=ON), with PB_HAVE_EMULATED and PB_HAVE_EMU_<isa> defined for
# validate/all_variants.c. tools/test.sh emulates only the ISAs its host cannot
# run natively: on this project's AVX2 CI machine the sse41 and avx2 emulated
# files took 374 of the gcc build's 1233 CPU seconds, and validated again what
# the native rows validate on that host.
function(pb_add_emulated_kernels target)
  foreach(isa IN LISTS PB_EMULATED_ISAS)
    if(NOT isa IN_LIST PB_ISAS)
      message(FATAL_ERROR "PB_EMULATED_ISAS: '${isa}' is not an ISA (${PB_ISAS})")
    endif()
  endforeach()
  if(NOT PB_EMULATED_ISAS)
    message(FATAL_ERROR "PB_EMULATED_ISAS is empty with PB_EMULATED=ON: name at least one of ${PB_ISAS}")
  endif()
  foreach(isa IN LISTS PB_EMULATED_ISAS)
    target_compile_definitions(${target} PRIVATE PB_HAVE_EMU_${isa})
    set(emu pbk_${isa}_emu)
    _pb_kernel_object(${emu} ${isa})
    target_compile_definitions(${emu} PRIVATE PB_MODE=emu SIMDE_NO_NATIVE)
    # Emulated wide vectors are passed between static inline helpers inside
    # this one file; nothing exported takes a vector, so the ABI note that
    # compilers raise for them (-Wpsabi) concerns no real interface.
    target_compile_options(${emu} PRIVATE -Wno-psabi)
    # GCC 12 spends minutes optimizing SIMDe's portable loops at -O2/-O3 (the
    # AVX-512 file: 894 s at -O3, 648 at -O2, 143 at -O1, on this project's
    # 2-core CI machine): -O1 after the build type's flags. The emulated
    # variants are validated, never timed for speed (bench --emulated says so).
    if(CMAKE_C_COMPILER_ID STREQUAL "GNU" AND NOT CMAKE_BUILD_TYPE STREQUAL "Debug")
      target_compile_options(${emu} PRIVATE -O1)
    endif()
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${emu}>)
  endforeach()
  target_compile_definitions(${target} PRIVATE PB_HAVE_EMULATED)
endfunction()

# pb_build_description(<cflags_var> <kflags_var>): the build as reports record
# it — the flags C sources get (CMAKE_C_FLAGS, the build type's flags and the
# project's compile options) and each native kernel build's ISA flags. Used by
# the bench JSON context (bench/) and the frame/budget JSON context (cli/).
function(pb_build_description cflags_var kflags_var)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" bt)
  get_directory_property(opts DIRECTORY ${PROJECT_SOURCE_DIR} COMPILE_OPTIONS)
  string(REPLACE ";" " " opts "${opts}")
  set(cflags "${CMAKE_C_FLAGS} ${CMAKE_C_FLAGS_${bt}} ${opts}")
  string(REGEX REPLACE " +" " " cflags "${cflags}")
  string(STRIP "${cflags}" cflags)
  set(kflags "")
  foreach(isa IN LISTS PB_NATIVE_ISAS)
    string(REPLACE ";" " " f "${PB_ISA_FLAGS_${isa}}")
    string(APPEND kflags "${isa}: ${f} | ")
  endforeach()
  string(REPLACE ";" " " f "${PB_SCALAR_FLAGS}")
  string(APPEND kflags "scalar: ${f}")
  if(PB_EMULATED)
    string(APPEND kflags " | <isa>-emu: no ISA flags, SIMDE_NO_NATIVE")
  endif()
  set(${cflags_var} "${cflags}" PARENT_SCOPE)
  set(${kflags_var} "${kflags}" PARENT_SCOPE)
endfunction()
