# What `cmake --install` puts where: the executables, the libraries and headers of every layer as
# the CMake package `pcv` (pcvConfig.cmake, its version file, pcvTargets.cmake) and a pkg-config
# file. The libraries are static with position-independent code (src/CMakeLists.txt), so a
# consumer links what it uses into its own executable or shared library.
include(CMakePackageConfigHelpers)

# The layers' libraries, headless first, exported as pcv::<name>.
set(pcv_library_targets pcv_core pcv_octree pcv_io pcv_demo pcv_raster pcv_stream pcv_process
                        pcv_session pcv_gl)
if(PCV_WITH_CUDA)
  list(APPEND pcv_library_targets pcv_cuda pcv_octree_cuda pcv_process_cuda)
endif()
if(TARGET pcv_gl_window)
  list(APPEND pcv_library_targets pcv_gl_window)
endif()
foreach(target ${pcv_library_targets})
  string(REGEX REPLACE "^pcv_" "" export_name ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name})
endforeach()
# The window is the package's `window` component: pcv::window, as pcv::gl is `gl`.
if(TARGET pcv_gl_window)
  set_target_properties(pcv_gl_window PROPERTIES EXPORT_NAME window)
endif()

# pcv::pcv: everything a headless program needs (read, open a scene, render, write a PNG).
add_library(pcv_library INTERFACE)
set_target_properties(pcv_library PROPERTIES EXPORT_NAME pcv)
target_link_libraries(pcv_library INTERFACE pcv_session pcv_process pcv_stream pcv_demo
                                            pcv_raster pcv_io pcv_octree pcv_core)
add_library(pcv::pcv ALIAS pcv_library)
list(APPEND pcv_library_targets pcv_library)

install(TARGETS ${pcv_library_targets} EXPORT pcvTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/pcv DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT development)

set(pcv_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/pcv)
install(EXPORT pcvTargets NAMESPACE pcv:: DESTINATION ${pcv_cmake_dir} COMPONENT development)
# pcv_io links PROJ when src/ found it (VPC geometry): the package asks for it the same way.
find_package(PROJ CONFIG QUIET)
set(PCV_WITH_PROJ ${PROJ_FOUND})
set(PCV_PC_REQUIRES "libpng pugixml liblzf libcurl")
if(PROJ_FOUND)
  string(APPEND PCV_PC_REQUIRES " proj")
endif()
# And libturbojpeg (JPEG images) when src/ found it (PCV_WITH_JPEG).
if(PCV_WITH_JPEG)
  string(APPEND PCV_PC_REQUIRES " libturbojpeg")
endif()
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/pcvConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/pcvConfig.cmake
                              INSTALL_DESTINATION ${pcv_cmake_dir})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/pcvConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/pcvConfig.cmake ${PROJECT_BINARY_DIR}/pcvConfigVersion.cmake
        DESTINATION ${pcv_cmake_dir} COMPONENT development)

# pkg-config: the headless libraries in link order, and what they link.
# Relocatable: the prefix is found from where the .pc file lies, as `cmake --install --prefix`.
file(RELATIVE_PATH pcv_pc_up /pcv-prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /pcv-prefix)
set(PCV_PC_PREFIX "\${pcfiledir}/${pcv_pc_up}")
set(PCV_PC_CUDA_LIBS "")
set(PCV_PC_PROCESS_CUDA_LIBS "")  # the GPU's filters, which the session's classify may choose
set(PCV_PC_SYSTEM_LIBS "-lpthread")
if(PCV_WITH_CUDA)
  set(PCV_PC_CUDA_LIBS "-lpcv_cuda ")
  set(PCV_PC_PROCESS_CUDA_LIBS "-lpcv_process_cuda ")
  set(PCV_PC_SYSTEM_LIBS "-L${CUDAToolkit_LIBRARY_DIR} -lcudart -lpthread")
