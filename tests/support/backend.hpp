// Backend parameterisation and RAII guards for handles and params.
//
// Every numerical test runs once per backend in backends_under_test()
// (DESIGN.md section 5: on both backends where present). By default: the
// host backend, and the CUDA backend when a CUDA handle can be created here
// (compiled in and a usable GPU). BATCHEIG_TEST_BACKENDS, a comma list
// ("host", "cuda", "host,cuda"), chooses instead. run_geev() passes host
// arrays, which the CUDA backend accepts (it streams host batches through
// the GPU, DESIGN.md section 2); device arrays are tested against host
// arrays in test_geev_cuda and test_streaming_cuda. A CUDA backend named in
// BATCHEIG_TEST_BACKENDS that cannot be created (NOT_SUPPORTED: not
// compiled in, or no GPU) makes the test report "skipped", never "passed".
#ifndef BATCHEIG_TESTS_SUPPORT_BACKEND_HPP
#define BATCHEIG_TESTS_SUPPORT_BACKEND_HPP

#include <cstdlib>
#include <string>
#include <vector>

#include "batcheig.h"
#include "catch_compat.hpp"
#include "scalar.hpp"

namespace bt {

inline const char *backend_name(batcheigBackend_t b) {
  switch (b) {
    case BATCHEIG_BACKEND_AUTO: return "auto";
    case BATCHEIG_BACKEND_HOST: return "host";
    case BATCHEIG_BACKEND_CUDA: return "cuda";
  }
  return "?";
}

/// Whether a CUDA handle can be created in this process (probed once).
inline bool cuda_backend_available() {
  static const bool available = [] {
    batcheigHandle_t h = nullptr;
    if (batcheigCreateWithBackend(&h, BATCHEIG_BACKEND_CUDA) != BATCHEIG_STATUS_SUCCESS) return false;
    batcheigDestroy(h);
    return true;
  }();
  return available;
}

inline std::vector<batcheigBackend_t> backends_under_test() {
  const char *env = std::getenv("BATCHEIG_TEST_BACKENDS");
  if (env == nullptr || *env == '\0') {
    if (cuda_backend_available()) return {BATCHEIG_BACKEND_HOST, BATCHEIG_BACKEND_CUDA};
    return {BATCHEIG_BACKEND_HOST};
  }
  std::vector<batcheigBackend_t> out;
  const std::string s(env);
  size_t pos = 0;
  while (pos <= s.size()) {
    const size_t comma = s.find(',', pos);
    const std::string tok = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (tok == "host") out.push_back(BATCHEIG_BACKEND_HOST);
    if (tok == "cuda") out.push_back(BATCHEIG_BACKEND_CUDA);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  if (out.empty()) out.push_back(BATCHEIG_BACKEND_HOST);
  return out;
}

/// Owns a handle; destroyed on scope exit.
struct HandleGuard {
  batcheigHandle_t h = nullptr;
  HandleGuard() = default;
  HandleGuard(const HandleGuard &) = delete;
  HandleGuard &operator=(const HandleGuard &) = delete;
  ~HandleGuard() {
    if (h) batcheigDestroy(h);
  }
  operator batcheigHandle_t() const { return h; }
};

/// Owns a params object; destroyed on scope exit.
struct ParamsGuard {
  batcheigParams_t p = nullptr;
  ParamsGuard() { REQUIRE(batcheigCreateParams(&p) == BATCHEIG_STATUS_SUCCESS); }
  ParamsGuard(const ParamsGuard &) = delete;
  ParamsGuard &operator=(const ParamsGuard &) = delete;
  ~ParamsGuard() {
    if (p) batcheigDestroyParams(p);
  }
  operator batcheigParams_t() const { return p; }
};

/// Algorithm variants that can be forced on a backend (DESIGN.md section 3:
/// every variant is tested on every size it claims). AUTO is always there.
inline std::vector<batcheigAlgorithm_t> geev_variants(batcheigBackend_t backend) {
  if (backend == BATCHEIG_BACKEND_HOST) return {BATCHEIG_ALG_AUTO, BATCHEIG_ALG_GEEV_HOST_QR};
  return {BATCHEIG_ALG_AUTO, BATCHEIG_ALG_GEEV_CUDA_THREAD, BATCHEIG_ALG_GEEV_CUDA_WARP, BATCHEIG_ALG_GEEV_CUDA_BLOCK,
          BATCHEIG_ALG_GEEV_CUDA_GLOBAL};
}

/// The forced variants only (AUTO always resolves to one of them).
inline std::vector<batcheigAlgorithm_t> geev_forced_variants(batcheigBackend_t backend) {
  std::vector<batcheigAlgorithm_t> v = geev_variants(backend);
  v.erase(v.begin());
  return v;
}

/// Shared memory per block that the shared-memory variants may use on the
/// GPUs the suite runs on (Hopper: 227 KiB opt-in).
inline constexpr size_t kSharedOptinBytes = 227 * 1024;

/// Whether a variant claims order n with the given jobs (the shared-memory
/// variants: while the matrix, the wanted vector matrices, the O(n)
/// scratch and the 256 bytes of the block team's reduction slots fit in one
/// block's shared memory; the layout of src/cuda/geev/geev_team.cuh).
/// Unclaimed cases must return NOT_SUPPORTED.
template <class T>
bool geev_variant_claims(batcheigAlgorithm_t alg, int n, bool want_vl, bool want_vr) {
  if (alg != BATCHEIG_ALG_GEEV_CUDA_WARP && alg != BATCHEIG_ALG_GEEV_CUDA_BLOCK) return true;
  using R = real_t<T>;
  const size_t ld = static_cast<size_t>(n | 1);
  const size_t mats = 1 + (want_vl ? 1 : 0) + (want_vr ? 1 : 0);
  size_t bytes = mats * ld * n * sizeof(T) + static_cast<size_t>(n) * (sizeof(R) + sizeof(T));
  if (want_vl || want_vr) bytes += static_cast<size_t>(n) * (sizeof(R) + 2 * sizeof(T));
  return (bytes + 15) / 16 * 16 + 256 <= kSharedOptinBytes;
}

inline const char *algorithm_name(batcheigAlgorithm_t a) {
  switch (a) {
    case BATCHEIG_ALG_AUTO: return "auto";
    case BATCHEIG_ALG_GEEV_HOST_QR: return "geev-host-qr";
    case BATCHEIG_ALG_GEEV_CUDA_THREAD: return "geev-cuda-thread";
    case BATCHEIG_ALG_GEEV_CUDA_WARP: return "geev-cuda-warp";
    case BATCHEIG_ALG_GEEV_CUDA_BLOCK: return "geev-cuda-block";
    case BATCHEIG_ALG_GEEV_CUDA_GLOBAL: return "geev-cuda-global";
    default: return "other";
  }
}

}  // namespace bt

/// Create `guard.h` on `backend`; skip the test (see BT_SKIP) when a CUDA
/// handle cannot be created; fail for any other error.
#define BT_CREATE_HANDLE_OR_SKIP(guard, backend)                                         \
  do {                                                                                   \
    const batcheigStatus_t bt_st_ = batcheigCreateWithBackend(&(guard).h, (backend));    \
    if (bt_st_ == BATCHEIG_STATUS_NOT_SUPPORTED && (backend) == BATCHEIG_BACKEND_CUDA) { \
      BT_SKIP("CUDA backend not available in this build or on this machine");           \
    }                                                                                    \
    REQUIRE(bt_st_ == BATCHEIG_STATUS_SUCCESS);                                          \
    REQUIRE((guard).h != nullptr);                                                       \
  } while (0)

#endif  // BATCHEIG_TESTS_SUPPORT_BACKEND_HPP
