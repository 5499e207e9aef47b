# Included by cmake/Workbench.cmake: the tokenizer workbench reads the
# trained checkpoint's tokenizer from the script the generating workbench
# publishes (workbench/generate-checkpoint.js, book/workbench/generate/
# generate.cmake), so it embeds nothing of its own.
if(NOT "generate" IN_LIST workbench_names)
  message(FATAL_ERROR "Workbench bpe: it reads the checkpoint the generate "
                      "workbench publishes, and book/workbench/generate is missing")
endif()
