# FindOTF2: Debian's libotf2-trace-dev ships neither a CMake package nor a pkg-config file, only
# otf2-config; headers come from libopen-trace-format2-dev. Defines OTF2::OTF2.
find_program(OTF2_CONFIG otf2-config)
find_path(OTF2_INCLUDE_DIR otf2/otf2.h)
find_library(OTF2_LIBRARY otf2)
if(OTF2_CONFIG)
  execute_process(COMMAND ${OTF2_CONFIG} --interface-version OUTPUT_VARIABLE OTF2_INTERFACE
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  execute_process(COMMAND ${OTF2_CONFIG} --version OUTPUT_VARIABLE _otf2_version
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  string(REGEX MATCH "[0-9]+\\.[0-9]+(\\.[0-9]+)?" OTF2_VERSION "${_otf2_version}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(OTF2 REQUIRED_VARS OTF2_LIBRARY OTF2_INCLUDE_DIR
                                  VERSION_VAR OTF2_VERSION)
if(OTF2_FOUND AND NOT TARGET OTF2::OTF2)
  add_library(OTF2::OTF2 UNKNOWN IMPORTED)
  set_target_properties(OTF2::OTF2 PROPERTIES IMPORTED_LOCATION ${OTF2_LIBRARY}
                                              INTERFACE_INCLUDE_DIRECTORIES ${OTF2_INCLUDE_DIR})
endif()
mark_as_advanced(OTF2_INCLUDE_DIR OTF2_LIBRARY OTF2_CONFIG)
