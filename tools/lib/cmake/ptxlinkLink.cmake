# ptxlink_add_link: link the PTX of an object library with ptxlink, and
# make a cubin or a fatbinary of it with one 'ptxlink --ptxas' command.
#
#   ptxlink_add_link(<name> OBJECTS <object library>
#                    [ARCH sm_XX|XX[-real|-virtual]...] [OUTPUT ptx|cubin|fatbin]
#                    [OPTIONS <ptxlink options>...]
#                    [PTXAS_OPTIONS <ptxas options>...]
#                    [OUTPUT_VARIABLE <var>])
#
# The object library's CUDA sources are compiled to PTX (CUDA_PTX_COMPILATION
# is set on it) with -rdc=true, so that calls and virtual functions across
# files stay extern for ptxlink to resolve.  <name> is a custom target, built
# by default, that makes <name>.ptx, and <name>.cubin or <name>.fatbin, in the
# current binary directory; its PTXLINK_OUTPUT property (and <var>) is the
# path of the final output, PTXLINK_PTX the linked PTX.
#
# ARCH defaults to CMAKE_CUDA_ARCHITECTURES, every entry, as CMake's CUDA
# support builds them: XX and XX-real make a cubin for sm_XX, XX-virtual
# PTX for compute_XX, and ptxlink adds PTX for the newest (for the driver
# to JIT on later GPUs).  OUTPUT defaults to cubin for one architecture,
# fatbin for several.  The cubins are ptxlink --ptxas's: whole-program
# ptxas, or ptxas -c and nvlink (with libcudadevrt) where the program needs
# it (dynamic parallelism), as docs/usage.md says.

# The -arch and -gencode arguments for ARCH's or CMAKE_CUDA_ARCHITECTURES'
# entries, in ncubins how many cubins they make, in oldest the oldest
# number (what the PTX is compiled for).
function(_ptxlink_archs out ncubins oldest arch)
  set(entries ${arch})
  if(NOT entries)
    set(entries ${CMAKE_CUDA_ARCHITECTURES})
  endif()
  if(NOT entries OR entries MATCHES "^(all|all-major|native|OFF)$")
    message(FATAL_ERROR "ptxlink_add_link: give ARCH sm_XX (CMAKE_CUDA_ARCHITECTURES "
      "names no architecture)")
  endif()
  # Every variable read here is set here first: a function sees its
  # caller's variables, and a caller's 'old' once made the oldest its.
  set(args "")
  set(n 0)
  set(old "")
  foreach(a IN LISTS entries)
    if(NOT a MATCHES "^(sm_)?([0-9]+[af]?)(-real|-virtual)?$")
      message(FATAL_ERROR "ptxlink_add_link: ARCH '${a}' is not sm_XX, XX, XX-real or XX-virtual")
    endif()
    set(sm "${CMAKE_MATCH_2}")
    set(kind "${CMAKE_MATCH_3}")
    string(REGEX REPLACE "[af]$" "" num "${sm}")
    if(NOT old OR num LESS old)
      set(old ${num})
    endif()
    if(kind STREQUAL "-virtual")
      list(APPEND args "-gencode" "arch=compute_${sm},code=compute_${sm}")
    else()
      list(APPEND args "-arch=sm_${sm}")
      math(EXPR n "${n} + 1")
    endif()
  endforeach()
  set(${out} "${args}" PARENT_SCOPE)
  set(${ncubins} ${n} PARENT_SCOPE)
  set(${oldest} ${old} PARENT_SCOPE)
endfunction()

# Where ptxlink finds ptxas, nvlink and fatbinary: beside the CUDA compiler,
# in the toolkit, or on PATH (or set PTXLINK_PTXAS).  ptxlink looks on PATH
# first: the directory goes at its front.
function(_ptxlink_cuda_bin var)
  if(NOT PTXLINK_PTXAS)
    set(hints "${CUDAToolkit_BIN_DIR}" "$ENV{CUDA_HOME}/bin" /usr/local/cuda/bin)
    if(CMAKE_CUDA_COMPILER)
      get_filename_component(dir "${CMAKE_CUDA_COMPILER}" DIRECTORY)
      list(PREPEND hints "${dir}")
    endif()
    find_program(PTXLINK_PTXAS ptxas HINTS ${hints})
  endif()
  if(NOT PTXLINK_PTXAS)
    message(FATAL_ERROR "ptxlink: ptxas not found (set PTXLINK_PTXAS)")
  endif()
  get_filename_component(dir "${PTXLINK_PTXAS}" DIRECTORY)
  set(${var} "${dir}" PARENT_SCOPE)
endfunction()

