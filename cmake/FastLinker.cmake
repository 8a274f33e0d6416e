# Linker for every program and library of the build. The project links ~80 programs (tests, tools,
# benchmarks, fuzz targets) against the same static layers; mold (Debian's `mold`) links them in a
# fraction of GNU ld's time (docs/developing.md has the measurement). "auto" takes mold when the
# compiler accepts it and falls back to the compiler's default linker otherwise.
set(COULOMB_LINKER "auto" CACHE STRING "Linker: auto (mold when installed), mold, lld or default")
set_property(CACHE COULOMB_LINKER PROPERTY STRINGS auto mold lld default)

include(CheckLinkerFlag)
set(_linker "")
if(COULOMB_LINKER STREQUAL "auto")
  check_linker_flag(CXX "-fuse-ld=mold" COULOMB_HAVE_MOLD)
  if(COULOMB_HAVE_MOLD)
    set(_linker mold)
  endif()
elseif(COULOMB_LINKER MATCHES "^(mold|lld)$")
  check_linker_flag(CXX "-fuse-ld=${COULOMB_LINKER}" COULOMB_HAVE_${COULOMB_LINKER})
  if(NOT COULOMB_HAVE_${COULOMB_LINKER})
    message(FATAL_ERROR "COULOMB_LINKER=${COULOMB_LINKER}, but ${CMAKE_CXX_COMPILER} cannot link "
                        "with it: install it (scripts/install-deps.sh) or choose 'default'")
  endif()
  set(_linker ${COULOMB_LINKER})
elseif(NOT COULOMB_LINKER STREQUAL "default")
  message(FATAL_ERROR "COULOMB_LINKER must be auto, mold, lld or default, not '${COULOMB_LINKER}'")
endif()
if(_linker)
  add_link_options(-fuse-ld=${_linker})
  message(STATUS "Linker: ${_linker}")
else()
  message(STATUS "Linker: the compiler's default")
endif()
