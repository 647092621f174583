# FindScotch: Debian's libscotch-dev ships static libraries and headers, no CMake package.
# Defines Scotch::Scotch (libscotch + libscotcherr; the latter reports errors to stderr, and
# mapsim checks every return code).
find_path(SCOTCH_INCLUDE_DIR scotch.h PATH_SUFFIXES scotch)
find_library(SCOTCH_LIBRARY scotch)
find_library(SCOTCH_ERR_LIBRARY scotcherr)
find_package(Threads)
find_package(ZLIB)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Scotch REQUIRED_VARS SCOTCH_LIBRARY SCOTCH_ERR_LIBRARY
                                  SCOTCH_INCLUDE_DIR)
if(Scotch_FOUND AND NOT TARGET Scotch::Scotch)
  add_library(Scotch::Scotch INTERFACE IMPORTED)
  set(_scotch_libs ${SCOTCH_LIBRARY} ${SCOTCH_ERR_LIBRARY} Threads::Threads m)
  if(ZLIB_FOUND)
    list(APPEND _scotch_libs ZLIB::ZLIB)
  endif()
  set_target_properties(Scotch::Scotch PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${SCOTCH_INCLUDE_DIR}
                                                  INTERFACE_LINK_LIBRARIES "${_scotch_libs}")
endif()
mark_as_advanced(SCOTCH_INCLUDE_DIR SCOTCH_LIBRARY SCOTCH_ERR_LIBRARY)
