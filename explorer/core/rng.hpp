// A small deterministic PRNG (SplitMix64): the same seed gives the same numbers on every platform
// and standard library, which std::uniform_int_distribution does not promise.
#pragma once

#include <cstdint>

namespace interleave {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, n) for n >= 1 (rejection sampling: no modulo bias).
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = ~std::uint64_t{0} - (~std::uint64_t{0} % n);
    std::uint64_t x;
    do
      x = next();
    while (x >= limit);
    return x % n;
  }
  /// The seed of the i-th sub-stream of `seed` (e.g. the i-th execution of a search).
  static std::uint64_t derive(std::uint64_t seed, std::uint64_t i) {
    Rng r(seed ^ (0xd1b54a32d192ed03ull * (i + 1)));
    return r.next();
  }

 private:
  std::uint64_t state_;
};

}  // namespace interleave
