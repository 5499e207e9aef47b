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
