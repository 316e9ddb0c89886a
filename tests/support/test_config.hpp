// Test sizes, controlled by the environment so that sanitizer and CI builds
// can trade coverage for time without recompiling.
//
// BATCHEIG_TEST_LEVEL:
//   quick    a representative subset (smoke runs)
//   default  what ctest runs: every n = 1..64 for random dense matrices plus
//            100 and 150, a subset of sizes for the structured families
//   full     every n = 1..64 for every family, plus 100 and 150
// BATCHEIG_TEST_SIZES=n1,n2,...: where a test passes its sizes through
//   only_listed_sizes(), only those of them (for the sanitizer runs, which
//   are too slow for every size).
#ifndef BATCHEIG_TESTS_SUPPORT_TEST_CONFIG_HPP
#define BATCHEIG_TESTS_SUPPORT_TEST_CONFIG_HPP

#include <cstdlib>
#include <cstring>
#include <vector>

namespace bt {

enum class TestLevel { Quick, Default, Full };

inline TestLevel test_level() {
  const char *env = std::getenv("BATCHEIG_TEST_LEVEL");
  if (env == nullptr) return TestLevel::Default;
  if (std::strcmp(env, "quick") == 0) return TestLevel::Quick;
  if (std::strcmp(env, "full") == 0) return TestLevel::Full;
  return TestLevel::Default;
}

inline std::vector<int> range_sizes(int lo, int hi) {
  std::vector<int> v;
  for (int n = lo; n <= hi; ++n) v.push_back(n);
  return v;
}

/// Sizes for random dense matrices (the family every variant must handle).
inline std::vector<int> random_dense_sizes() {
  if (test_level() == TestLevel::Quick) return {1, 2, 3, 4, 5, 7, 8, 11, 16, 17, 31, 32, 33, 64};
  std::vector<int> v = range_sizes(1, 64);
  v.push_back(100);
  v.push_back(150);
  return v;
}

/// Sizes for the structured families (small sizes hit the special cases:
/// 1x1, 2x2 blocks, deflation at the edges; 31..33 straddle a power of two).
inline std::vector<int> structured_sizes() {
  switch (test_level()) {
    case TestLevel::Quick: return {1, 2, 3, 5, 16, 33};
    case TestLevel::Default: return {1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 16, 17, 24, 31, 32, 33, 48, 64, 100};
    case TestLevel::Full: {
      std::vector<int> v = range_sizes(1, 64);
      v.push_back(100);
      v.push_back(150);
      return v;
    }
  }
  return {};
}

/// The sizes of v that BATCHEIG_TEST_SIZES lists (all of v when unset).
inline std::vector<int> only_listed_sizes(const std::vector<int> &v) {
  const char *only = std::getenv("BATCHEIG_TEST_SIZES");
  if (only == nullptr) return v;
  std::vector<int> keep;
  for (const char *q = only; *q;) {
    char *end = nullptr;
    const long x = std::strtol(q, &end, 10);
    if (end == q) break;
    for (const int n : v)
      if (n == x) {
        keep.push_back(n);
        break;
      }
    q = *end == ',' ? end + 1 : end;
  }
  return keep;
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_TEST_CONFIG_HPP