function(ptxlink_add_link name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "OBJECTS;OUTPUT;OUTPUT_VARIABLE"
    "ARCH;OPTIONS;PTXAS_OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ptxlink_add_link: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  set(objs "${arg_OBJECTS}")
  if(NOT TARGET "${objs}")
    message(FATAL_ERROR "ptxlink_add_link: OBJECTS '${objs}' is not a target")
  endif()
  get_target_property(type "${objs}" TYPE)
  if(NOT type STREQUAL "OBJECT_LIBRARY")
    message(FATAL_ERROR "ptxlink_add_link: OBJECTS '${objs}' is not an object library")
  endif()
  _ptxlink_archs(archs ncubins oldest "${arg_ARCH}")
  if(NOT arg_OUTPUT)
    set(arg_OUTPUT cubin)
    if(NOT ncubins EQUAL 1)
      set(arg_OUTPUT fatbin)
    endif()
  elseif(NOT arg_OUTPUT MATCHES "^(ptx|cubin|fatbin)$")
    message(FATAL_ERROR "ptxlink_add_link: OUTPUT is ptx, cubin or fatbin, not '${arg_OUTPUT}'")
  elseif(arg_OUTPUT STREQUAL "cubin" AND NOT ncubins EQUAL 1)
    message(FATAL_ERROR "ptxlink_add_link: OUTPUT cubin is for one architecture "
      "(${archs}): OUTPUT fatbin holds several")
  endif()
  # nvcc --ptx makes PTX for one architecture: the oldest, which ptxas
  # compiles for the others.
  get_target_property(objarchs "${objs}" CUDA_ARCHITECTURES)
  list(LENGTH objarchs nobjarchs)
  if(nobjarchs GREATER 1)
    set_target_properties("${objs}" PROPERTIES CUDA_ARCHITECTURES ${oldest})
  endif()
  set_target_properties("${objs}" PROPERTIES CUDA_PTX_COMPILATION ON)
  target_compile_options("${objs}" PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-rdc=true>)

  # The linked PTX (for the oldest architecture when there are several).
  set(base "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  add_custom_command(OUTPUT "${base}.ptx"
    COMMAND ptxlink::ptxlink-exe ${archs} ${arg_OPTIONS} -o "${base}.ptx"
      "$<TARGET_OBJECTS:${objs}>"
    DEPENDS "${objs}" "$<TARGET_OBJECTS:${objs}>"
    COMMAND_EXPAND_LISTS VERBATIM
    COMMENT "ptxlink: ${base}.ptx")
  set(out "${base}.ptx")
  if(NOT arg_OUTPUT STREQUAL "ptx")
    _ptxlink_cuda_bin(bin)
    set(out "${base}.${arg_OUTPUT}")
    set(xptxas "")
    foreach(opt IN LISTS arg_PTXAS_OPTIONS)
      list(APPEND xptxas -Xptxas "${opt}")
    endforeach()
    set(fat "")
    if(arg_OUTPUT STREQUAL "fatbin")
      set(fat --fatbin)
    endif()
    add_custom_command(OUTPUT "${out}"
      COMMAND "${CMAKE_COMMAND}" -E env --modify "PATH=path_list_prepend:${bin}"
        $<TARGET_FILE:ptxlink::ptxlink-exe> --ptxas ${fat} ${archs} ${arg_OPTIONS} ${xptxas}
        -o "${out}" "$<TARGET_OBJECTS:${objs}>"
      DEPENDS "${objs}" "$<TARGET_OBJECTS:${objs}>" ptxlink::ptxlink-exe
      COMMAND_EXPAND_LISTS VERBATIM
      COMMENT "ptxlink --ptxas: ${out}")
  endif()
  add_custom_target("${name}" ALL DEPENDS "${out}" "${base}.ptx")
  set_target_properties("${name}" PROPERTIES PTXLINK_OUTPUT "${out}"
    PTXLINK_PTX "${base}.ptx")
  if(arg_OUTPUT_VARIABLE)
    set(${arg_OUTPUT_VARIABLE} "${out}" PARENT_SCOPE)
  endif()
endfunction()

# ptxlink_device_link([TARGETS <target>...] [OPTIONS <ptxlink options>...]):
# ptxlink -dlink, in place of nvcc -dlink, makes the device-link object of
# targets with CUDA_SEPARABLE_COMPILATION (or CUDA_RESOLVE_DEVICE_SYMBOLS),
# on CMake's own command line with ptxlink for nvcc: ptxlink -dlink takes
# the nvcc options CMake puts there (docs/usage.md).
#
# Without TARGETS, for every such target of the calling directory and of
# the directories it adds after the call: CMake's device-link rules are
# variables of the CUDA language (CMAKE_CUDA_DEVICE_LINK_EXECUTABLE and
# _LIBRARY), read for each directory when the build is generated, so they
# are set here in the caller's scope, whenever its targets were added.
# With TARGETS, for those only: CMake has no rule of a target's own, so
# their RULE_LAUNCH_LINK (Makefile and Ninja generators) runs
# ptxlink-dlink-launcher, which hands the device link to ptxlink and the
# other link lines back unchanged; it replaces a launcher set before.
function(ptxlink_device_link)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "" "TARGETS;OPTIONS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ptxlink_device_link: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT CMAKE_CUDA_DEVICE_LINK_EXECUTABLE)
    message(FATAL_ERROR "ptxlink_device_link: CUDA is not enabled (project(... CUDA) first)")
  endif()
  get_target_property(imported ptxlink::ptxlink-exe IMPORTED)
  if(NOT imported)
    message(FATAL_ERROR "ptxlink_device_link: needs an installed ptxlink (find_package(ptxlink)), "
      "not one built in this project")
  endif()
  _ptxlink_cuda_bin(bin)
  get_target_property(exe ptxlink::ptxlink-exe LOCATION)
  list(JOIN arg_OPTIONS " " opts)
  set(env "\"${CMAKE_COMMAND}\" -E env --modify PATH=path_list_prepend:${bin}")
  if(arg_TARGETS)
    set(launcher "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/ptxlink-dlink-launcher")
    set_target_properties(${arg_TARGETS} PROPERTIES
      RULE_LAUNCH_LINK "${env} \"${launcher}\" \"${exe}\" \"${opts}\"")
    return()
  endif()
  foreach(kind EXECUTABLE LIBRARY)
    string(REPLACE "<CMAKE_CUDA_COMPILER>" "${env} \"${exe}\" ${opts}" rule
      "${CMAKE_CUDA_DEVICE_LINK_${kind}}")
    set(CMAKE_CUDA_DEVICE_LINK_${kind} "${rule}" PARENT_SCOPE)
  endforeach()
endfunction()
