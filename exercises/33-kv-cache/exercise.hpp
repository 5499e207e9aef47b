// The function the kv-cache chapter's exercise asks for. The exercise
// tests (tests.cpp) call it; starter.cpp defines it with three mistakes
// for the reader to find and fix.
#pragma once

#include <vector>

#include "llm/rope.hpp"

namespace exercise {

/// One attention head's cache: the key (after RoPE) and the value of
/// every position read so far, d_h numbers each, position by position.
struct HeadCache {
  std::vector<std::vector<double>> keys;
  std::vector<std::vector<double>> values;
};

/// One head reads the token at position t = cache.keys.size(): its
/// query q and key k (d_h numbers each) are rotated for position t by
/// `rope`, the key and the value v are appended to the cache, and the
/// result is the head's output for the token, sum over j = 0 .. t of
/// softmax_j(q . k_j / sqrt(d_h)) v_j.
std::vector<double> attend_new_token(const llm::Rope& rope,
                                     HeadCache& cache,
                                     std::vector<double> q,
                                     std::vector<double> k,
                                     const std::vector<double>& v);

}  // namespace exercise
