// Catch2 v2 / v3 compatibility shim for the batcheig tests.
//
// Debian 12 ships Catch2 v2 (single header <catch2/catch.hpp>), the GPU
// machine's image ships Catch2 v3 (<catch2/catch_all.hpp>). CMake defines
// BATCHEIG_CATCH2_V3 to 0 or 1 from the package it found; without that hint we
// fall back on __has_include so the header also works when compiled by hand.
#ifndef BATCHEIG_TESTS_CATCH_COMPAT_HPP
#define BATCHEIG_TESTS_CATCH_COMPAT_HPP

#if !defined(BATCHEIG_CATCH2_V3)
#  if __has_include(<catch2/catch_all.hpp>)
#    define BATCHEIG_CATCH2_V3 1
#  else
#    define BATCHEIG_CATCH2_V3 0
#  endif
#endif

#if BATCHEIG_CATCH2_V3
#  include <catch2/catch_all.hpp>
#else
#  include <catch2/catch.hpp>
#endif

// BT_SKIP(msg): mark the current test case as skipped and leave it.
// Catch2 >= 3.3 has SKIP() (reported as "skipped", not "passed"); older
// versions have no skip state, so we emit a warning that says "skipped" and
// return from the test-case body. Use only directly in a TEST_CASE body (or a
// function whose return ends the test).
#if defined(SKIP)
#  define BT_SKIP(msg) SKIP(msg)
#else
// Catch2 v2: remember the skip; catch_main.cpp then exits with status 4,
// which ctest reports as "Skipped" (SKIP_RETURN_CODE in CMakeLists.txt).
inline bool &bt_skipped_flag() {
  static bool skipped = false;
  return skipped;
}
#  define BT_SKIP(msg)                   \
    do {                                 \
      WARN("skipped: " << msg);          \
      bt_skipped_flag() = true;          \
      return;                            \
    } while (0)
#endif

#endif  // BATCHEIG_TESTS_CATCH_COMPAT_HPP
