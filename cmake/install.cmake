# install.cmake — what `cmake --install` puts under the prefix: the runtime
# library (never the harness), the public headers (include/posebench/*.h and
# the generated version.h; src/internal.h stays private), a CMake package
#   find_package(posebench CONFIG REQUIRED)  ->  posebench::posebench
# and posebench.pc for pkg-config (plus posebench-static.pc from a static
# build, below). Included from the root CMakeLists.txt with
# PB_INSTALL (default ON when posebench is the top-level project).
include(CMakePackageConfigHelpers)
set(PB_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/posebench)

install(TARGETS posebench EXPORT posebenchTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/posebench DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
  FILES_MATCHING PATTERN "*.h")
install(FILES ${PROJECT_BINARY_DIR}/include/posebench/version.h
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/posebench)

install(EXPORT posebenchTargets NAMESPACE posebench:: FILE posebenchTargets.cmake DESTINATION ${PB_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/posebenchConfig.cmake.in
  ${PROJECT_BINARY_DIR}/posebenchConfig.cmake INSTALL_DESTINATION ${PB_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/posebenchConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/posebenchConfig.cmake ${PROJECT_BINARY_DIR}/posebenchConfigVersion.cmake
  DESTINATION ${PB_CMAKE_DIR})

# pkg-config: relocatable (prefix found from the .pc file's own folder), so
# `cmake --install build --prefix DIR` works whatever CMAKE_INSTALL_PREFIX was.
set(PB_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH PB_PC_TO_PREFIX /prefix/${PB_PC_DIR} /prefix)
string(REGEX REPLACE "/$" "" PB_PC_TO_PREFIX "${PB_PC_TO_PREFIX}")
configure_file(${CMAKE_CURRENT_LIST_DIR}/posebench.pc.in ${PROJECT_BINARY_DIR}/posebench.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/posebench.pc DESTINATION ${PB_PC_DIR})
# posebench-static.pc (static builds only): the archive named by its path. With the .a and the .so
# installed in one prefix, `pkg-config --static posebench` cannot give the archive: --static only
# appends Libs.private to Libs, and the linker resolves Libs' -lposebench to the .so whenever one
# is beside the .a. A path is the one form that always names the archive, and a shared consumer
# of posebench.pc must not get it, hence a module of its own. posebench.pc stays the same from
# both builds (either install may come last): -lposebench, the .so where there is one.
if(NOT BUILD_SHARED_LIBS)
  configure_file(${CMAKE_CURRENT_LIST_DIR}/posebench-static.pc.in ${PROJECT_BINARY_DIR}/posebench-static.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/posebench-static.pc DESTINATION ${PB_PC_DIR})
endif()
