# tools/icount.sh's driver (tools/icount/frame_icount.c): the default frame's
# stages under callgrind, instructions counted per stage. Built where valgrind
# can run it and its parser can read the kernels' code from the driver alone:
# valgrind's header present, the library static (linked into the driver), a
# native build without sanitizers. Its test (tests/test_icount.sh) skips,
# exit 77, without valgrind or python3.
include(CheckIncludeFile)
check_include_file(valgrind/callgrind.h PB_HAVE_CALLGRIND_H)
if(PB_HAVE_CALLGRIND_H AND NOT BUILD_SHARED_LIBS AND NOT CMAKE_CROSSCOMPILING AND NOT PB_SANITIZE AND NOT PB_TSAN)
  add_executable(frame_icount tools/icount/frame_icount.c)
  target_link_libraries(frame_icount PRIVATE posebench)
  set_target_properties(frame_icount PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR})
  if(PB_BUILD_TESTS)
    add_test(NAME icount COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/tests/test_icount.sh ${CMAKE_BINARY_DIR})
    set_tests_properties(icount PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 300)
  endif()
endif()
