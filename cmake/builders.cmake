# builders.cmake — the crowd and transition builders and their test.
# Included from the root CMakeLists.txt after the static library target
# posebench_core exists and enable_testing() was called.
#   test_builders : ctest "builders"; uses /usr/share/assimp/models/BVH when
#                   present (apt-get install assimp-testmodels), else says "skipped:"
get_filename_component(PB_BUILDERS_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)

target_sources(posebench_core PRIVATE ${PB_BUILDERS_ROOT}/src/builders.c)

add_executable(test_builders ${PB_BUILDERS_ROOT}/tests/test_builders.c)
target_include_directories(test_builders PRIVATE
  ${PB_BUILDERS_ROOT}/include ${PB_BUILDERS_ROOT}/src ${PB_BUILDERS_ROOT}/validate)
target_link_libraries(test_builders PRIVATE posebench_core m)
add_test(NAME builders COMMAND test_builders /usr/share/assimp/models/BVH)
