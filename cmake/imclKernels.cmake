# imcl_add_kernels(): imcl runs at build time and a target compiles what it generates
# (docs/cmake.md). Shipped in imcl's CMake package (find_package(imcl)); imcl's own
# build uses it for the miniAMR proxy.
#
#   imcl_add_kernels(<target>
#       SOURCES <file.imcl>...      the kernel sources
#       BACKENDS <backend>...       c, opencl, cuda
#       [KERNELS <name>...]         the kernels of the one source to generate (-k); by
#                                   default each source's kernel is named as its file
#       [PARAMS <file.json>]        -t: the configuration (with RECIPE, its tunables)
#       [RECIPE <file.lua>]         -r: a Lua recipe sets the configuration
#       [SIZE <X[xY[xZ]]>]          --size: the problem size known at compile time
#       [PREFIX <str>]              --prefix for every generated host symbol; with several
#                                   BACKENDS, backend B's symbols take <str><B>_
#       [OPTIONS <flag>...]         more imcl flags (--shared-limit 16384, ...)
#       [DEPENDS <file>...]         more files whose change regenerates the kernels
#       [OUTPUT_DIR <dir>]          default: ${CMAKE_CURRENT_BINARY_DIR}/imcl/<target>
#       [OUTPUT_VARIABLE <var>])    set to the generated sources (K_ref.c and
#                                   imcl_runtime_c.c, K_host.c and imcl_runtime_opencl.c,
#                                   K.cu and imcl_runtime_cuda.cu)
#
# Backend B's files go to <OUTPUT_DIR>/<B>/; <OUTPUT_DIR> is on the target's include
# path (#include "opencl/heat.h"), and with one backend its folder too ("heat.h").
# What each backend adds to the target: c compiles K_ref.c (with OpenMP when found,
# and libm) and the host runtime of the folder, imcl_runtime_c.c; opencl compiles
# K_host.c, which includes K.cl as a string (K_source.h), and the host runtime of the folder,
# imcl_runtime_opencl.c, and links OpenCL::OpenCL; cuda compiles K.cu and the host runtime
# of the folder, imcl_runtime_cuda.cu, when the CUDA language is enabled; otherwise
# OUTPUT_VARIABLE must be given and the .cu files are generated for the caller to build.
# The files are generated again when a source, a file it includes (imcl --depfile),
# PARAMS, RECIPE, DEPENDS or the imcl executable changes.
include_guard(GLOBAL)

