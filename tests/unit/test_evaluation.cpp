// Tests for chapter evaluation: the windows that score every target of
// every document once (against an enumeration of the targets written
// here), the sliding windows against a list cut by hand, the loss of whole documents against a plain sum over those
// windows one at a time, the three derived numbers by hand, and the
// rejected inputs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <numbers>
#include <string>
#include <vector>

#include "llm/bigram.hpp"
#include "llm/decoder_model.hpp"
#include "llm/error.hpp"
#include "llm/evaluation.hpp"
#include "llm/params.hpp"
#include "llm/threads.hpp"
#include "llm/training.hpp"
#include "message_of.hpp"

namespace {

using llm::TokenId;
using Docs = std::vector<std::vector<TokenId>>;

// Documents of 1, 2, 5 and 9 ids; id k of document j is 10 j + k, so an
// id names its document and its position.
Docs numbered_docs() {
  Docs docs;
  std::size_t j = 0;
  for (std::size_t n : {1, 2, 5, 9}) {
    std::vector<TokenId> d;
    for (std::size_t k = 0; k < n; ++k) d.push_back(TokenId(10 * j + k));
    docs.push_back(d);
    ++j;
  }
  return docs;
}

}  // namespace

TEST_CASE("document_windows scores every target once, inside its "
          "document", "[evaluation]") {
  // T = 4: document 0 (1 id) has no target; document 1 (2 ids) gives a
  // short window of 1 target, a batch of its own and the first one out;
  // document 2 (5 ids) one full window of 4; document 3 (9 ids) two full
  // windows. The three full windows are grouped 2 + 1.
  const std::vector<llm::Batch> w = llm::document_windows(numbered_docs(), 4, 2);
  std::map<std::size_t, int> scored;  // target id -> times scored
  std::size_t full = 0, short_rows = 0;
  for (const llm::Batch& b : w) {
    REQUIRE(b.inputs.ids.size() == b.inputs.batch * b.inputs.length);
    REQUIRE(b.targets.ids.size() == b.inputs.ids.size());
    (b.inputs.length == 4 ? full : short_rows) += b.inputs.batch;
    for (std::size_t i = 0; i < b.targets.ids.size(); ++i) {
      // The input before each target is the id before it in the same
      // document: one less, and the same tens digit.
      CHECK(b.inputs.ids[i] + 1 == b.targets.ids[i]);
      CHECK(b.inputs.ids[i] / 10 == b.targets.ids[i] / 10);
      ++scored[b.targets.ids[i]];
    }
  }
  CHECK(full == 3);
  CHECK(short_rows == 1);
  REQUIRE(w.size() == 3);  // [short], [full, full], [full] in that order
  CHECK(w[0].inputs.length == 1);
  CHECK(w[1].inputs.batch == 2);
  CHECK(w[2].inputs.batch == 1);
  // Every id but each document's first is a target exactly once.
  std::map<std::size_t, int> expected;
  for (const auto& d : numbered_docs()) {
    for (std::size_t k = 1; k < d.size(); ++k) expected[d[k]] = 1;
  }
  CHECK(scored == expected);
}

TEST_CASE("document_windows rejects a zero context or batch",
          "[evaluation]") {
  CHECK(message_of<llm::ConfigError>([] {
          llm::document_windows(numbered_docs(), 0, 2);
        }) == "document_windows: T = 0, B = 2, expected T, B > 0");
  CHECK(message_of<llm::ConfigError>([] {
          llm::document_windows(numbered_docs(), 4, 0);
        }) == "document_windows: T = 4, B = 0, expected T, B > 0");
}

namespace {

// V = 40 (the numbered ids stay below it), d = 8, one block, context 4.
const llm::ModelConfig tiny{.vocab = 40, .d_model = 8, .layers = 1,
                            .heads = 2, .ffn_width = 8, .context = 4};

}  // namespace

