// run_geev<T>(): one batched geev call on host arrays, with sentinel-filled
// outputs, optional leading-dimension padding and optional user workspace.
//
// Extension point for the CUDA backend: today every backend gets host
// pointers (the CUDA backend accepts them and streams the batch through the
// GPU). A device-pointer mode would add an option here that copies the
// buffers below to device memory before the call and back after it; the
// checks consume only the host-side GeevRun and need no change.
#ifndef BATCHEIG_TESTS_SUPPORT_GEEV_RUNNER_HPP
#define BATCHEIG_TESTS_SUPPORT_GEEV_RUNNER_HPP

#include <complex>
#include <cstring>
#include <string>
#include <vector>

#include "batcheig.h"
#include "geev_api.hpp"
#include "generators.hpp"
#include "lapacke_oracle.hpp"
#include "scalar.hpp"
#include "watchdog.hpp"

namespace bt {

enum class WorkMode {
  HandleOwned,  ///< work = NULL: the handle allocates and caches
  ExactQuery,   ///< work = exactly the bytes returned by _bufferSize
  Oversized,    ///< work = 2x the query + 4 KiB
};

struct GeevOptions {
  batcheigEigMode_t jobvl = BATCHEIG_EIG_MODE_VECTOR;
  batcheigEigMode_t jobvr = BATCHEIG_EIG_MODE_VECTOR;
  int lda_pad = 0;   ///< lda = n + lda_pad
  int ldvl_pad = 0;  ///< ldvl = n + ldvl_pad (when VL is passed)
  int ldvr_pad = 0;
  WorkMode work = WorkMode::HandleOwned;
  batcheigParams_t params = nullptr;
  /// Pass sentinel-filled VL/VR buffers even when the job does not ask for
  /// them (they must come back untouched); otherwise NULL with ld 1.
  bool pass_unwanted_vectors = false;
};

/// Everything one call produced, on the host.
template <class T>
struct GeevRun {
  using R = real_t<T>;
  int n = 0, batch = 0, lda = 1, ldvl = 1, ldvr = 1;
  batcheigEigMode_t jobvl = BATCHEIG_EIG_MODE_VECTOR, jobvr = BATCHEIG_EIG_MODE_VECTOR;
  bool vl_passed = false, vr_passed = false;
  batcheigStatus_t status = BATCHEIG_STATUS_INTERNAL_ERROR;
  batcheigStatus_t query_status = BATCHEIG_STATUS_SUCCESS;
  size_t lwork_query = 0;
  bool work_guard_intact = true;  ///< bytes after the user workspace untouched
  std::vector<T> A;               ///< input buffer after the call (overwritten)
  std::vector<R> wr, wi;          ///< real T
  std::vector<T> W;               ///< complex T
  std::vector<T> VL, VR;
  std::vector<int> info;

  bool want_vl() const { return jobvl == BATCHEIG_EIG_MODE_VECTOR; }
  bool want_vr() const { return jobvr == BATCHEIG_EIG_MODE_VECTOR; }

  std::complex<R> eig(int b, int j) const {
    const size_t k = static_cast<size_t>(b) * n + j;
    if constexpr (is_complex_v<T>)
      return W[k];
    else
      return {wr[k], wi[k]};
  }
  std::vector<std::complex<R>> eigs(int b) const {
    std::vector<std::complex<R>> e(n);
    for (int j = 0; j < n; ++j) e[j] = eig(b, j);
    return e;
  }
  const R *wi_of(int b) const {
    if constexpr (is_complex_v<T>)
      return nullptr;
    else
      return wi.data() + static_cast<size_t>(b) * n;
  }
  const T *vl_of(int b) const { return VL.data() + static_cast<size_t>(b) * ldvl * n; }
  const T *vr_of(int b) const { return VR.data() + static_cast<size_t>(b) * ldvr * n; }
  std::vector<std::complex<R>> unpacked_vl(int b) const { return unpack_vectors<T>(n, vl_of(b), ldvl, wi_of(b)); }
  std::vector<std::complex<R>> unpacked_vr(int b) const { return unpack_vectors<T>(n, vr_of(b), ldvr, wi_of(b)); }

