# Compiler cache (ccache, Debian's `ccache`) for every build of the project, when it is installed.
#
# Why these settings (docs/developing.md has the measurements):
# * base_dir: compile commands carry absolute paths (sources, -I, the precompiled header's
#   -include). ccache rewrites those under base_dir into paths relative to the compile's working
#   folder before hashing, so a clone in another folder of the machine hits the cache that the
#   working tree filled. base_dir is the deepest folder holding both the sources and the build
#   tree, never '/' (system headers must keep their absolute paths).
# * hash_dir=false: the sanitizer build has line tables (-gline-tables-only), and ccache would
#   otherwise hash the working folder of every debug compile. The cost is that an object taken
#   from the cache names the folder of the build that compiled it in its debug information.
# * sloppiness=pch_defines,time_macros: required by ccache to cache compiles that use GCC's or
#   clang's precompiled headers (ccache's manual, "Precompiled headers"); include_file_mtime and
#   include_file_ctime keep direct-mode hits for headers a fresh clone has just written.
#
# -DCOULOMB_CCACHE=OFF builds without it; CCACHE_DISABLE=1 in the environment bypasses it too.
option(COULOMB_CCACHE "Compile through ccache when it is installed" ON)

if(COULOMB_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(COULOMB_CCACHE_PROGRAM ccache)
  if(COULOMB_CCACHE_PROGRAM)
    # The common ancestor of the source and build folders.
    cmake_path(SET _base NORMALIZE "${PROJECT_SOURCE_DIR}")
    cmake_path(SET _bin NORMALIZE "${PROJECT_BINARY_DIR}")
    string(REGEX REPLACE "(.)/$" "\\1" _base "${_base}")
    string(REGEX REPLACE "(.)/$" "\\1" _bin "${_bin}")
    while(NOT _base STREQUAL "/")
      string(FIND "${_bin}/" "${_base}/" _at)
      if(_at EQUAL 0)
        break()
      endif()
      cmake_path(GET _base PARENT_PATH _base)
    endwhile()
    if(_base STREQUAL "/")
      message(STATUS "ccache: sources and build share no folder but '/'; no cross-folder hits")
      set(_base "")
    endif()
    set(_launcher
        ${CMAKE_COMMAND} -E env "CCACHE_BASEDIR=${_base}" CCACHE_NOHASHDIR=1
        "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
        ${COULOMB_CCACHE_PROGRAM})
    set(CMAKE_CXX_COMPILER_LAUNCHER ${_launcher})
    set(CMAKE_C_COMPILER_LAUNCHER ${_launcher})
    message(STATUS "ccache: ${COULOMB_CCACHE_PROGRAM} (base_dir ${_base})")
  endif()
endif()
