# The book's pipeline as Ninja edges with exact dependencies:
#
#   chapters/S.md --parse--> model/S.json (+ S.code.json, S.index.json)
#   all S.code.json --tangle--> snippets/** (+ listings/S.listings.json)
#   snippets --g++--> libllm + one demo per chapter
#   demo --run-demo--> out/S/{stdout.txt, values.json, tables/, figures/}
#   model + outputs --check--> check/S.stamp
#   model + outputs --render--> site/S.html
#   all site/S.html --search-index--> site/search-index.js
#   snippets/llm --doxygen--> site/api/
#   everything --publish--> build/book (an atomic switch)
#
# Files written only when their bytes change are BYPRODUCTS, so Ninja
# (restat) stops there: a prose edit does not recompile or rerun anything.
#
# Each stage is its own target (book_model, tangle, llm and the demos,
# run_chNN, book). A command's OUTPUT is a stamp used by its own stage
# only; later stages depend on the files it writes (its BYPRODUCTS) and on
# the stage target. This keeps CMake from attaching early commands to late
# targets, which would make a dependency cycle.

set(BOOK_SOURCE ${PROJECT_SOURCE_DIR})
set(BOOK_BUILD ${PROJECT_BINARY_DIR})
set(MODEL_DIR ${BOOK_BUILD}/model)
set(OUT_DIR ${BOOK_BUILD}/out)
set(SITE_DIR ${BOOK_BUILD}/site)
set(STAMP_DIR ${BOOK_BUILD}/stamps)
set(LISTINGS_DIR ${BOOK_BUILD}/listings)
set(SNIPPETS_DIR ${BOOK_SOURCE}/snippets)
file(MAKE_DIRECTORY ${MODEL_DIR} ${OUT_DIR} ${SITE_DIR} ${STAMP_DIR}
     ${LISTINGS_DIR})

set(LITBOOK $<TARGET_FILE:litbook>)

# NN-slug.md is chapter NN; NNr-slug.md the review page after chapter NN.
# book/book.yaml lists them (cmake/BookChapters.cmake reads it).
include(${BOOK_SOURCE}/cmake/BookChapters.cmake)
book_read_chapters(${BOOK_SOURCE}/book/book.yaml BOOK_STEMS)
foreach(stem IN LISTS BOOK_STEMS)
  if(NOT EXISTS ${BOOK_SOURCE}/chapters/${stem}.md)
    message(FATAL_ERROR "book/book.yaml lists ${stem}, but there is no "
            "chapters/${stem}.md")
  endif()
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${BOOK_SOURCE}/book/book.yaml)

# ---- parse --------------------------------------------------------------
set(CODE_JSONS "")
set(PARSE_STAMPS "")
set(INDEX_JSONS "")
foreach(stem IN LISTS BOOK_STEMS)
  add_custom_command(
    OUTPUT ${STAMP_DIR}/${stem}.parse.stamp
    BYPRODUCTS ${MODEL_DIR}/${stem}.json ${MODEL_DIR}/${stem}.code.json
               ${MODEL_DIR}/${stem}.index.json ${MODEL_DIR}/${stem}.code.key
    COMMAND ${LITBOOK} parse chapters/${stem}.md --model-dir ${MODEL_DIR}
    COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/${stem}.parse.stamp
    DEPENDS ${BOOK_SOURCE}/chapters/${stem}.md litbook
    WORKING_DIRECTORY ${BOOK_SOURCE}
    COMMENT "Parsing ${stem}"
    VERBATIM)
  list(APPEND PARSE_STAMPS ${STAMP_DIR}/${stem}.parse.stamp)
  list(APPEND CODE_JSONS ${MODEL_DIR}/${stem}.code.json)
  list(APPEND INDEX_JSONS ${MODEL_DIR}/${stem}.index.json)
endforeach()

add_custom_command(
  OUTPUT ${STAMP_DIR}/book-index.stamp
  BYPRODUCTS ${MODEL_DIR}/book-index.json
  COMMAND ${LITBOOK} book-index --model-dir ${MODEL_DIR}
          --out ${MODEL_DIR}/book-index.json
  COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/book-index.stamp
  DEPENDS ${INDEX_JSONS} ${BOOK_SOURCE}/book/book.yaml litbook
  WORKING_DIRECTORY ${BOOK_SOURCE}
  COMMENT "Indexing the book"
  VERBATIM)
