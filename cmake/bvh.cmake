# bvh.cmake — the BVH loader, its test and its fuzz target.
# Included from the root CMakeLists.txt after the static library target
# posebench_core exists and enable_testing() was called.
#   test_bvh : ctest "bvh" runs it on the regression corpus tests/bvh (and on
#              /usr/share/assimp/models/BVH when present: apt-get install assimp-testmodels)
#   fuzz_bvh : only with -DPB_FUZZ=ON and clang; run it by hand:
#              fuzz_bvh -max_len=4096 -dict=tests/fuzz/bvh.dict CORPUS_DIR tests/fuzz/seed
get_filename_component(PB_BVH_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

target_sources(posebench_core PRIVATE ${PB_BVH_ROOT}/src/bvh.c)

add_executable(test_bvh ${PB_BVH_ROOT}/tests/test_bvh.c)
target_include_directories(test_bvh PRIVATE ${PB_BVH_ROOT}/include)
target_link_libraries(test_bvh PRIVATE posebench_core m)
add_test(NAME bvh COMMAND test_bvh ${PB_BVH_ROOT}/tests/bvh)

option(PB_FUZZ "Build libFuzzer targets (clang only)" OFF)
if(PB_FUZZ)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    # Compiled from source, not linked to posebench_core: the loader must be
    # built with the fuzzer's coverage and sanitizer instrumentation.
    add_executable(fuzz_bvh
      ${PB_BVH_ROOT}/tests/fuzz/fuzz_bvh.c
      ${PB_BVH_ROOT}/src/bvh.c
      ${PB_BVH_ROOT}/src/clip.c
      ${PB_BVH_ROOT}/src/status.c
      ${PB_BVH_ROOT}/src/pose.c)
    target_include_directories(fuzz_bvh PRIVATE ${PB_BVH_ROOT}/include ${PB_BVH_ROOT}/src)
    set(PB_FUZZ_FLAGS -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined)
    target_compile_options(fuzz_bvh PRIVATE -g -O1 ${PB_FUZZ_FLAGS})
    target_link_options(fuzz_bvh PRIVATE ${PB_FUZZ_FLAGS})
    target_link_libraries(fuzz_bvh PRIVATE m)
  else()
    message(WARNING "PB_FUZZ=ON needs clang (CMAKE_C_COMPILER_ID is ${CMAKE_C_COMPILER_ID}); fuzz_bvh not built")
  endif()
endif()
