# Common compile settings for every mapsim target: warnings, warnings-as-errors, sanitizers.

set(MAPSIM_WARNINGS -Wall -Wextra -Wpedantic -Wnon-virtual-dtor -Woverloaded-virtual
    $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local>)
if(MAPSIM_WERROR)
  list(APPEND MAPSIM_WARNINGS -Werror)
endif()

if(MAPSIM_SANITIZE)
  set(MAPSIM_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined
                             -fno-omit-frame-pointer)
  add_compile_options(${MAPSIM_SANITIZER_FLAGS})
  add_link_options(${MAPSIM_SANITIZER_FLAGS})
endif()

option(MAPSIM_FUZZ "Build fuzz/ as libFuzzer targets (clang only; see scripts/fuzz.sh)" OFF)
if(MAPSIM_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)  # coverage for libFuzzer in every library
endif()

# mapsim_library(NAME folder SOURCES ... DEPENDS ...) defines mapsim_NAME and its alias mapsim::NAME.
function(mapsim_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPENDS" ${ARGN})
  add_library(mapsim_${name} STATIC ${ARG_SOURCES})
  add_library(mapsim::${name} ALIAS mapsim_${name})
  target_include_directories(mapsim_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_compile_options(mapsim_${name} PRIVATE ${MAPSIM_WARNINGS})
  target_link_libraries(mapsim_${name} PUBLIC ${ARG_DEPENDS})
endfunction()

function(mapsim_warnings target)
  target_compile_options(${target} PRIVATE ${MAPSIM_WARNINGS})
endfunction()
