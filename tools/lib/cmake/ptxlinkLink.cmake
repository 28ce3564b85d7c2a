# ptxlink_add_link: link the PTX of an object library with ptxlink, and
# make a cubin (ptxas) or a fatbinary of it.
#
#   ptxlink_add_link(<name> OBJECTS <object library>
#                    [ARCH sm_XX] [OUTPUT ptx|cubin|fatbin]
#                    [OPTIONS <ptxlink options>...]
#                    [PTXAS_OPTIONS <ptxas options>...]
#                    [OUTPUT_VARIABLE <var>])
#
# The object library's CUDA sources are compiled to PTX (CUDA_PTX_COMPILATION
# is set on it) with -rdc=true, so that calls and virtual functions across
# files stay extern for ptxlink to resolve.  <name> is a custom target, built
# by default, that makes <name>.ptx, and <name>.cubin or <name>.fatbin, in the
# current binary directory; its PTXLINK_OUTPUT property (and <var>) is the
# path of the final output, PTXLINK_PTX the linked PTX.  ARCH defaults to the
# first of CMAKE_CUDA_ARCHITECTURES; OUTPUT to cubin.  The cubin is ptxas's
# whole-program compile of the linked PTX; a fatbinary holds that cubin and
# the PTX (for the driver to JIT on newer GPUs).

function(_ptxlink_arch out arch)
  if(NOT arch)
    list(GET CMAKE_CUDA_ARCHITECTURES 0 arch)
    if(NOT arch OR arch MATCHES "^(all|all-major|native|OFF)$")
      message(FATAL_ERROR "ptxlink_add_link: give ARCH sm_XX (CMAKE_CUDA_ARCHITECTURES "
        "names no one architecture)")
    endif()
    string(REGEX REPLACE "-(real|virtual)$" "" arch "${arch}")
    set(arch "sm_${arch}")
  endif()
  if(NOT arch MATCHES "^sm_[0-9]+[af]?$")
    message(FATAL_ERROR "ptxlink_add_link: ARCH '${arch}' is not sm_XX")
  endif()
  set(${out} "${arch}" PARENT_SCOPE)
endfunction()

# A CUDA tool: beside the CUDA compiler, in the toolkit, or on PATH.
function(_ptxlink_tool var name)
  if(${var})
    return()
  endif()
  set(hints "${CUDAToolkit_BIN_DIR}" "$ENV{CUDA_HOME}/bin" /usr/local/cuda/bin)
  if(CMAKE_CUDA_COMPILER)
    get_filename_component(dir "${CMAKE_CUDA_COMPILER}" DIRECTORY)
    list(PREPEND hints "${dir}")
  endif()
  find_program(${var} ${name} HINTS ${hints})
  if(NOT ${var})
    message(FATAL_ERROR "ptxlink_add_link: ${name} not found (set ${var})")
  endif()
endfunction()

# The one ptxas step: linked PTX to a cubin.  (ptxlink --ptxas will make it
# one ptxlink command; only this function changes then.)
function(_ptxlink_cubin ptx cubin arch options)
  _ptxlink_tool(PTXLINK_PTXAS ptxas)
  add_custom_command(OUTPUT "${cubin}"
    COMMAND "${PTXLINK_PTXAS}" -arch=${arch} ${options} "${ptx}" -o "${cubin}"
    DEPENDS "${ptx}" VERBATIM
    COMMENT "ptxas: ${cubin}")
endfunction()

function(_ptxlink_fatbin ptx cubin fatbin arch)
  _ptxlink_tool(PTXLINK_FATBINARY fatbinary)
  string(REGEX REPLACE "^sm_" "" sm "${arch}")
  add_custom_command(OUTPUT "${fatbin}"
    COMMAND "${PTXLINK_FATBINARY}" -64 "--create=${fatbin}"
      "--image3=kind=elf,sm=${sm},file=${cubin}" "--image3=kind=ptx,sm=${sm},file=${ptx}"
    DEPENDS "${cubin}" "${ptx}" VERBATIM
    COMMENT "fatbinary: ${fatbin}")
endfunction()

function(ptxlink_add_link name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "OBJECTS;ARCH;OUTPUT;OUTPUT_VARIABLE"
    "OPTIONS;PTXAS_OPTIONS")
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
  if(NOT arg_OUTPUT)
    set(arg_OUTPUT cubin)
  elseif(NOT arg_OUTPUT MATCHES "^(ptx|cubin|fatbin)$")
    message(FATAL_ERROR "ptxlink_add_link: OUTPUT is ptx, cubin or fatbin, not '${arg_OUTPUT}'")
  endif()
  _ptxlink_arch(arch "${arg_ARCH}")
  set_target_properties("${objs}" PROPERTIES CUDA_PTX_COMPILATION ON)
  target_compile_options("${objs}" PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-rdc=true>)

  set(base "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  add_custom_command(OUTPUT "${base}.ptx"
    COMMAND ptxlink::ptxlink-exe -arch=${arch} ${arg_OPTIONS} -o "${base}.ptx"
      "$<TARGET_OBJECTS:${objs}>"
    DEPENDS "${objs}" "$<TARGET_OBJECTS:${objs}>"
    COMMAND_EXPAND_LISTS VERBATIM
    COMMENT "ptxlink: ${base}.ptx")
  set(out "${base}.ptx")
  if(NOT arg_OUTPUT STREQUAL "ptx")
    _ptxlink_cubin("${base}.ptx" "${base}.cubin" ${arch} "${arg_PTXAS_OPTIONS}")
    set(out "${base}.cubin")
  endif()
  if(arg_OUTPUT STREQUAL "fatbin")
    _ptxlink_fatbin("${base}.ptx" "${base}.cubin" "${base}.fatbin" ${arch})
    set(out "${base}.fatbin")
  endif()
  add_custom_target("${name}" ALL DEPENDS "${out}")
  set_target_properties("${name}" PROPERTIES PTXLINK_OUTPUT "${out}"
    PTXLINK_PTX "${base}.ptx")
  if(arg_OUTPUT_VARIABLE)
    set(${arg_OUTPUT_VARIABLE} "${out}" PARENT_SCOPE)
  endif()
endfunction()