  /// Eigenvalue storage of matrix b as raw bytes (wr then wi, or W).
  std::vector<unsigned char> eig_bytes(int b) const {
    std::vector<unsigned char> out;
    auto append = [&out](const void *p, size_t bytes) {
      const auto *c = static_cast<const unsigned char *>(p);
      out.insert(out.end(), c, c + bytes);
    };
    const size_t off = static_cast<size_t>(b) * n;
    if constexpr (is_complex_v<T>) {
      append(W.data() + off, sizeof(T) * n);
    } else {
      append(wr.data() + off, sizeof(R) * n);
      append(wi.data() + off, sizeof(R) * n);
    }
    return out;
  }
};

namespace detail {
template <class T>
void fill_sentinel(std::vector<T> &v) {
  const T s = sentinel_value<T>();
  for (auto &x : v) x = s;
}
}  // namespace detail

/// Run geevBatched on `mats` (each n x n, ld n; batch = mats.size()) with
/// host arrays. Outputs are pre-filled with sentinel NaNs; A's padding rows
/// too (a library that reads them sees NaN and must not let it leak).
template <class T>
GeevRun<T> run_geev(batcheigHandle_t handle, int n, const std::vector<std::vector<T>> &mats,
                    const GeevOptions &opt = GeevOptions()) {
  GeevRun<T> r;
  r.n = n;
  r.batch = static_cast<int>(mats.size());
  r.jobvl = opt.jobvl;
  r.jobvr = opt.jobvr;
  r.lda = std::max(1, n + opt.lda_pad);
  r.vl_passed = r.want_vl() || opt.pass_unwanted_vectors;
  r.vr_passed = r.want_vr() || opt.pass_unwanted_vectors;
  r.ldvl = r.vl_passed ? std::max(1, n + opt.ldvl_pad) : 1;
  r.ldvr = r.vr_passed ? std::max(1, n + opt.ldvr_pad) : 1;
  const size_t nb = static_cast<size_t>(r.batch);
  const size_t nn = static_cast<size_t>(n);

  r.A.assign(nb * r.lda * nn, sentinel_value<T>());
  for (size_t b = 0; b < nb; ++b) copy_into(mats[b], n, r.A.data() + b * r.lda * nn, r.lda);
  if constexpr (is_complex_v<T>) {
    r.W.resize(nb * nn);
    detail::fill_sentinel(r.W);
  } else {
    r.wr.resize(nb * nn);
    r.wi.resize(nb * nn);
    detail::fill_sentinel(r.wr);
    detail::fill_sentinel(r.wi);
  }
  if (r.vl_passed) {
    r.VL.resize(nb * r.ldvl * nn);
    detail::fill_sentinel(r.VL);
  }
  if (r.vr_passed) {
    r.VR.resize(nb * r.ldvr * nn);
    detail::fill_sentinel(r.VR);
  }
  r.info.assign(nb, kInfoSentinel);

  GeevArgs<T> g;
  g.handle = handle;
  g.jobvl = opt.jobvl;
  g.jobvr = opt.jobvr;
  g.n = n;
  g.A = r.A.empty() ? nullptr : r.A.data();
  g.lda = r.lda;
  if constexpr (is_complex_v<T>) {
    g.W = r.W.empty() ? nullptr : r.W.data();
  } else {
    g.wr = r.wr.empty() ? nullptr : r.wr.data();
    g.wi = r.wi.empty() ? nullptr : r.wi.data();
  }
  g.VL = r.VL.empty() ? nullptr : r.VL.data();
  g.ldvl = r.ldvl;
  g.VR = r.VR.empty() ? nullptr : r.VR.data();
  g.ldvr = r.ldvr;
  g.info = r.info.empty() ? nullptr : r.info.data();
  g.params = opt.params;
  g.batch = r.batch;

  // User workspace with 256 guard bytes behind it (an overrun that stays
  // inside our allocation is invisible to AddressSanitizer).
  constexpr size_t kGuard = 256;
  constexpr unsigned char kGuardByte = 0xA5;
  std::vector<unsigned char> work;
  size_t work_bytes = 0;
  if (opt.work != WorkMode::HandleOwned) {
    r.query_status = call_geev_buffersize(g, &r.lwork_query);
    if (r.query_status != BATCHEIG_STATUS_SUCCESS) {
      r.status = r.query_status;
      return r;
    }
    work_bytes = (opt.work == WorkMode::ExactQuery) ? r.lwork_query : 2 * r.lwork_query + 4096;
    work.assign(work_bytes + kGuard, kGuardByte);
    g.work = work.data();
    g.lwork = work_bytes;
  }
  {
    CallWatchdog wd(std::string("geevBatched ") + precision_name<T>() + " n=" + std::to_string(n) +
                    " batch=" + std::to_string(r.batch) + " jobvl=" + std::to_string(opt.jobvl) +
                    " jobvr=" + std::to_string(opt.jobvr));
    r.status = call_geev(g);
  }
  if (!work.empty()) {
    for (size_t i = work_bytes; i < work.size(); ++i)
      if (work[i] != kGuardByte) r.work_guard_intact = false;
  }
  return r;
}

/// Convenience: one matrix.
template <class T>
GeevRun<T> run_geev_single(batcheigHandle_t handle, const std::vector<T> &a, int n,
                           const GeevOptions &opt = GeevOptions()) {
  return run_geev<T>(handle, n, std::vector<std::vector<T>>{a}, opt);
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_GEEV_RUNNER_HPP
