# CTest script: installs the build into a scratch prefix, then builds and runs
# examples/render_points against it through find_package(pcv), and with its Makefile through
# pkg-config.
#   cmake -DPCV_BUILD_DIR=... -DPCV_EXAMPLE_DIR=... -DPCV_WORK_DIR=... -P test_installed_package.cmake
include(${CMAKE_CURRENT_LIST_DIR}/test_steps.cmake)
require_variables(PCV_BUILD_DIR PCV_EXAMPLE_DIR PCV_WORK_DIR)


set(prefix ${PCV_WORK_DIR}/prefix)
file(REMOVE_RECURSE ${PCV_WORK_DIR})
run_step("install" ${CMAKE_COMMAND} --install ${PCV_BUILD_DIR} --prefix ${prefix})
if(NOT PCV_LIBDIR)
  set(PCV_LIBDIR lib)
endif()
foreach(installed include/pcv/session/scene.hpp ${PCV_LIBDIR}/cmake/pcv/pcvConfig.cmake
                  ${PCV_LIBDIR}/cmake/pcv/pcvConfigVersion.cmake ${PCV_LIBDIR}/pkgconfig/pcv.pc
                  ${PCV_LIBDIR}/libpcv_session.a bin/pcv)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "the install lacks ${installed}")
  endif()
endforeach()

set(compiler_flag "")
if(PCV_CXX_COMPILER)
  set(compiler_flag -DCMAKE_CXX_COMPILER=${PCV_CXX_COMPILER})
endif()
run_step("configure the example" ${CMAKE_COMMAND} -S ${PCV_EXAMPLE_DIR} -B ${PCV_WORK_DIR}/build
         -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix} ${compiler_flag})
run_step("build the example" ${CMAKE_COMMAND} --build ${PCV_WORK_DIR}/build)
run_step("run the example" ${PCV_WORK_DIR}/build/render_points ${PCV_WORK_DIR}/helix.png)
if(NOT EXISTS ${PCV_WORK_DIR}/helix.png)
  message(FATAL_ERROR "the example wrote no image")
endif()

find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${prefix}/${PCV_LIBDIR}/pkgconfig)
  run_step("pkg-config" ${PKG_CONFIG} --cflags --libs pcv)
  if(NOT step_output MATCHES "-lpcv_session" OR NOT step_output MATCHES "-I[^ ]*/include")
    message(FATAL_ERROR "pkg-config gives no usable flags for pcv: ${step_output}")
  endif()
  # A plain Makefile consumer: its flags are pkg-config's alone.
  find_program(MAKE_PROGRAM make)
  if(PCV_CXX_COMPILER AND MAKE_PROGRAM)
    file(MAKE_DIRECTORY ${PCV_WORK_DIR}/make)
    run_step("build the example with make and pkg-config" ${MAKE_PROGRAM} -C ${PCV_WORK_DIR}/make
             -f ${PCV_EXAMPLE_DIR}/Makefile CXX=${PCV_CXX_COMPILER})
    run_step("run it" ${PCV_WORK_DIR}/make/render_points ${PCV_WORK_DIR}/helix_pc.png)
  endif()
endif()
file(REMOVE_RECURSE ${PCV_WORK_DIR})
