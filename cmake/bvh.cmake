# bvh.cmake — the BVH loader, its test and its fuzz target.
# Included from the root CMakeLists.txt after the runtime library target
# posebench exists (and the tests directory, with PB_BUILD_TESTS).
#   test_bvh : ctest "bvh" runs it on the regression corpus tests/bvh (and on
#              /usr/share/assimp/models/BVH when present: apt-get install assimp-testmodels)
#   fuzz_bvh : only with -DPB_FUZZ=ON and clang; run it by hand:
#              fuzz_bvh -max_len=4096 -dict=tests/fuzz/bvh.dict CORPUS_DIR tests/fuzz/seed
get_filename_component(PB_BVH_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

if(PB_BVH)
  target_sources(posebench PRIVATE ${PB_BVH_ROOT}/src/bvh.c ${PB_BVH_ROOT}/src/bvh_lex.c ${PB_BVH_ROOT}/src/frame_bvh.c)
endif()

if(PB_BVH AND PB_BUILD_TESTS)
  add_executable(test_bvh ${PB_BVH_ROOT}/tests/test_bvh.c ${PB_BVH_ROOT}/tests/bvh_check.c)
  target_link_libraries(test_bvh PRIVATE posebench m)
  add_test(NAME bvh COMMAND test_bvh ${PB_BVH_ROOT}/tests/bvh)
endif()

# PB_FUZZ and PB_FUZZ_FLAGS: the root CMakeLists.txt.
if(PB_FUZZ)
  if(CMAKE_C_COMPILER_ID MATCHES "Clang")
    # Compiled from source, not linked to posebench: the loader must be
    # built with the fuzzer's coverage and sanitizer instrumentation.
    add_executable(fuzz_bvh
      ${PB_BVH_ROOT}/tests/fuzz/fuzz_bvh.c
      ${PB_BVH_ROOT}/src/bvh.c
      ${PB_BVH_ROOT}/src/bvh_lex.c
      ${PB_BVH_ROOT}/src/clip.c
      ${PB_BVH_ROOT}/src/status.c
      ${PB_BVH_ROOT}/src/file.c
      ${PB_BVH_ROOT}/src/pose.c)
    target_include_directories(fuzz_bvh PRIVATE
      ${PB_BVH_ROOT}/include ${PROJECT_BINARY_DIR}/include ${PB_BVH_ROOT}/src)
    target_compile_options(fuzz_bvh PRIVATE -g -O1 ${PB_FUZZ_FLAGS})
    target_link_options(fuzz_bvh PRIVATE ${PB_FUZZ_FLAGS})
    target_link_libraries(fuzz_bvh PRIVATE m)
  else()
    message(WARNING "PB_FUZZ=ON needs clang (CMAKE_C_COMPILER_ID is ${CMAKE_C_COMPILER_ID}); fuzz_asset, "
      "fuzz_bvh and fuzz_graph not built")
  endif()
endif()
