// Deterministic random numbers for the tests.
//
// std::mt19937_64 is specified bit-exactly by the standard, but the
// distributions (uniform_real_distribution, normal_distribution) are not, so
// libstdc++ and libc++ would produce different matrices. We therefore build
// uniform and normal deviates from the raw 64-bit engine output ourselves.
#ifndef BATCHEIG_TESTS_SUPPORT_RNG_HPP
#define BATCHEIG_TESTS_SUPPORT_RNG_HPP

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>

namespace bt {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : gen_(seed) {}

  /// Uniform in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(gen_() >> 11) * 0x1.0p-53; }
  /// Uniform in [-1, 1).
  double uniform_pm1() { return 2.0 * uniform01() - 1.0; }
  /// Uniform integer in [lo, hi].
  long long uniform_int(long long lo, long long hi) {
    const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
    return lo + static_cast<long long>(gen_() % span);
  }
  /// Standard normal deviate (Box-Muller; deterministic across platforms up
  /// to libm's log/cos/sin rounding, which only perturbs the last bits).
  long double normal() {
    double u1 = uniform01();
    while (u1 <= 0.0) u1 = uniform01();
    const double u2 = uniform01();
    return static_cast<long double>(std::sqrt(-2.0 * std::log(u1)) *
                                    std::cos(6.283185307179586476925 * u2));
  }
  /// +1 or -1.
  double sign() { return (gen_() >> 63) ? 1.0 : -1.0; }
  /// exp(i*theta) with theta uniform in [0, 2*pi).
  std::complex<long double> phase() {
    const long double t = 6.283185307179586476925L * static_cast<long double>(uniform01());
    return {std::cos(t), std::sin(t)};
  }

  std::mt19937_64 &engine() { return gen_; }

 private:
  std::mt19937_64 gen_;
};

/// Seeds are derived from a test-specific tag and parameters so that each
/// matrix is reproducible on its own (independent of which other tests ran).
inline std::uint64_t make_seed(std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0,
                               std::uint64_t d = 0) {
  // splitmix64-style mixing of the four words.
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  for (std::uint64_t w : {a, b, c, d}) {
    h ^= w + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 27;
  }
  return h;
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_RNG_HPP
