# What `cmake --install` puts under the prefix (docs/cmake.md), and the Debian package
# of the same tree (cpack -G DEB). Every path is relative to the prefix: the tree
# can be moved as a whole.
#   bin/imcl, bin/imcl-nvcc-cpu         the compiler, the CUDA emulator's nvcc
#   lib/libimcl.so.*                    the compiler as a library (driver/imcl.h)
#   include/imcl/imcl.h
#   lib/cmake/imcl/                     find_package(imcl): imcl::imcl, imcl::libimcl,
#                                       imcl_add_kernels() (cmake/imclKernels.cmake)
#   lib/pkgconfig/imcl.pc               pkg-config imcl
#   share/man/man1/imcl.1
#   share/doc/imcl/                     LICENSE, CHANGELOG, README, docs/, samples/
#   share/imcl/nvcc-cpu/                the emulator (docs/testing.md, "Running CUDA without a GPU")
# Inside the Python package's wheel (python/pyproject.toml, scikit-build-core sets
# SKBUILD): the compiler and its library alone, under the package's folder, the library
# as one file named as the package looks for it (a wheel holds no symbolic links).
if(SKBUILD)
  install(TARGETS imcl RUNTIME DESTINATION bin)
  install(FILES $<TARGET_FILE:imcl_shared> DESTINATION lib RENAME libimcl.so)
  return()
endif()

include(CMakePackageConfigHelpers)
set(IMCL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/imcl)

install(TARGETS imcl EXPORT imclTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS imcl_shared EXPORT imclTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} NAMELINK_COMPONENT Unspecified)
install(FILES driver/imcl.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/imcl)
install(PROGRAMS scripts/nvcc-cpu DESTINATION ${CMAKE_INSTALL_BINDIR} RENAME imcl-nvcc-cpu)
install(DIRECTORY tools/nvcc-cpu/ DESTINATION ${CMAKE_INSTALL_DATADIR}/imcl/nvcc-cpu)

install(EXPORT imclTargets NAMESPACE imcl:: DESTINATION ${IMCL_CMAKE_DIR})
configure_package_config_file(cmake/imclConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/imclConfig.cmake
                              INSTALL_DESTINATION ${IMCL_CMAKE_DIR})
# 0.x: a project built against 0.2 takes any 0.2.y, not 0.3.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/imclConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/imclConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/imclConfigVersion.cmake
              cmake/imclKernels.cmake
        DESTINATION ${IMCL_CMAKE_DIR})

# imcl.pc finds the prefix from its own folder (${pcfiledir}), so it moves with the tree.
file(RELATIVE_PATH IMCL_PC_TO_PREFIX /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
configure_file(cmake/imcl.pc.in ${CMAKE_CURRENT_BINARY_DIR}/imcl.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/imcl.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

configure_file(docs/imcl.1.in ${CMAKE_CURRENT_BINARY_DIR}/imcl.1 @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/imcl.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES LICENSE CHANGELOG.md README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")
install(DIRECTORY samples/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/samples)

# cpack -G DEB in the build folder: imcl_<version>_<arch>.deb of the tree above under
# /usr. dpkg-shlibdeps derives the libraries' packages (cJSON, Lua); cpp preprocesses
# sources with directives; the rest is what the generated code and the emulator need.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME imcl)
set(CPACK_PACKAGE_VENDOR "The imcl developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_CURRENT_SOURCE_DIR}/LICENSE)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "The imcl developers")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "cpp")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "cmake, pkg-config, ocl-icd-opencl-dev, python3, g++")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "pocl-opencl-icd")
include(CPack)