add_custom_target(book_model
  DEPENDS ${PARSE_STAMPS} ${STAMP_DIR}/book-index.stamp)

# ---- tangle -------------------------------------------------------------
# The manifest lists the files the chapters produce; it is generated and
# committed with snippets/. A change to it reconfigures CMake.
set(LITBOOK_LIBRARY_SOURCES "")
set(LITBOOK_DEMOS "")
if(EXISTS ${SNIPPETS_DIR}/snippets.cmake)
  include(${SNIPPETS_DIR}/snippets.cmake)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               ${SNIPPETS_DIR}/snippets.cmake)
endif()
set(SNIPPET_HEADERS "")
foreach(h IN LISTS LITBOOK_HEADERS)
  list(APPEND SNIPPET_HEADERS ${SNIPPETS_DIR}/${h})
endforeach()
set(LLM_SOURCES "")
foreach(src IN LISTS LITBOOK_LIBRARY_SOURCES)
  list(APPEND LLM_SOURCES ${SNIPPETS_DIR}/${src})
endforeach()
set(SNIPPET_FILES ${SNIPPET_HEADERS} ${SNIPPETS_DIR}/snippets.cmake
    ${LLM_SOURCES})
foreach(demo IN LISTS LITBOOK_DEMOS)
  list(APPEND SNIPPET_FILES ${SNIPPETS_DIR}/demos/${demo}.cpp)
endforeach()
set(LISTING_JSONS "")
foreach(stem IN LISTS BOOK_STEMS)
  list(APPEND LISTING_JSONS ${LISTINGS_DIR}/${stem}.listings.json)
endforeach()

add_custom_command(
  OUTPUT ${STAMP_DIR}/tangle.stamp
  BYPRODUCTS ${SNIPPET_FILES} ${LISTING_JSONS}
  COMMAND ${LITBOOK} tangle --model-dir ${MODEL_DIR}
          --listings ${LISTINGS_DIR} --stamp ${STAMP_DIR}/tangle.stamp
  DEPENDS ${CODE_JSONS} ${BOOK_SOURCE}/book/book.yaml litbook
  WORKING_DIRECTORY ${BOOK_SOURCE}
  COMMENT "Tangling the chapters into snippets/"
  VERBATIM)
add_custom_target(tangle DEPENDS ${STAMP_DIR}/tangle.stamp)
add_dependencies(tangle book_model)

# ---- the library and the demos -----------------------------------------
# The tangled code compiles through `litbook compile`, which adds after each
# diagnostic about snippets/FILE:N the chapter line it came from. (Not
# #line markers: they would clutter the committed snippets a reader opens,
# and the compiler would then name only the chapter, not the file it built.)
set(SNIPPET_LAUNCHER ${LITBOOK} compile
    --lines ${LISTINGS_DIR}/snippet-lines.json -- ${CMAKE_CXX_COMPILER_LAUNCHER})
if(EXISTS ${SNIPPETS_DIR}/snippets.cmake)
  book_snippet_build(SNIPPETS ${SNIPPETS_DIR} LAUNCHER ${SNIPPET_LAUNCHER})
else()
  add_library(llm INTERFACE)
  target_include_directories(llm INTERFACE ${SNIPPETS_DIR})
endif()
add_dependencies(llm tangle)

include(${BOOK_SOURCE}/cmake/Corpus.cmake)