function(imcl_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PARAMS;RECIPE;SIZE;PREFIX;OUTPUT_DIR;OUTPUT_VARIABLE"
                        "SOURCES;BACKENDS;KERNELS;OPTIONS;DEPENDS")
  set(where "imcl_add_kernels(${target})")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${where}: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${where}: there is no target '${target}' (add it first)")
  endif()
  if(NOT TARGET imcl::imcl)
    message(FATAL_ERROR "${where}: there is no imcl::imcl target (find_package(imcl) first)")
  endif()
  if(NOT arg_SOURCES)
    message(FATAL_ERROR "${where}: SOURCES names no .imcl file")
  endif()
  if(NOT arg_BACKENDS)
    message(FATAL_ERROR "${where}: BACKENDS names no backend (c, opencl or cuda)")
  endif()
  list(LENGTH arg_SOURCES nsources)
  if(arg_KERNELS AND nsources GREATER 1)
    message(FATAL_ERROR "${where}: KERNELS names kernels of one source; call imcl_add_kernels "
                        "once for each source")
  endif()

  # imcl built in this project (an alias of its target) or installed (imported)
  get_target_property(built imcl::imcl ALIASED_TARGET)
  if(built)
    set(imcl_dep ${built})
  else()
    set(imcl_dep $<TARGET_FILE:imcl::imcl>)
  endif()
  set(flags)
  set(deps ${arg_DEPENDS})
  if(arg_PARAMS)
    get_filename_component(params ${arg_PARAMS} ABSOLUTE)
    list(APPEND flags -t ${params})
    list(APPEND deps ${params})
  endif()
  if(arg_RECIPE)
    get_filename_component(recipe ${arg_RECIPE} ABSOLUTE)
    list(APPEND flags -r ${recipe})
    list(APPEND deps ${recipe})
  endif()
  if(arg_SIZE)
    list(APPEND flags --size ${arg_SIZE})
  endif()
  set(out ${CMAKE_CURRENT_BINARY_DIR}/imcl/${target})
  if(arg_OUTPUT_DIR)
    get_filename_component(out ${arg_OUTPUT_DIR} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  # Make generators take a depfile from CMake 3.20 on; before, the sources' own
  # dependencies only.
  set(use_depfile OFF)
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.20 OR CMAKE_GENERATOR MATCHES "Ninja")
    set(use_depfile ON)
  endif()

  list(LENGTH arg_BACKENDS nbackends)
  set(generated)
  foreach(backend ${arg_BACKENDS})
    if(backend STREQUAL "c")
      set(suffixes _ref.c)
    elseif(backend STREQUAL "opencl")
      set(suffixes _host.c .cl _source.h)
    elseif(backend STREQUAL "cuda")
      set(suffixes .cu)
      if(NOT CMAKE_CUDA_COMPILER AND NOT arg_OUTPUT_VARIABLE)
        message(FATAL_ERROR "${where}: the cuda backend needs enable_language(CUDA), or "
                            "OUTPUT_VARIABLE to build the generated .cu files yourself")
      endif()
    else()
      message(FATAL_ERROR "${where}: unknown backend '${backend}' (expected c, opencl or cuda)")
    endif()
    set(prefix "${arg_PREFIX}")
    if(nbackends GREATER 1)
      string(APPEND prefix "${backend}_")
    endif()
    set(prefix_flag)
    if(prefix)
      set(prefix_flag --prefix ${prefix})
    endif()
    set(dir ${out}/${backend})
    # The folder's host runtime: every kernel's imcl writes the same files, and the target
    # compiles the runtime once (imcl_runtime_c.c, imcl_runtime_opencl.c,
    # imcl_runtime_cuda.cu). The command of the first kernel generated into the folder (in
    # any call) names them, after its own files (the depfile names those alone, the first
    # of them first): a file has one rule.
    set(runtime)
    set(runtime_src ${dir}/imcl_runtime_${backend}.c)
    if(backend STREQUAL "cuda")
      set(runtime_src ${dir}/imcl_runtime_cuda.cu)
      if(NOT CMAKE_CUDA_COMPILER)
        set_source_files_properties(${runtime_src} PROPERTIES HEADER_FILE_ONLY ON)
      endif()
    endif()
    target_sources(${target} PRIVATE ${runtime_src})
    list(APPEND generated ${runtime_src})
    get_property(claimed GLOBAL PROPERTY IMCL_RUNTIME_FOLDERS)
    if(NOT dir IN_LIST claimed)
      set_property(GLOBAL APPEND PROPERTY IMCL_RUNTIME_FOLDERS ${dir})
      set(runtime ${runtime_src} ${dir}/imcl_runtime_${backend}.h ${dir}/imcl_runtime_rows.h)
    endif()
    foreach(src ${arg_SOURCES})
      get_filename_component(src ${src} ABSOLUTE)
      set(kernels ${arg_KERNELS})
      if(NOT kernels)
        get_filename_component(kernels ${src} NAME_WLE)
      endif()
      foreach(k ${kernels})
        set(outputs ${dir}/${k}.h)
        foreach(s ${suffixes})
          list(APPEND outputs ${dir}/${k}${s})
        endforeach()
        list(GET outputs 1 compiled)
        list(SORT outputs) # as imcl's depfile names them (Ninja wants its first one first)
        if(runtime)
          list(APPEND outputs ${runtime})
          set(runtime)
        endif()
        set(depfile_flag)
        set(depfile_arg)
        if(use_depfile)
          set(depfile_flag --depfile ${dir}/${k}.d)
          set(depfile_arg DEPFILE ${dir}/${k}.d)
        endif()
        add_custom_command(OUTPUT ${outputs}
          COMMAND $<TARGET_FILE:imcl::imcl> -b ${backend} -k ${k} ${prefix_flag} ${flags} ${arg_OPTIONS}
                  -o ${dir} ${depfile_flag} ${src}
          DEPENDS ${src} ${deps} ${imcl_dep}
          ${depfile_arg}
          COMMENT "imcl -b ${backend} ${k} (${target})"
          VERBATIM)
        if(backend STREQUAL "cuda" AND NOT CMAKE_CUDA_COMPILER)
          set_source_files_properties(${compiled} PROPERTIES HEADER_FILE_ONLY ON)
        endif()
        target_sources(${target} PRIVATE ${outputs})
        list(APPEND generated ${compiled})
      endforeach()
    endforeach()

    if(backend STREQUAL "c")
      find_package(OpenMP COMPONENTS C QUIET)
      if(OpenMP_C_FOUND)
        target_link_libraries(${target} PRIVATE OpenMP::OpenMP_C)
      endif()
      target_link_libraries(${target} PRIVATE m)
    elseif(backend STREQUAL "opencl")
      find_package(OpenCL REQUIRED)
      target_link_libraries(${target} PRIVATE OpenCL::OpenCL)
    endif()
    if(nbackends EQUAL 1)
      target_include_directories(${target} PRIVATE ${dir})
    endif()
  endforeach()
  target_include_directories(${target} PRIVATE ${out})
  if(arg_OUTPUT_VARIABLE)
    set(${arg_OUTPUT_VARIABLE} ${generated} PARENT_SCOPE)
  endif()
endfunction()
