// Compiles nothing of its own: the target exercise_catch_pch exists to
// precompile <catch2/catch.hpp> once for every exercise's tests.
