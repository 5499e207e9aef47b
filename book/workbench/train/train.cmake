# Included by cmake/Workbench.cmake for the training workbench: the token
# slice it trains on. workbench_train_data (train_data.cpp, native) reads
# the corpus as chapter training's demo does and writes the first
# documents of the training and validation splits as token ids
# (${WASM_OBJ_DIR}/train-data.bin, which the native test reads too);
# tools/embed-bytes.js makes of it the script the page loads from
# file://, site/workbench/train-data.js (window.BOOK_TRAIN_DATA).
add_executable(workbench_train_data ${dir}/train_data.cpp)
target_link_libraries(workbench_train_data PRIVATE llm)
set(train_data_bin ${WASM_OBJ_DIR}/train-data.bin)
set(train_data_js ${WORKBENCH_SITE_DIR}/train-data.js)
add_custom_command(
  OUTPUT ${train_data_bin}
  COMMAND workbench_train_data ${BOOK_CORPUS} ${train_data_bin}
  DEPENDS workbench_train_data ${STAMP_DIR}/corpus.stamp
  COMMENT "Tokenizing the training workbench's slice of the corpus"
  VERBATIM)
add_custom_command(
  OUTPUT ${STAMP_DIR}/workbench-train-data.stamp
  BYPRODUCTS ${train_data_js}
  COMMAND ${NODE} ${BOOK_SOURCE}/tools/embed-bytes.js ${train_data_bin}
          ${train_data_js} BOOK_TRAIN_DATA
  COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/workbench-train-data.stamp
  DEPENDS ${train_data_bin} ${BOOK_SOURCE}/tools/embed-bytes.js
  COMMENT "Embedding the training workbench's tokens"
  VERBATIM)
list(APPEND WORKBENCH_SITE_FILES ${train_data_js})
list(APPEND workbench_stamps ${STAMP_DIR}/workbench-train-data.stamp)

# The native test program computes with the C library's math functions
# that the WebAssembly module has: Emscripten's musl, whose sin, cos and
# tanh differ from glibc's in the last bit for some arguments (and glibc
# picks an FMA variant of exp, log and pow on a CPU that has FMA), and a
# training run carries such a bit from the initial draws (Box-Muller's
# log and cos) and RoPE's angles into every later step. So the program
# links musl's own sources of the functions the library calls, from
# Debian's Emscripten, ahead of glibc's: the module and the native build
# then run the same code on the same numbers, and their steps must agree
# bit for bit (tests/workbench/train.test.js).
set(WORKBENCH_MUSL_DIR /usr/share/emscripten/system/lib/libc/musl CACHE PATH
    "Emscripten's musl, whose math the training workbench's native test uses")
enable_language(C)
set(musl_math "")
foreach(f cos sin __cos __sin __rem_pio2 __rem_pio2_large exp exp_data log
          log_data pow pow_data tanh expm1 __math_oflow __math_uflow
          __math_xflow __math_invalid __math_divzero)
  list(APPEND musl_math ${WORKBENCH_MUSL_DIR}/src/math/${f}.c)
endforeach()
add_library(workbench_musl_math OBJECT ${musl_math})
target_include_directories(workbench_musl_math PRIVATE
  ${WORKBENCH_MUSL_DIR}/src/internal ${WORKBENCH_MUSL_DIR}/arch/generic)
target_compile_options(workbench_musl_math PRIVATE -O2 -ffp-contract=off -w
  -include ${BOOK_SOURCE}/tests/workbench/musl_math.h)
target_sources(workbench_train_native PRIVATE
               $<TARGET_OBJECTS:workbench_musl_math>)