# Every demo runs with BOOK_CORPUS set and reruns when the corpus changes.
# A chapter's front matter `demo:` map (tangled into snippets.cmake as
# LITBOOK_DEMO_ARGS_STEM and LITBOOK_DEMO_READS_STEM) sets its time limit
# and quick second run, and names the earlier demos whose published files
# it reads (through BOOK_OUTPUTS): those run first, and a change in their
# outputs reruns this one. A demo reruns when the code that runs demos
# (the litbook_run library) changes, not on every change to the tool.
set(BOOK_RUN_TARGETS "")
set(BOOK_DEMO_DIGESTS "")  # the landing page quotes demos' values
foreach(stem IN LISTS LITBOOK_DEMOS)
  book_demo_target(${stem} exe)
  set(demo_args --timeout 60)
  if(DEFINED LITBOOK_DEMO_ARGS_${stem})
    set(demo_args ${LITBOOK_DEMO_ARGS_${stem}})
  endif()
  set(demo_reads "")
  foreach(read IN LISTS LITBOOK_DEMO_READS_${stem})
    list(APPEND demo_reads ${OUT_DIR}/${read}.digest)
  endforeach()
  add_custom_command(
    OUTPUT ${STAMP_DIR}/${stem}.run.stamp
    BYPRODUCTS ${OUT_DIR}/${stem}.digest
    COMMAND ${CMAKE_COMMAND} -E env BOOK_CORPUS=${BOOK_CORPUS}
            BOOK_OUTPUTS=${OUT_DIR}
            ${LITBOOK} run-demo --exe $<TARGET_FILE:${exe}>
            --out ${OUT_DIR}/${stem} --chapter chapters/${stem}.md
            --model-dir ${MODEL_DIR} ${demo_args}
    COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/${stem}.run.stamp
    DEPENDS ${exe} litbook_run ${BOOK_CORPUS} ${demo_reads}
    WORKING_DIRECTORY ${BOOK_SOURCE}
    COMMENT "Running the demo of ${stem}"
    VERBATIM)
  add_custom_target(run_${exe} DEPENDS ${STAMP_DIR}/${stem}.run.stamp)
  list(APPEND BOOK_DEMO_DIGESTS ${OUT_DIR}/${stem}.digest)
  add_dependencies(run_${exe} corpus litbook)
  list(APPEND BOOK_RUN_TARGETS run_${exe})
endforeach()

# Programs for readers (snippets/programs/NAME.cpp, e.g. tinyllm) are
# built by book_snippet_build like a demo, but never run by the build.

# ---- check and render ---------------------------------------------------
set(BOOK_CHECK_STAMPS "")
set(BOOK_PAGES "")
foreach(stem IN LISTS BOOK_STEMS)
  set(outputs "")
  if(stem IN_LIST LITBOOK_DEMOS)
    set(outputs ${OUT_DIR}/${stem}.digest)
  endif()
  add_custom_command(
    OUTPUT ${STAMP_DIR}/${stem}.check.stamp
    COMMAND ${LITBOOK} check chapters/${stem}.md --model-dir ${MODEL_DIR}
            --outputs ${OUT_DIR} --book-index ${MODEL_DIR}/book-index.json
            --stamp ${STAMP_DIR}/${stem}.check.stamp
    DEPENDS ${MODEL_DIR}/${stem}.json ${MODEL_DIR}/book-index.json
            ${outputs} litbook
    WORKING_DIRECTORY ${BOOK_SOURCE}
    COMMENT "Checking ${stem}"
    VERBATIM)
  add_custom_command(
    OUTPUT ${SITE_DIR}/${stem}.html
    COMMAND ${LITBOOK} render chapters/${stem}.md --model-dir ${MODEL_DIR}
            --outputs ${OUT_DIR} --book-index ${MODEL_DIR}/book-index.json
            --listings ${LISTINGS_DIR} --site ${SITE_DIR}
            --cache ${BOOK_BUILD}/cache --api ${MODEL_DIR}/api-symbols.json
    DEPENDS ${MODEL_DIR}/${stem}.json ${MODEL_DIR}/book-index.json
            ${LISTINGS_DIR}/${stem}.listings.json ${outputs}
            ${MODEL_DIR}/api-symbols.json
            ${BOOK_SOURCE}/book/template.html
            ${BOOK_SOURCE}/tools/katex-render.js litbook
    WORKING_DIRECTORY ${BOOK_SOURCE}
    COMMENT "Rendering ${stem}"
    VERBATIM)
  list(APPEND BOOK_CHECK_STAMPS ${STAMP_DIR}/${stem}.check.stamp)
  list(APPEND BOOK_PAGES ${SITE_DIR}/${stem}.html)
endforeach()

add_custom_command(
  OUTPUT ${SITE_DIR}/index.html ${SITE_DIR}/notation.html
  COMMAND ${LITBOOK} render --landing --book-index ${MODEL_DIR}/book-index.json
          --site ${SITE_DIR} --outputs ${OUT_DIR}
  DEPENDS ${MODEL_DIR}/book-index.json ${BOOK_SOURCE}/book/template.html
          ${BOOK_SOURCE}/book/preface.html ${BOOK_SOURCE}/book/notation.html
          ${BOOK_DEMO_DIGESTS} litbook
  WORKING_DIRECTORY ${BOOK_SOURCE}
  COMMENT "Rendering the landing page"
  VERBATIM)

