# The corpus: the King James Bible of Debian's bible-kjv-text, extracted
# once per build tree into ${BOOK_CORPUS} (one document per chapter of the
# text) and checked against book/corpus.sha256. Demos find it through
# book::corpus_path(), which reads the environment variable BOOK_CORPUS
# that every command running a demo sets (run-demo below in Book.cmake,
# tools/snapshot-test.sh).
#
# The file is rewritten only when its bytes change (a BYPRODUCT, so Ninja
# restats it): a demo that depends on it reruns only when the text did.
set(BOOK_CORPUS ${BOOK_BUILD}/corpus/kjv.txt)
set(BOOK_CORPUS_SHA256 ${BOOK_SOURCE}/book/corpus.sha256)
set(corpus_inputs ${BOOK_SOURCE}/tools/extract-corpus.sh ${BOOK_CORPUS_SHA256})
# The package's data: a new package version reruns the extraction. When
# the package is missing the script says which one to install.
foreach(data /usr/lib/bible.data /usr/lib/bible.data.conc)
  if(EXISTS ${data})
    list(APPEND corpus_inputs ${data})
  endif()
endforeach()
add_custom_command(
  OUTPUT ${STAMP_DIR}/corpus.stamp
  BYPRODUCTS ${BOOK_CORPUS}
  COMMAND ${BOOK_SOURCE}/tools/extract-corpus.sh ${BOOK_CORPUS}
          ${BOOK_CORPUS_SHA256}
  COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/corpus.stamp
  DEPENDS ${corpus_inputs}
  WORKING_DIRECTORY ${BOOK_SOURCE}
  COMMENT "Extracting the corpus from bible-kjv-text"
  VERBATIM)
add_custom_target(corpus DEPENDS ${STAMP_DIR}/corpus.stamp)
