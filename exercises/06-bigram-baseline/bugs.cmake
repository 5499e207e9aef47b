# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "alpha added once to the row total instead of once per possible next id")
set(BUG_1_WRONG [=[return (c + alpha) / (n + alpha);]=])
set(BUG_1_RIGHT [=[const double v = static_cast<double>(counts.vocab_size());
  return (c + alpha) / (n + alpha * v);]=])

set(BUG_2_NAME "the documents joined: the pair across each boundary is predicted too")
set(BUG_2_WRONG [=[
  std::vector<llm::TokenId> ids;  // every document, one after the other
  for (const auto& d : docs) ids.insert(ids.end(), d.begin(), d.end());
  llm::SplitLoss loss;
  loss.bytes = bytes;
  for (std::size_t k = 1; k < ids.size(); ++k) {
    loss.nll -= std::log2(probability(counts, alpha, ids[k - 1], ids[k]));
    ++loss.predictions;
  }
  return loss;]=])
set(BUG_2_RIGHT [=[
  llm::SplitLoss loss;
  loss.bytes = bytes;
  for (const auto& ids : docs) {
    for (std::size_t k = 1; k < ids.size(); ++k) {
      loss.nll -= std::log2(probability(counts, alpha, ids[k - 1], ids[k]));
      ++loss.predictions;
    }
  }
  return loss;]=])

set(BUG_3_NAME "the loss in bits (log2) where the book counts nats (ln)")
set(BUG_3_WRONG [=[std::log2(probability(]=])
set(BUG_3_RIGHT [=[std::log(probability(]=])