add_custom_command(
  OUTPUT ${STAMP_DIR}/assets.stamp
  COMMAND ${LITBOOK} render --assets --site ${SITE_DIR}
  COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/assets.stamp
  DEPENDS ${BOOK_SOURCE}/book/style.css ${BOOK_SOURCE}/book/book.js
          ${BOOK_SOURCE}/book/progress.js litbook
  WORKING_DIRECTORY ${BOOK_SOURCE}
  COMMENT "Copying the book's assets"
  VERBATIM)

# ---- search index -------------------------------------------------------
# The plain text of every rendered chapter, by section, as a script the
# pages load when the reader first searches (a script loads from file://,
# fetch() of JSON does not). Runs after a page changed and parses only the
# pages that changed (cache/search/); written only when its bytes change.
add_custom_command(
  OUTPUT ${SITE_DIR}/search-index.js
  COMMAND ${LITBOOK} search-index --site ${SITE_DIR}
          --book-index ${MODEL_DIR}/book-index.json
          --out ${SITE_DIR}/search-index.js --cache ${BOOK_BUILD}/cache
  DEPENDS ${BOOK_PAGES} ${MODEL_DIR}/book-index.json litbook
  WORKING_DIRECTORY ${BOOK_SOURCE}
  COMMENT "Indexing the book for search"
  VERBATIM)

# ---- API reference ------------------------------------------------------
configure_file(${BOOK_SOURCE}/book/Doxyfile.in ${BOOK_BUILD}/Doxyfile @ONLY)
add_custom_command(
  OUTPUT ${STAMP_DIR}/api.stamp
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${BOOK_BUILD}/doxygen
  COMMAND ${DOXYGEN} ${BOOK_BUILD}/Doxyfile
  COMMAND ${LITBOOK} api-symbols --xml ${BOOK_BUILD}/doxygen/xml
          --out ${MODEL_DIR}/api-symbols.json
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${SITE_DIR}/api
  COMMAND ${CMAKE_COMMAND} -E rename ${BOOK_BUILD}/doxygen/html ${SITE_DIR}/api
  # Each symbol links back to the listing that teaches it.
  COMMAND ${LITBOOK} api-links --api-dir ${SITE_DIR}/api
          --api ${MODEL_DIR}/api-symbols.json
          --lines ${LISTINGS_DIR}/snippet-lines.json --model-dir ${MODEL_DIR}
          --book-index ${MODEL_DIR}/book-index.json
  COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/api.stamp
  # Listings link the symbols they define: render reads this list, which
  # changes only when a symbol moves (written only when its bytes change).
  BYPRODUCTS ${MODEL_DIR}/api-symbols.json
  DEPENDS ${SNIPPET_HEADERS} ${LLM_SOURCES} ${BOOK_BUILD}/Doxyfile litbook
          ${BOOK_SOURCE}/book/api.css ${BOOK_SOURCE}/book/api-header.html
          ${BOOK_SOURCE}/book/api-footer.html ${MODEL_DIR}/book-index.json
  WORKING_DIRECTORY ${BOOK_SOURCE}
  COMMENT "Generating the API reference"
  VERBATIM)

# ---- the workbenches (book/workbench/NAME/) ---------------------------
include(${BOOK_SOURCE}/cmake/Workbench.cmake)

# ---- publish ------------------------------------------------------------
add_custom_command(
  OUTPUT ${STAMP_DIR}/publish.stamp
  COMMAND ${LITBOOK} publish --site ${SITE_DIR} --book ${BOOK_BUILD}/book
  COMMAND ${CMAKE_COMMAND} -E touch ${STAMP_DIR}/publish.stamp
  DEPENDS ${BOOK_CHECK_STAMPS} ${BOOK_PAGES} ${SITE_DIR}/index.html
          ${SITE_DIR}/search-index.js ${STAMP_DIR}/assets.stamp
          ${STAMP_DIR}/api.stamp ${WORKBENCH_SITE_FILES} litbook
  WORKING_DIRECTORY ${BOOK_SOURCE}
  COMMENT "Publishing build/book"
  VERBATIM)
add_custom_target(book ALL DEPENDS ${STAMP_DIR}/publish.stamp)
add_dependencies(book book_model tangle ${BOOK_RUN_TARGETS})
if(TARGET workbench)
  add_dependencies(book workbench)
endif()