TEST_CASE("evaluate_documents sums the loss of every target",
          "[evaluation]") {
  llm::Parameters p(30);
  llm::add_model_parameters(p, tiny);
  const Docs docs = numbered_docs();
  const llm::SplitLoss l = llm::evaluate_documents(p, tiny, docs, 100, 4);
  // The plain reference: each window on its own, a batch of one row,
  // its mean loss times its targets, windows cut here by hand.
  double nll = 0.0;
  std::uint64_t n = 0;
  for (const auto& d : docs) {
    for (std::size_t s = 0; s + 1 < d.size(); s += 4) {
      const std::size_t len = std::min<std::size_t>(4, d.size() - 1 - s);
      llm::Batch b{{1, len, {}}, {1, len, {}}};
      for (std::size_t k = 0; k < len; ++k) {
        b.inputs.ids.push_back(d[s + k]);
        b.targets.ids.push_back(d[s + k + 1]);
      }
      nll += llm::evaluate_loss(p, tiny, {b}) * double(len);
      n += len;
    }
  }
  CHECK(l.predictions == 1 + 4 + 8);  // n - 1 for n = 1, 2, 5, 9
  CHECK(l.predictions == n);
  CHECK(l.bytes == 100);
  CHECK(l.nll == Approx(nll).epsilon(1e-12));
  // Near log V = 3.69 for an untrained model.
  CHECK(l.mean_nll() == Approx(std::log(40.0)).margin(0.2));
  CHECK(l.bits_per_byte() ==
        Approx(l.nll / (100 * std::numbers::ln2)).epsilon(1e-15));
  CHECK(l.perplexity() == Approx(std::exp(l.nll / 13)).epsilon(1e-15));
}

TEST_CASE("evaluate_documents rejects no bytes and no targets",
          "[evaluation]") {
  llm::Parameters p(30);
  llm::add_model_parameters(p, tiny);
  CHECK(message_of<llm::ConfigError>([&] {
          llm::evaluate_documents(p, tiny, numbered_docs(), 0, 4);
        }) == "evaluate_documents: the text has 0 bytes, expected > 0");
  CHECK(message_of<llm::ConfigError>([&] {
          llm::evaluate_documents(p, tiny, {{1}, {}}, 10, 4);
        }) == "evaluate_documents: no document holds 2 ids, expected at "
              "least one target");
}

TEST_CASE("sliding_windows score every target once, with T - S + 1 ids "
          "of context after a document's first window",
          "[evaluation]") {
  // T = 4, S = 2, B = 2, by hand. Document 1 (ids 10, 11): one short
  // window, 10 -> 11. Document 2 (20..24): one full window that reaches
  // its end. Document 3 (30..38, 8 targets): windows from ids 30, 32 and
  // 34; the second scores 35 and 36 (33 and 34 were scored), the third
  // 37 and 38. The full windows are grouped two to a batch.
  const std::vector<llm::ScoredBatch> w =
      llm::sliding_windows(numbered_docs(), 4, 2, 2);
  REQUIRE(w.size() == 3);
  CHECK(w[0].windows.inputs.ids == std::vector<std::size_t>{10});
  CHECK(w[0].windows.targets.ids == std::vector<std::size_t>{11});
  CHECK(w[0].first == std::vector<std::size_t>{0});
  CHECK(w[1].windows.inputs.ids ==
        std::vector<std::size_t>{20, 21, 22, 23, 30, 31, 32, 33});
  CHECK(w[1].first == std::vector<std::size_t>{0, 0});
  CHECK(w[2].windows.inputs.ids ==
        std::vector<std::size_t>{32, 33, 34, 35, 34, 35, 36, 37});
  CHECK(w[2].windows.targets.ids ==
        std::vector<std::size_t>{33, 34, 35, 36, 35, 36, 37, 38});
  CHECK(w[2].first == std::vector<std::size_t>{2, 2});
  // Every target once; a target at position t sees t + 1 ids, and at
  // least T - S + 1 = 3 in a window that does not start its document.
  std::map<std::size_t, int> scored;
  for (const llm::ScoredBatch& b : w) {
    const std::size_t len = b.windows.inputs.length;
    for (std::size_t r = 0; r < b.windows.inputs.batch; ++r) {
      const bool starts = b.windows.inputs.ids[r * len] % 10 == 0;
      for (std::size_t t = b.first[r]; t < len; ++t) {
        ++scored[b.windows.targets.ids[r * len + t]];
        if (!starts) CHECK(t + 1 >= 3);
      }
    }
  }
  std::map<std::size_t, int> expected;
  for (const auto& d : numbered_docs()) {
    for (std::size_t k = 1; k < d.size(); ++k) expected[d[k]] = 1;
  }
  CHECK(scored == expected);
}

