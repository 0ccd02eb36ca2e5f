# asset.cmake — the model importer (src/asset/, posebench/asset.h) over Assimp
# (Debian: libassimp-dev), an optional part of the runtime library:
#   PB_ASSIMP  ON by default where Assimp's CMake package is found (the aarch64 cross build has
#              none: it builds src/asset/asset_none.c, whose import says PB_ERR_UNSUPPORTED).
# Included from the root CMakeLists.txt after the posebench target exists and before
# version.h is configured (PB_HAVE_ASSIMP) and the install rules (the package files name the
# dependency for static consumers).
get_filename_component(PB_ASSET_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
find_package(assimp CONFIG QUIET)
if(assimp_FOUND AND TARGET assimp::assimp)
  set(_pb_assimp_default ON)
else()
  set(_pb_assimp_default OFF)
endif()
option(PB_ASSIMP "Include the Assimp model importer (src/asset/, posebench/asset.h's pb_asset_load)" ${_pb_assimp_default})
if(PB_ASSIMP AND NOT TARGET assimp::assimp)
  message(FATAL_ERROR "PB_ASSIMP=ON but Assimp's CMake package was not found: install libassimp-dev, or -DPB_ASSIMP=OFF")
endif()
if(PB_ASSIMP)
  target_sources(posebench PRIVATE ${PB_ASSET_ROOT}/src/asset/asset.c ${PB_ASSET_ROOT}/src/asset/asset_math.c
    ${PB_ASSET_ROOT}/src/asset/asset_mesh.c ${PB_ASSET_ROOT}/src/asset/asset_clip.c
    ${PB_ASSET_ROOT}/src/asset/asset_guard.c ${PB_ASSET_ROOT}/src/asset/asset_scene.c)
  target_link_libraries(posebench PRIVATE assimp::assimp)
  set(PB_HAVE_ASSIMP 1)
  set(PB_PC_ASSIMP "assimp")     # posebench.pc Requires.private, posebench-static.pc Requires
  message(STATUS "posebench: model import with Assimp ${assimp_VERSION}")
else()
  target_sources(posebench PRIVATE ${PB_ASSET_ROOT}/src/asset/asset_none.c ${PB_ASSET_ROOT}/src/asset/asset_scene.c)
  set(PB_HAVE_ASSIMP 0)
  set(PB_PC_ASSIMP "")
  message(STATUS "posebench: no model import (Assimp not found or PB_ASSIMP=OFF)")
endif()

# Tests (tests/test_asset*.c link Assimp themselves: they walk Assimp's own nodes to check the import).
if(PB_ASSIMP AND PB_BUILD_TESTS)
  add_executable(test_asset ${PB_ASSET_ROOT}/tests/test_asset.c)
  target_link_libraries(test_asset PRIVATE posebench assimp::assimp m)
  add_test(NAME asset COMMAND test_asset /usr/share/assimp/models)
  # the importer's counts against the files' own text and `assimp info` (tests/test_asset_counts.sh)
  add_test(NAME asset_counts COMMAND bash ${PB_ASSET_ROOT}/tests/test_asset_counts.sh $<TARGET_FILE:test_asset>
    /usr/share/assimp/models)
endif()
if(PB_ASSIMP AND PB_BUILD_TESTS)
  add_executable(test_asset_bad ${PB_ASSET_ROOT}/tests/test_asset_bad.c)
  target_link_libraries(test_asset_bad PRIVATE posebench m)
  add_test(NAME asset_bad COMMAND test_asset_bad /usr/share/assimp/models)
  # Assimp's readers leak on some error paths of the invalid/ corpus (not ours): LeakSanitizer told to leave
  # allocations made inside Assimp, as the fuzz stage does (tests/fuzz/asset.lsan); the importer's own stay checked
  set_tests_properties(asset_bad PROPERTIES ENVIRONMENT
    "LSAN_OPTIONS=suppressions=${PB_ASSET_ROOT}/tests/fuzz/asset.lsan:print_suppressions=0")
endif()
if(PB_ASSIMP AND PB_BUILD_TESTS)   # pb_scene_asset: an imported character through the frame
  add_executable(test_asset_scene ${PB_ASSET_ROOT}/tests/test_asset_scene.c)
  target_link_libraries(test_asset_scene PRIVATE posebench m)
  add_test(NAME asset_scene COMMAND test_asset_scene /usr/share/assimp/models)
endif()

# fuzz_asset (-DPB_FUZZ=ON, clang): the importer from memory under libFuzzer, ASan and UBSan
# (tests/fuzz/fuzz_asset.c; tools/test.sh's fuzz stage runs it, seeded from tests/fuzz/asset_seed). The
# importer is compiled here with the fuzzer's instrumentation; Assimp and the rest of posebench are
# linked as built, uninstrumented (their objects of src/asset/ are not pulled from the static library:
# these define every symbol they hold). A crash inside Assimp still stops the fuzzer.
if(PB_FUZZ AND PB_ASSIMP AND CMAKE_C_COMPILER_ID MATCHES "Clang")
  add_executable(fuzz_asset ${PB_ASSET_ROOT}/tests/fuzz/fuzz_asset.c ${PB_ASSET_ROOT}/src/asset/asset.c
    ${PB_ASSET_ROOT}/src/asset/asset_math.c ${PB_ASSET_ROOT}/src/asset/asset_mesh.c
    ${PB_ASSET_ROOT}/src/asset/asset_clip.c ${PB_ASSET_ROOT}/src/asset/asset_guard.c)
  target_include_directories(fuzz_asset PRIVATE ${PB_ASSET_ROOT}/src)
  target_compile_options(fuzz_asset PRIVATE -g -O1 ${PB_FUZZ_FLAGS})
  target_link_options(fuzz_asset PRIVATE ${PB_FUZZ_FLAGS})
  target_link_libraries(fuzz_asset PRIVATE posebench assimp::assimp m)
endif()
