# CTest script: pcv's libraries are static with position-independent code (the issue allows that
# or shared ones with a versioned SONAME). Installs the build into a scratch prefix, checks that it
# holds static libraries and no shared ones, and links every one of them whole into a shared
# object: the linker refuses code that is not position-independent. A planted archive built
# without PIC must be refused the same way, so the check is seen to work.
#   cmake -DPCV_BUILD_DIR=... -DPCV_WORK_DIR=... -DPCV_LIBDIR=... -DPCV_CXX_COMPILER=...
#         -DPCV_AR=... -P test_pic_libraries.cmake
include(${CMAKE_CURRENT_LIST_DIR}/test_steps.cmake)
require_variables(PCV_BUILD_DIR PCV_WORK_DIR PCV_LIBDIR PCV_CXX_COMPILER PCV_AR)


# Links `archives` whole (every object, used or not) into ${PCV_WORK_DIR}/<name>.so; sets
# link_result and link_output in the caller.
function(link_whole_into_shared_object name)
  execute_process(COMMAND ${PCV_CXX_COMPILER} -shared -o ${PCV_WORK_DIR}/${name}.so
                          -Wl,--whole-archive ${ARGN} -Wl,--no-whole-archive
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
  set(link_result ${result} PARENT_SCOPE)
  set(link_output "${output}" PARENT_SCOPE)
endfunction()

set(prefix ${PCV_WORK_DIR}/prefix)
file(REMOVE_RECURSE ${PCV_WORK_DIR})
run_step("install" ${CMAKE_COMMAND} --install ${PCV_BUILD_DIR} --prefix ${prefix})
file(GLOB archives ${prefix}/${PCV_LIBDIR}/libpcv_*.a)
file(GLOB shared_objects ${prefix}/${PCV_LIBDIR}/libpcv*.so*)
list(LENGTH archives archive_count)
if(archive_count LESS 7)
  message(FATAL_ERROR "the install holds ${archive_count} static pcv libraries, expected the "
                      "seven layers at least: ${archives}")
endif()
if(shared_objects)
  message(FATAL_ERROR "the install holds shared pcv libraries, expected static ones only: "
                      "${shared_objects}")
endif()

link_whole_into_shared_object(pcv_whole ${archives})
if(NOT link_result EQUAL 0)
  message(FATAL_ERROR "pcv's static libraries do not link into a shared object (code without "
                      "-fPIC?):\n${link_output}")
endif()
message(STATUS "${archive_count} static libraries linked whole into a shared object: ok")

# The planted case: a global read by code compiled without PIC needs an absolute or PC-relative
# relocation to a symbol a shared object may interpose, which the linker refuses.
file(WRITE ${PCV_WORK_DIR}/no_pic.cpp "int counter = 0;\nint nextCount() { return ++counter; }\n")
run_step("compile without PIC" ${PCV_CXX_COMPILER} -fno-pic -O2 -c ${PCV_WORK_DIR}/no_pic.cpp
         -o ${PCV_WORK_DIR}/no_pic.o)
run_step("archive it" ${PCV_AR} rcs ${PCV_WORK_DIR}/libno_pic.a ${PCV_WORK_DIR}/no_pic.o)
link_whole_into_shared_object(no_pic ${PCV_WORK_DIR}/libno_pic.a)
if(link_result EQUAL 0)
  message(FATAL_ERROR "an archive built with -fno-pic linked into a shared object: this test "
                      "cannot tell PIC from non-PIC libraries here")
endif()
message(STATUS "an archive without PIC is refused: ok")
file(REMOVE_RECURSE ${PCV_WORK_DIR})
