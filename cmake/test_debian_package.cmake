# CTest script: makes the .deb with cpack, checks what dpkg-deb lists and the Depends field,
# unpacks it into a scratch root and runs pcv and `import pcv` from there.
#   cmake -DPCV_BUILD_DIR=... -DPCV_WORK_DIR=... [-DPCV_PYTHON=1] [-DPCV_VIEWER=1]
#         -P test_debian_package.cmake
include(${CMAKE_CURRENT_LIST_DIR}/test_steps.cmake)

file(REMOVE_RECURSE ${PCV_WORK_DIR})
run_step("cpack" ${CMAKE_CPACK_COMMAND} -G DEB -B ${PCV_WORK_DIR}
         --config ${PCV_BUILD_DIR}/CPackConfig.cmake)
file(GLOB packages ${PCV_WORK_DIR}/*.deb)
list(LENGTH packages count)
if(NOT count EQUAL 1)
  message(FATAL_ERROR "cpack made ${count} .deb files in ${PCV_WORK_DIR}")
endif()

run_step("dpkg-deb -c" dpkg-deb -c ${packages})
set(listing "${step_output}")
set(expected ./usr/bin/pcv ./usr/include/pcv/session/scene.hpp ./usr/lib/libpcv_session.a
             ./usr/lib/cmake/pcv/pcvConfig.cmake ./usr/lib/pkgconfig/pcv.pc
             ./usr/share/applications/pcv.desktop ./usr/share/icons/hicolor/scalable/apps/pcv.svg
             ./usr/share/mime/packages/pcv.xml ./usr/share/man/man1/pcv.1.gz)
if(PCV_VIEWER)
  list(APPEND expected ./usr/bin/pcv-view)
endif()
if(PCV_PYTHON)
  list(APPEND expected ./usr/lib/python3/dist-packages/pcv/__init__.py
                       ./usr/lib/python3/dist-packages/pcv/__init__.pyi
                       ./usr/lib/python3/dist-packages/pcv/_pcv)
endif()
foreach(path ${expected})
  string(FIND "${listing}" " ${path}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the package lacks ${path}; it holds:\n${listing}")
  endif()
endforeach()

run_step("dpkg-deb -f" dpkg-deb -f ${packages} Depends)
if(NOT step_output MATCHES "libpng16-16")
  message(FATAL_ERROR "Depends names no libpng: ${step_output}")
endif()
set(depends "${step_output}")

set(root ${PCV_WORK_DIR}/root)
run_step("dpkg -x" dpkg-deb -x ${packages} ${root})
run_step("pcv --version from the package" ${root}/usr/bin/pcv --version)
if(NOT step_output MATCHES "^pcv [0-9]+\\.[0-9]+\\.[0-9]+\nbackends:( cuda)?( vulkan)? cpu")
  message(FATAL_ERROR "pcv --version printed: ${step_output}")
endif()
# The Vulkan backend runs with Debian's loader: the package says so.
if(step_output MATCHES "vulkan" AND NOT depends MATCHES "libvulkan1")
  message(FATAL_ERROR "pcv has the Vulkan backend but Depends names no libvulkan1: ${depends}")
endif()
run_step("pcv from the package" ${root}/usr/bin/pcv render --backend cpu --points 10000
         --size 64x48 --out ${PCV_WORK_DIR}/cylinders.png)
if(NOT EXISTS ${PCV_WORK_DIR}/cylinders.png)
  message(FATAL_ERROR "the packaged pcv wrote no image")
endif()
if(PCV_PYTHON)
  find_program(python NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
  set(ENV{PYTHONPATH} ${root}/usr/lib/python3/dist-packages)
  run_step("import pcv from the package" ${python} -c
           "import pcv, sys; sys.exit(0 if pcv.render([[0.0, 0.0, 0.0]], size=(8, 8), backend='cpu').shape == (8, 8, 4) else 1)")
endif()
file(REMOVE_RECURSE ${PCV_WORK_DIR})
