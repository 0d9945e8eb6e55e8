# CTest script: installs the build into a scratch prefix, checks that the GL/CUDA interop pieces
# are in it, then configures and builds examples/interop_kernel (its own CUDA kernel) against it
# through find_package(pcv COMPONENTS gl cuda). The build stays in PCV_WORK_DIR for the test that
# runs it on a GPU (tests/gl/interop_example_test.cpp).
#   cmake -DPCV_BUILD_DIR=... -DPCV_EXAMPLE_DIR=... -DPCV_WORK_DIR=... -DPCV_LIBDIR=...
#         [-DPCV_CXX_COMPILER=...] [-DPCV_CUDA_COMPILER=...] [-DPCV_CUDA_ARCHITECTURES=...]
#         -P test_interop_example.cmake
include(${CMAKE_CURRENT_LIST_DIR}/test_steps.cmake)
require_variables(PCV_BUILD_DIR PCV_EXAMPLE_DIR PCV_WORK_DIR PCV_LIBDIR)


set(prefix ${PCV_WORK_DIR}/prefix)
file(REMOVE_RECURSE ${PCV_WORK_DIR})
run_step("install" ${CMAKE_COMMAND} --install ${PCV_BUILD_DIR} --prefix ${prefix})
# What a program with its own kernel on pcv's screen buffer needs from the install.
foreach(installed include/pcv/gl/gl_buffer_in_cuda.hpp include/pcv/gl/screen_buffer.hpp
                  include/pcv/gl/egl_context.hpp include/pcv/cuda/cuda_check.hpp
                  ${PCV_LIBDIR}/libpcv_gl.a ${PCV_LIBDIR}/libpcv_cuda.a
                  ${PCV_LIBDIR}/cmake/pcv/pcvTargets.cmake)
  if(NOT EXISTS ${prefix}/${installed})
    message(FATAL_ERROR "the install lacks ${installed}")
  endif()
endforeach()

set(compilers "")
if(PCV_CXX_COMPILER)
  list(APPEND compilers -DCMAKE_CXX_COMPILER=${PCV_CXX_COMPILER})
endif()
if(PCV_CUDA_COMPILER)
  list(APPEND compilers -DCMAKE_CUDA_COMPILER=${PCV_CUDA_COMPILER})
endif()
if(PCV_CUDA_ARCHITECTURES)
  list(APPEND compilers "-DCMAKE_CUDA_ARCHITECTURES=${PCV_CUDA_ARCHITECTURES}")
endif()
run_step("configure the example" ${CMAKE_COMMAND} -S ${PCV_EXAMPLE_DIR} -B ${PCV_WORK_DIR}/build
         -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix} ${compilers})
run_step("build the example" ${CMAKE_COMMAND} --build ${PCV_WORK_DIR}/build)
if(NOT EXISTS ${PCV_WORK_DIR}/build/interop_kernel)
  message(FATAL_ERROR "the example's build made no interop_kernel")
endif()
# Without a GPU it can still answer its command line: a bad one is refused with status 2.
execute_process(COMMAND ${PCV_WORK_DIR}/build/interop_kernel --frames zero
                RESULT_VARIABLE result OUTPUT_QUIET ERROR_QUIET)
if(NOT result EQUAL 2)
  message(FATAL_ERROR "interop_kernel --frames zero exited with ${result}, not 2")
endif()
