# Shared compile settings and helpers for every target of the project.

add_library(arena_options INTERFACE)
target_compile_options(arena_options INTERFACE -Wall -Wextra -Wpedantic -Wno-unused-parameter)
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  # GCC 12 reports std::string concatenation at -O3 as overlapping memcpy (GCC bug 105651).
  target_compile_options(arena_options INTERFACE -Wno-restrict)
endif()
if(ARENA_WERROR)
  target_compile_options(arena_options INTERFACE -Werror)
endif()
if(ARENA_SANITIZE)
  target_compile_options(arena_options INTERFACE -fsanitize=${ARENA_SANITIZE} -fno-omit-frame-pointer
                                                 -fno-sanitize-recover=undefined)
  target_link_options(arena_options INTERFACE -fsanitize=${ARENA_SANITIZE})
endif()
if(ARENA_FUZZ)
  # libFuzzer builds (the `fuzz` preset, clang 14): coverage instrumentation for everything the
  # targets link, sanitizers everywhere; undefined behaviour stops the run, as in the asan
  # preset (otherwise libFuzzer only prints it and goes on).
  target_compile_options(arena_options INTERFACE -fsanitize=fuzzer-no-link,address,undefined
                                                 -fno-sanitize-recover=undefined
                                                 -fno-omit-frame-pointer)
  target_link_options(arena_options INTERFACE -fsanitize=address,undefined)
endif()
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  # The engines are tuned for the machine they run on; perft speed targets assume it.
  target_compile_options(arena_options INTERFACE -O3 -march=native)
endif()
target_include_directories(arena_options INTERFACE ${CMAKE_SOURCE_DIR} ${CMAKE_BINARY_DIR})

# The sanitizer build compiles test code at -O0 outside engine/ and bots/ (whose tests play
# thousands of games and keep -O2): the services' tests wait on gRPC and PostgreSQL, their code
# runs once per call, and -O0 halves their compile (league_e2e_test.cc: 56 s -> 27 s under
# ASan+UBSan). The servers they start keep the build's -O1 (docs/architecture.md).
function(arena_test_code_optimization target)
  if(ARENA_SANITIZE AND NOT ARENA_FUZZ)
    file(RELATIVE_PATH dir ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR})
    if(NOT dir MATCHES "^(engine|bots)(/|$)")
      target_compile_options(${target} PRIVATE -O0)
    endif()
  endif()
endfunction()

# arena_test(NAME SOURCES a.cc b.cc LIBS x y LABELS unit [TIMEOUT s] [ARGS ...])
# One test executable, registered with ctest under the given labels.
function(arena_test name)
  cmake_parse_arguments(T "" "TIMEOUT" "SOURCES;LIBS;LABELS;ARGS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE arena_options ${T_LIBS} GTest::gtest GTest::gmock GTest::gtest_main)
  add_test(NAME ${name} COMMAND ${name} ${T_ARGS})
  arena_test_code_optimization(${name})
  if(NOT T_LABELS)
    set(T_LABELS unit)
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 600)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT})
endfunction()

# arena_embed_migrations(TARGET FUNCTION DIR): a library `TARGET` exposing
# arena::migrations::FUNCTION() with the numbered SQL files of DIR embedded.
function(arena_embed_migrations target function dir)
  file(GLOB sql_files CONFIGURE_DEPENDS ${dir}/*.sql)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/${target}.cc)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DDIR=${dir} -DOUTPUT=${out} -DFUNCTION=${function}
            -P ${CMAKE_SOURCE_DIR}/cmake/EmbedSql.cmake
    DEPENDS ${sql_files} ${CMAKE_SOURCE_DIR}/cmake/EmbedSql.cmake
    COMMENT "embedding migrations of ${dir}")
  add_library(${target} ${out})
  target_link_libraries(${target} PUBLIC arena_services_common)
endfunction()

# arena_fuzz_target(NAME SOURCES a.cc LIBS x CORPUS dir [DICT file] [MUTATIONS n])
# A fuzz target kept beside the code it fuzzes. In every build, fuzz_smoke_NAME runs the entry
# point (LLVMFuzzerTestOneInput) on every file of CORPUS plus MUTATIONS seeded mutations (tokens
# from DICT, a libFuzzer dictionary) as the ctest fuzz_NAME_smoke (label unit), so the corpus
# runs under ASan with GCC too. With ARENA_FUZZ=ON, fuzz_NAME is the libFuzzer binary:
#   build/fuzz/<dir>/fuzz_NAME CORPUS -dict=DICT -runs=1000000
function(arena_fuzz_target name)
  cmake_parse_arguments(F "" "CORPUS;DICT;MUTATIONS" "SOURCES;LIBS" ${ARGN})
  if(NOT F_MUTATIONS)
    set(F_MUTATIONS 3000)
  endif()
  add_executable(fuzz_smoke_${name} ${CMAKE_SOURCE_DIR}/tools/fuzz/smoke_driver.cc ${F_SOURCES})
  target_link_libraries(fuzz_smoke_${name} PRIVATE arena_options ${F_LIBS})
  add_test(NAME fuzz_${name}_smoke COMMAND fuzz_smoke_${name} ${F_CORPUS} ${F_MUTATIONS} 1 ${F_DICT})
  set_tests_properties(fuzz_${name}_smoke PROPERTIES LABELS unit TIMEOUT 300)
  if(ARENA_FUZZ)
    add_executable(fuzz_${name} ${F_SOURCES})
    target_link_libraries(fuzz_${name} PRIVATE arena_options ${F_LIBS})
    target_compile_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
    target_link_options(fuzz_${name} PRIVATE -fsanitize=fuzzer)
  endif()
endfunction()