TEST_CASE("sliding_windows of stride T are document_windows' windows",
          "[evaluation]") {
  for (const std::size_t t : {1u, 2u, 3u, 4u, 7u}) {
    const std::vector<llm::Batch> chopped =
        llm::document_windows(numbered_docs(), t, 2);
    const std::vector<llm::ScoredBatch> sliding =
        llm::sliding_windows(numbered_docs(), t, t, 2);
    REQUIRE(sliding.size() == chopped.size());
    for (std::size_t i = 0; i < chopped.size(); ++i) {
      CHECK(sliding[i].windows.inputs.ids == chopped[i].inputs.ids);
      CHECK(sliding[i].windows.targets.ids == chopped[i].targets.ids);
      CHECK(sliding[i].windows.inputs.length == chopped[i].inputs.length);
      CHECK(sliding[i].first ==
            std::vector<std::size_t>(chopped[i].inputs.batch, 0));
    }
  }
}

TEST_CASE("sliding_windows rejects a stride of 0 or beyond T, and B 0",
          "[evaluation]") {
  const char* want = ", expected 1 <= S <= T and B > 0";
  CHECK(message_of<llm::ConfigError>([] {
          llm::sliding_windows(numbered_docs(), 4, 0, 2);
        }) == std::string("sliding_windows: S = 0, T = 4, B = 2") + want);
  CHECK(message_of<llm::ConfigError>([] {
          llm::sliding_windows(numbered_docs(), 4, 5, 2);
        }) == std::string("sliding_windows: S = 5, T = 4, B = 2") + want);
  CHECK(message_of<llm::ConfigError>([] {
          llm::sliding_windows(numbered_docs(), 4, 2, 0);
        }) == std::string("sliding_windows: S = 2, T = 4, B = 0") + want);
}

TEST_CASE("evaluate_documents with stride 2 sums each target once, on "
          "any number of threads", "[evaluation]") {
  llm::Parameters p(30);
  llm::add_model_parameters(p, tiny);
  const Docs docs = numbered_docs();
  // The windows cut by hand as in the test above: {document, first id,
  // length, targets already scored}. A causal model's loss on a
  // window's first f targets is that of the window cut to f ids, so a
  // window's new targets cost its summed loss minus that prefix's,
  // each summed loss from evaluate_loss on a batch of one row.
  struct Cut { std::size_t doc, start, len, first; };
  const std::vector<Cut> cuts = {
      {1, 0, 1, 0}, {2, 0, 4, 0}, {3, 0, 4, 0}, {3, 2, 4, 2}, {3, 4, 4, 2}};
  const auto summed = [&](const Cut& c, std::size_t len) {
    if (len == 0) return 0.0;
    llm::Batch b{{1, len, {}}, {1, len, {}}};
    for (std::size_t k = 0; k < len; ++k) {
      b.inputs.ids.push_back(docs[c.doc][c.start + k]);
      b.targets.ids.push_back(docs[c.doc][c.start + k + 1]);
    }
    return llm::evaluate_loss(p, tiny, {b}) * double(len);
  };
  double nll = 0.0;
  for (const Cut& c : cuts) nll += summed(c, c.len) - summed(c, c.first);
  struct ThreadsReset {
    ~ThreadsReset() { llm::set_threads(1); }
  } reset;
  llm::set_threads(1);
  const llm::SplitLoss one = llm::evaluate_documents(p, tiny, docs, 100, 2);
  llm::set_threads(2);
  const llm::SplitLoss two = llm::evaluate_documents(p, tiny, docs, 100, 2);
  CHECK(one.predictions == 13);
  CHECK(one.nll == Approx(nll).epsilon(1e-12));
  CHECK(two.nll == one.nll);  // the same bits
  CHECK(two.predictions == one.predictions);
  // More context than the chopped windows for 35..38 changes their loss.
  CHECK(one.nll != llm::evaluate_documents(p, tiny, docs, 100, 4).nll);
}