endif()
if(PCV_WITH_VULKAN)
  string(PREPEND PCV_PC_SYSTEM_LIBS "-lvulkan ")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/pcv.pc.in ${PROJECT_BINARY_DIR}/pcv.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/pcv.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT development)

# The executables: the headless pcv and, when built, the window pcv-view it starts.
install(TARGETS pcv RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
if(TARGET pcv-view)
  install(TARGETS pcv-view RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
endif()

# The consumer example built against a fresh install of this build (CI proves the package).
if(PCV_TESTS)
  add_test(NAME package.installed_package_builds_a_consumer
           COMMAND ${CMAKE_COMMAND} -DPCV_BUILD_DIR=${PROJECT_BINARY_DIR}
                   -DPCV_EXAMPLE_DIR=${PROJECT_SOURCE_DIR}/examples/render_points
                   -DPCV_WORK_DIR=${PROJECT_BINARY_DIR}/package-test
                   -DPCV_CXX_COMPILER=${CMAKE_CXX_COMPILER}
                   -DPCV_LIBDIR=${CMAKE_INSTALL_LIBDIR}
                   -P ${CMAKE_CURRENT_LIST_DIR}/test_installed_package.cmake)
  set_tests_properties(package.installed_package_builds_a_consumer PROPERTIES TIMEOUT 600)

  # The static libraries are position-independent: they link whole into a shared object.
  add_test(NAME package.installed_static_libraries_link_into_a_shared_object
           COMMAND ${CMAKE_COMMAND} -DPCV_BUILD_DIR=${PROJECT_BINARY_DIR}
                   -DPCV_WORK_DIR=${PROJECT_BINARY_DIR}/package-pic-test
                   -DPCV_CXX_COMPILER=${CMAKE_CXX_COMPILER} -DPCV_AR=${CMAKE_AR}
                   -DPCV_LIBDIR=${CMAKE_INSTALL_LIBDIR}
                   -P ${CMAKE_CURRENT_LIST_DIR}/test_pic_libraries.cmake)
  set_tests_properties(package.installed_static_libraries_link_into_a_shared_object
                       PROPERTIES TIMEOUT 600)

  # The second consumer, with its own CUDA kernel on the interop pieces: built here (it needs
  # nvcc, not a GPU) and left in place for tests/gl's interop_example_tests, which run it.
  set(PCV_INTEROP_EXAMPLE_DIR ${PROJECT_BINARY_DIR}/package-interop-test)
  if(PCV_WITH_CUDA)
    add_test(NAME package.installed_package_builds_the_interop_kernel_example
             COMMAND ${CMAKE_COMMAND} -DPCV_BUILD_DIR=${PROJECT_BINARY_DIR}
                     -DPCV_EXAMPLE_DIR=${PROJECT_SOURCE_DIR}/examples/interop_kernel
                     -DPCV_WORK_DIR=${PCV_INTEROP_EXAMPLE_DIR}
                     -DPCV_CXX_COMPILER=${CMAKE_CXX_COMPILER}
                     -DPCV_CUDA_COMPILER=${CMAKE_CUDA_COMPILER}
                     "-DPCV_CUDA_ARCHITECTURES=${CMAKE_CUDA_ARCHITECTURES}"
                     -DPCV_LIBDIR=${CMAKE_INSTALL_LIBDIR}
                     -P ${CMAKE_CURRENT_LIST_DIR}/test_interop_example.cmake)
    set_tests_properties(package.installed_package_builds_the_interop_kernel_example PROPERTIES
                         TIMEOUT 600 FIXTURES_SETUP pcv_interop_example)
  else()
    add_test(NAME package.installed_package_builds_the_interop_kernel_example
             COMMAND sh -c "echo 'skipped: pcv built without CUDA; the example is CUDA'; exit 77")
    set_tests_properties(package.installed_package_builds_the_interop_kernel_example PROPERTIES
                         SKIP_RETURN_CODE 77)
  endif()
endif()
