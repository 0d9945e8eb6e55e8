# The Debian package: `cpack -G DEB` in the build folder makes pcv_<version>_<arch>.deb with the
# executables, the libraries, headers and CMake package, the Python module, a .desktop entry
# ("Open with pcv"), an icon and the MIME types of point cloud files.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/pcv.desktop
        DESTINATION ${CMAKE_INSTALL_DATADIR}/applications COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/pcv.svg
        DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps COMPONENT runtime)
# The man page, compressed as Debian keeps them; pcv-view's is the same page.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/packaging)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/packaging/pcv.1)
file(ARCHIVE_CREATE OUTPUT ${PROJECT_BINARY_DIR}/packaging/pcv.1.gz
     PATHS ${PROJECT_SOURCE_DIR}/packaging/pcv.1 FORMAT raw COMPRESSION GZip)
install(FILES ${PROJECT_BINARY_DIR}/packaging/pcv.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        COMPONENT runtime)
install(FILES ${PROJECT_BINARY_DIR}/packaging/pcv.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
        RENAME pcv-view.1.gz COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/packaging/pcv-mime.xml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages RENAME pcv.xml COMPONENT runtime)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pcv)
set(CPACK_PACKAGE_VENDOR pcv)
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Real-time point cloud viewer with a CUDA software rasterizer (LAS, LAZ, COPC, E57, PLY, PCD)")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "pcv maintainers <pcv@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION graphics)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The Debian 12 packages pcv runs with (ImGui is linked statically). The CUDA runtime is not a
# Debian package: the CUDA backend is used where the toolkit's libraries are installed. Built
# without the toolkit (cmake -DPCV_CUDA=OFF), the package needs Debian alone and draws on any GPU
# through Vulkan.
set(pcv_deb_depends "libc6, libstdc++6, libpng16-16, libpugixml1v5, liblzf1, libepoxy0, libcurl4")
find_package(PROJ CONFIG QUIET)  # as src/ found it: pcv_io links it when present
if(PROJ_FOUND)
  string(APPEND pcv_deb_depends ", libproj25")
endif()
if(PCV_WITH_VULKAN)  # the Vulkan backend: any GPU with a Vulkan driver (Mesa, NVIDIA, ...)
  string(APPEND pcv_deb_depends ", libvulkan1")
endif()
if(PCV_WITH_SERVER)  # pcv serve: HTTPS through OpenSSL (Boost.Beast is headers only)
  string(APPEND pcv_deb_depends ", libssl3")
endif()
if(PCV_WITH_JPEG)  # pcv render --out x.jpg
  string(APPEND pcv_deb_depends ", libturbojpeg0")
endif()
if(TARGET pcv-view)
  string(APPEND pcv_deb_depends ", libglfw3")
endif()
if(PCV_MPIEXEC)  # pcv links Open MPI for convert --tiles under mpirun
  string(APPEND pcv_deb_depends ", libopenmpi3")
endif()
if(PCV_WITH_VIDEO)  # the video module pcv loads to write --path videos
  string(APPEND pcv_deb_depends ", libavcodec59, libavformat59, libswscale6, libavutil57")
endif()
if(TARGET pcv_python)
  string(APPEND pcv_deb_depends ", python3 (>= 3.11), python3 (<< 3.12), python3-numpy")
endif()
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${pcv_deb_depends}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "shared-mime-info, desktop-file-utils")
# Fast on CI's two cores; the static libraries make the package large either way.
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
include(CPack)

# Builds the .deb, checks its contents (dpkg-deb -c), unpacks it into a scratch root (dpkg -x)
# and runs pcv and `import pcv` from there.
find_program(PCV_DPKG_DEB dpkg-deb)
if(PCV_TESTS AND PCV_DPKG_DEB)
  add_test(NAME package.debian_package_holds_the_programs_and_the_module
           COMMAND ${CMAKE_COMMAND} -DPCV_BUILD_DIR=${PROJECT_BINARY_DIR}
                   -DPCV_WORK_DIR=${PROJECT_BINARY_DIR}/deb-test
                   -DPCV_PYTHON=$<TARGET_EXISTS:pcv_python>
                   -DPCV_VIEWER=$<TARGET_EXISTS:pcv-view>
                   -P ${CMAKE_CURRENT_LIST_DIR}/test_debian_package.cmake)
  set_tests_properties(package.debian_package_holds_the_programs_and_the_module PROPERTIES
                       TIMEOUT 900 RUN_SERIAL TRUE)
endif()
