# Included by cmake/Workbench.cmake for the generating workbench: the
# checkpoint chapter 34's demo trains (out/34-end-to-end/artifacts/
# tinyllm.ckpt) as a script the page loads from file://,
# site/workbench/generate-checkpoint.js (window.BOOK_MODEL_CHECKPOINT).
set(checkpoint_js ${WORKBENCH_SITE_DIR}/generate-checkpoint.js)
add_custom_command(
  OUTPUT ${STAMP_DIR}/workbench-generate-checkpoint.stamp
  BYPRODUCTS ${checkpoint_js}
  COMMAND ${NODE} ${BOOK_SOURCE}/tools/embed-bytes.js
          ${OUT_DIR}/34-end-to-end/artifacts/tinyllm.ckpt ${checkpoint_js}
          BOOK_MODEL_CHECKPOINT
  COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/workbench-generate-checkpoint.stamp
  DEPENDS ${OUT_DIR}/34-end-to-end.digest ${BOOK_SOURCE}/tools/embed-bytes.js
  COMMENT "Embedding the trained checkpoint for the generating workbench"
  VERBATIM)
list(APPEND WORKBENCH_SITE_FILES ${checkpoint_js})
list(APPEND workbench_stamps ${STAMP_DIR}/workbench-generate-checkpoint.stamp)
