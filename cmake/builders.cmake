# builders.cmake — the crowd and transition builders and their test.
# Included from the root CMakeLists.txt after the runtime library target
# posebench exists (and the harness and tests directory, with PB_BUILD_TESTS).
#   test_builders    : ctest "builders", the crowd builder on synthetic clips
#   test_builders_tr : ctest "builders_tr", the transition builder; uses
#                      /usr/share/assimp/models/BVH when present (apt-get install
#                      assimp-testmodels), else says "skipped:"
get_filename_component(PB_BUILDERS_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

target_sources(posebench PRIVATE ${PB_BUILDERS_ROOT}/src/builders.c)

if(PB_BUILD_TESTS)
  add_executable(test_builders ${PB_BUILDERS_ROOT}/tests/test_builders.c)
  target_link_libraries(test_builders PRIVATE posebench_harness m)
  add_test(NAME builders COMMAND test_builders)
  add_executable(test_builders_tr ${PB_BUILDERS_ROOT}/tests/test_builders_tr.c)
  target_link_libraries(test_builders_tr PRIVATE posebench_harness m)
  add_test(NAME builders_tr COMMAND test_builders_tr /usr/share/assimp/models/BVH)
  set_tests_properties(builders builders_tr PROPERTIES TIMEOUT 900)
endif()
