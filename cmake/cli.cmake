# cli.cmake — the CLI's command files beyond posebench.c (the dispatcher), the
# cJSON it reads and writes JSON with, and the report test. Included at the end
# of the root CMakeLists.txt (with PB_BUILD_CLI), after the posebench_cli
# target, tests and (optional) bench exist.
get_filename_component(PB_CLI_ROOT "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
include(${CMAKE_CURRENT_LIST_DIR}/cjson.cmake)

target_sources(posebench_cli PRIVATE
  # the command line: option tables, the number parser, the environment, variants, the context and JSON files
  ${PB_CLI_ROOT}/cli/opts.c ${PB_CLI_ROOT}/cli/num.c ${PB_CLI_ROOT}/cli/env.c ${PB_CLI_ROOT}/cli/pick.c ${PB_CLI_ROOT}/cli/context.c ${PB_CLI_ROOT}/cli/model_import.c
  # one file per command
  ${PB_CLI_ROOT}/cli/cmd_list.c ${PB_CLI_ROOT}/cli/ops_markdown.c ${PB_CLI_ROOT}/cli/cmd_validate.c ${PB_CLI_ROOT}/cli/cmd_bench.c
  ${PB_CLI_ROOT}/cli/cmd_frame.c ${PB_CLI_ROOT}/cli/frame_opts.c ${PB_CLI_ROOT}/cli/skin_opts.c ${PB_CLI_ROOT}/cli/frame_fused.c ${PB_CLI_ROOT}/cli/frame_scenes.c ${PB_CLI_ROOT}/cli/noise.c ${PB_CLI_ROOT}/cli/frame_mm.c ${PB_CLI_ROOT}/cli/frame_graph.c ${PB_CLI_ROOT}/cli/graph_json.c ${PB_CLI_ROOT}/cli/graph_drive.c ${PB_CLI_ROOT}/cli/cmd_budget.c ${PB_CLI_ROOT}/cli/cmd_report.c
  # budget's quality, layers, whole frame and output
  ${PB_CLI_ROOT}/cli/budget_quality.c ${PB_CLI_ROOT}/cli/budget_layers.c ${PB_CLI_ROOT}/cli/budget_out.c ${PB_CLI_ROOT}/cli/budget_verdict.c ${PB_CLI_ROOT}/cli/budget_frame.c
  ${PB_CLI_ROOT}/cli/budget_sets.c ${PB_CLI_ROOT}/cli/budget_sets_make.c ${PB_CLI_ROOT}/cli/budget_sets_out.c ${PB_CLI_ROOT}/cli/budget_sweep.c
  # report: reading the steps' JSON, plots, HTML
  ${PB_CLI_ROOT}/cli/report_util.c ${PB_CLI_ROOT}/cli/report_read.c ${PB_CLI_ROOT}/cli/report_plots.c
  ${PB_CLI_ROOT}/cli/report_sections.c ${PB_CLI_ROOT}/cli/report_answers.c ${PB_CLI_ROOT}/cli/report_html.c ${PB_CLI_ROOT}/cli/report_bw.c ${PB_CLI_ROOT}/cli/report_scaling.c
  ${PB_CLI_ROOT}/cli/report_budget_sets.c)
target_include_directories(posebench_cli PRIVATE ${PB_CLI_ROOT}/cli)
target_link_libraries(posebench_cli PRIVATE pb_cjson)

# Build description recorded in every command's JSON context (cli/context.c):
# the flags C sources get and each native kernel build's ISA flags.
pb_build_description(_pb_cli_cflags _pb_cli_kflags)
set_source_files_properties(${PB_CLI_ROOT}/cli/context.c PROPERTIES COMPILE_DEFINITIONS
  "CLI_BUILD_TYPE=\"${CMAKE_BUILD_TYPE}\";CLI_COMPILER_ID=\"${CMAKE_C_COMPILER_ID}\";CLI_C_FLAGS=\"${_pb_cli_cflags}\";CLI_KERNEL_FLAGS=\"${_pb_cli_kflags}\"")
# The report writes into <source>/reports/out/<timestamp>/ and reads the
# gnuplot scripts from <source>/reports/, wherever it is run from.
set_source_files_properties(${PB_CLI_ROOT}/cli/cmd_report.c ${PB_CLI_ROOT}/cli/report_plots.c PROPERTIES COMPILE_DEFINITIONS
  "CLI_REPORTS_DIR=\"${PB_CLI_ROOT}/reports\"")

# CLI smoke tests of frame and budget (tiny crowds; shape of the output, not timings).
if(PB_BUILD_TESTS)
  # README and docs/ against the code: generated pages, links, README's example and commands (tests/test_docs.sh).
  # Native builds only: the commands run as a user runs them.
  if(NOT CMAKE_CROSSCOMPILING)
    # README's C example is compiled by this build's compiler, with its sanitizer flags (the library's
    # objects need their runtime)
    set(_pb_docs_cc_flags "")
    if(PB_SANITIZE)
      set(_pb_docs_cc_flags "-fsanitize=address,undefined")
    elseif(PB_TSAN)
      set(_pb_docs_cc_flags "-fsanitize=thread")
    endif()
    add_test(NAME docs COMMAND bash ${PB_CLI_ROOT}/tests/test_docs.sh $<TARGET_FILE:posebench_cli>
      $<TARGET_FILE:posebench> ${CMAKE_BINARY_DIR}/include ${CMAKE_C_COMPILER} "${_pb_docs_cc_flags}")
    set_tests_properties(docs PROPERTIES TIMEOUT 900)
  endif()
  add_test(NAME frame_smoke COMMAND posebench_cli frame --quick --characters 16 --frames 4 --reps 1 --no-cmu)
  add_test(NAME budget_smoke COMMAND posebench_cli budget --quick --characters 16 --budget-us 500)
  # Whether 16 characters fit 500 us depends on the host (qemu, sanitizers): exit 0 or 1 both end
  # with the check line; the exit status itself is tested by tests/cli_test.sh.
  set_tests_properties(budget_smoke PROPERTIES PASS_REGULAR_EXPRESSION "\ncheck: (passed|FAILED) \\(exit [01]:")
  # qemu-user 7.2 hangs in pthread_create on some host kernels (tests/CMakeLists.txt): one thread when emulated
  if(CMAKE_CROSSCOMPILING)
    set_tests_properties(frame_smoke budget_smoke PROPERTIES ENVIRONMENT "POSEBENCH_THREADS=1")
  endif()
endif()

# The full report in headless Chromium: needs `posebench bench` (Google
# Benchmark), gnuplot with pngcairo and svg, and chromium. tools/deps.sh all
# installs them (CI); elsewhere the test is left out with a message.
find_program(PB_GNUPLOT gnuplot)
find_program(PB_CHROMIUM NAMES chromium chromium-browser)
if(NOT PB_BUILD_TESTS)
  # no tests asked for
elseif(NOT TARGET posebench_bench)
  message(STATUS "posebench: report test skipped: no Google Benchmark (install libbenchmark-dev)")
elseif(NOT PB_GNUPLOT)
  message(STATUS "posebench: report test skipped: gnuplot not found (install gnuplot-nox)")
elseif(NOT PB_CHROMIUM)
  message(STATUS "posebench: report test skipped: chromium not found (install chromium; tools/deps.sh all does)")
elseif(CMAKE_CROSSCOMPILING)
  message(STATUS "posebench: report test skipped: cross build")
else()
  add_test(NAME report COMMAND bash ${PB_CLI_ROOT}/tests/test_report.sh $<TARGET_FILE:posebench_cli> ${PB_CHROMIUM})
  if(PB_SANITIZE)
    # report --quick under ASan at -O0 is slow (with the emulated variants it ran close to 900 s on
    # 2 cores beside validate_all): the timeout catches hangs, it is not a time budget. Without its
    # benchmark step (bench has its own test in this build; test_report.sh then checks the report
    # says the benchmarks were left out)
    set_tests_properties(report PROPERTIES TIMEOUT 1500 ENVIRONMENT PB_REPORT_NO_BENCH=1)
  else()
    set_tests_properties(report PROPERTIES TIMEOUT 900)
  endif()
endif()

# fuzz_graph (-DPB_FUZZ=ON, clang; the root CMakeLists.txt has the option, cmake/bvh.cmake fuzz_bvh): the blend graph
# reader from memory under libFuzzer, ASan and UBSan (tests/fuzz/fuzz_graph.c; tools/test.sh's fuzz
# stage runs it, seeded from tests/fuzz/graph_seed, tests/graph and data/). The reader is compiled here
# with the instrumentation; the runtime it hands accepted graphs to (pb_graph_check, a small crowd) is
# linked as this build made it, uninstrumented: a crash there still stops the fuzzer, and its memory
# errors are the asan stage's (test_graph_json, test_graph).
if(PB_FUZZ AND CMAKE_C_COMPILER_ID MATCHES "Clang")
  add_executable(fuzz_graph ${PB_CLI_ROOT}/tests/fuzz/fuzz_graph.c ${PB_CLI_ROOT}/cli/graph_json.c ${PB_CLI_ROOT}/cli/graph_drive.c)
  target_include_directories(fuzz_graph PRIVATE ${PB_CLI_ROOT}/cli ${PB_CLI_ROOT}/src)
  target_compile_options(fuzz_graph PRIVATE -g -O1 ${PB_FUZZ_FLAGS})
  target_link_options(fuzz_graph PRIVATE ${PB_FUZZ_FLAGS})
  target_link_libraries(fuzz_graph PRIVATE posebench pb_cjson m)
endif()
