# cjson.cmake — Debian's cJSON (libcjson-dev): the CLI reads and writes its JSON
# with it (STYLE.md: use the library that exists). Defines the imported target
# pb_cjson. Found by path rather than pkg-config so the aarch64 cross build
# (cmake/aarch64-linux-gnu.cmake) finds libcjson-dev:arm64 in
# /usr/lib/aarch64-linux-gnu: the header is architecture-independent and the
# library sits outside the cross root, hence CMAKE_FIND_ROOT_PATH_BOTH.
if(NOT TARGET pb_cjson)
  find_path(PB_CJSON_INCLUDE_DIR cjson/cJSON.h CMAKE_FIND_ROOT_PATH_BOTH)
  find_library(PB_CJSON_LIBRARY NAMES cjson CMAKE_FIND_ROOT_PATH_BOTH)
  if(NOT PB_CJSON_INCLUDE_DIR OR NOT PB_CJSON_LIBRARY)
    message(FATAL_ERROR "cJSON not found: install libcjson-dev (libcjson-dev:arm64 for the aarch64 cross "
      "build); tools/deps.sh does it")
  endif()
  add_library(pb_cjson UNKNOWN IMPORTED)
  set_target_properties(pb_cjson PROPERTIES IMPORTED_LOCATION "${PB_CJSON_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${PB_CJSON_INCLUDE_DIR}")
  message(STATUS "posebench: cJSON ${PB_CJSON_LIBRARY}")
endif()
