// The function the parameters-init chapter's exercise asks for. The
// exercise tests (tests.cpp) call it; starter.cpp defines it with two
// mistakes for the reader to find and fix.
#pragma once

#include "llm/random.hpp"

namespace exercise {

/// A standard normal draw by Box-Muller, as llm::Rng::normal: two
/// uniforms u1, u2 from `rng` (in that order), then
/// sqrt(-2 log(1 - u1)) cos(2 pi u2).
double normal(llm::Rng& rng);

}  // namespace exercise
