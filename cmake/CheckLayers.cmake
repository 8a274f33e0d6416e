# Fails the build when a file of one layer of coulomb/ includes a header of a layer it does not
# depend on (docs/ARCHITECTURE.md, "Layers"), or, outside formulations/, a header inside one
# formulation's folder. Separate library targets alone would not catch an
# upward include of a header-only piece, since every layer shares one include root.
#
# Run as a script: cmake -DSOURCE_DIR=<repo> -DLAYERS_FILE=<file> -DSTAMP=<file> -P CheckLayers.cmake
# LAYERS_FILE has one line per layer: "<layer>: <dependency> <dependency> …" (direct ones only).
cmake_minimum_required(VERSION 3.25)

file(STRINGS "${LAYERS_FILE}" _lines)
set(_layers "")
foreach(_line IN LISTS _lines)
  string(REGEX MATCH "^([a-z_]+):(.*)$" _ "${_line}")
  set(_layer "${CMAKE_MATCH_1}")
  string(STRIP "${CMAKE_MATCH_2}" _deps)
  separate_arguments(_deps)
  list(APPEND _layers "${_layer}")
  set(_direct_${_layer} ${_deps})
endforeach()

# What a layer may include: itself and everything below it, transitively.
foreach(_layer IN LISTS _layers)
  set(_allowed ${_layer})
  set(_frontier ${_direct_${_layer}})
  while(_frontier)
    list(POP_FRONT _frontier _dep)
    if(NOT _dep IN_LIST _allowed)
      list(APPEND _allowed ${_dep})
      list(APPEND _frontier ${_direct_${_dep}})
    endif()
  endwhile()
  set(_allowed_${_layer} ${_allowed})
endforeach()

set(_violations "")
foreach(_layer IN LISTS _layers)
  file(GLOB_RECURSE _files "${SOURCE_DIR}/coulomb/${_layer}/*.h" "${SOURCE_DIR}/coulomb/${_layer}/*.cc")
  foreach(_file IN LISTS _files)
    file(STRINGS "${_file}" _includes REGEX "^#include \"coulomb/[a-z_]+/")
    foreach(_include IN LISTS _includes)
      string(REGEX MATCH "coulomb/([a-z_]+)/" _ "${_include}")
      set(_target "${CMAKE_MATCH_1}")
      if(NOT _target IN_LIST _allowed_${_layer})
        file(RELATIVE_PATH _rel "${SOURCE_DIR}" "${_file}")
        string(APPEND _violations "\n  ${_rel}: ${_include} (layer ${_layer} may include: ${_allowed_${_layer}})")
      endif()
      # A formulation is a plug-in (formulations/formulation.h): the layers above reach it
      # through its descriptor, never through the headers of its own folder.
      if(NOT _layer STREQUAL "formulations" AND _include MATCHES "coulomb/formulations/[a-z_]+/")
        file(RELATIVE_PATH _rel "${SOURCE_DIR}" "${_file}")
        string(APPEND _violations "\n  ${_rel}: ${_include} (outside formulations/, include formulations/formulation.h and use the descriptor)")
      endif()
    endforeach()
  endforeach()
endforeach()

if(_violations)
  message(FATAL_ERROR "Upward or undeclared includes between layers:${_violations}")
endif()
file(TOUCH "${STAMP}")
