# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the stop token appended before stopping: it ends up in the text")
set(BUG_1_WRONG [=[
    context.push_back(next);
    if (next == stop) break;
]=])
set(BUG_1_RIGHT [=[
    if (next == stop) break;
    context.push_back(next);
]=])

set(BUG_2_NAME "a full cache rebuilt from the first tokens instead of the last ones")
set(BUG_2_WRONG [=[for (std::size_t i = 0; i < keep; ++i) {]=])
set(BUG_2_RIGHT [=[for (std::size_t i = context.size() - keep; i < context.size(); ++i) {]=])

set(BUG_3_NAME "the drawn token never read: every draw uses the prompt's logits")
set(BUG_3_WRONG [=[
    }
  }
  return context;]=])
set(BUG_3_RIGHT [=[
    } else {
      logits = llm::decode_step(params, config, *cache, next).to_vector();
    }
  }
  return context;]=])
