// Machinery for "every invalid argument in turn" tests, reusable by every
// routine family (geev now, syevj/heevj later).
//
// Pattern:
//   OutputGuard guard;                 // snapshot of every buffer the call may write
//   guard.watch("W", W.data(), bytes); ...
//   <call with one corrupted argument>
//   expect_invalid_argument(handle, status, expected_position, guard);
//
// expect_invalid_argument() checks: status == INVALID_VALUE,
// batcheigGetErrorArgument() == expected_position, and every watched buffer
// is bytewise unchanged ("write nothing" in batcheig.h).
#ifndef BATCHEIG_TESTS_SUPPORT_ARG_CHECK_HPP
#define BATCHEIG_TESTS_SUPPORT_ARG_CHECK_HPP

#include <cstring>
#include <string>
#include <vector>

#include "batcheig.h"
#include "catch_compat.hpp"

namespace bt {

class OutputGuard {
 public:
  void watch(std::string name, const void *p, size_t bytes) {
    if (p == nullptr || bytes == 0) return;
    const auto *c = static_cast<const unsigned char *>(p);
    entries_.push_back({std::move(name), p, std::vector<unsigned char>(c, c + bytes)});
  }
  template <class T>
  void watch_vector(std::string name, const std::vector<T> &v) {
    watch(std::move(name), v.data(), v.size() * sizeof(T));
  }
  /// Names of watched buffers whose bytes changed ("" if none).
  std::string changed() const {
    std::string out;
    for (const auto &e : entries_)
      if (std::memcmp(e.ptr, e.copy.data(), e.copy.size()) != 0) out += (out.empty() ? "" : ", ") + e.name;
    return out;
  }

 private:
  struct Entry {
    std::string name;
    const void *ptr;
    std::vector<unsigned char> copy;
  };
  std::vector<Entry> entries_;
};

/// Status of the last call was INVALID_VALUE for argument `position`, and
/// nothing was written.
inline void expect_invalid_argument(batcheigHandle_t handle, batcheigStatus_t status, int position,
                                    const OutputGuard &guard) {
  CHECK(status == BATCHEIG_STATUS_INVALID_VALUE);
  int pos = -12345;
  REQUIRE(batcheigGetErrorArgument(handle, &pos) == BATCHEIG_STATUS_SUCCESS);
  CHECK(pos == position);
  const std::string changed = guard.changed();
  INFO("buffers written by a call that failed argument checking: " << changed);
  CHECK(changed.empty());
}

/// Status SUCCESS and the error position was reset to 0.
inline void expect_success_and_no_error_argument(batcheigHandle_t handle, batcheigStatus_t status) {
  CHECK(status == BATCHEIG_STATUS_SUCCESS);
  int pos = -12345;
  REQUIRE(batcheigGetErrorArgument(handle, &pos) == BATCHEIG_STATUS_SUCCESS);
  CHECK(pos == 0);
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_ARG_CHECK_HPP
