// Host arrays on the CUDA backend: the streaming pipeline (batcheig.h,
// batcheigParamsSetStreaming, batcheigSetDevices, "Memory spaces" of
// geevBatched and syevjBatched).
//
// The reference is always the same call with device arrays on the same
// handle with the same params (same variant, forced or AUTO). Every matrix's
// results of a host-array call must be bitwise those of the device-array
// call, whatever the chunk size, the number of streams, the memory kind of
// each array and the number of devices:
//  - geev S/D/C/Z: eigenvalues only, with VR, with VL and VR; every output
//    array compared with memcmp (A is unspecified on exit and not compared);
//  - syevj S/D, heevj C/Z: with and without vectors, with the Jacobi sweeps /
//    residual arrays (batcheigParamsSetJacobiOutputs) in host memory too;
//    without vectors host arrays A must come back unchanged (A is not
//    copied back; device arrays A may serve as scratch);
//  - chunkings: a batch that is not a multiple of the chunk and spans more
//    than one ring of chunks (chunk 7, 2 streams, batch 100), automatic
//    chunk and streams, 16 streams, 1 stream with a batch of 17 chunks
//    (chunk 3, batch 50), chunk 1, a chunk larger than the batch, and a
//    batch that needs several rounds of automatic chunks;
//  - leading dimensions > n: rows n..ld-1 of VL/VR, and of A for syevj with
//    vectors, hold a sentinel that must survive (host and device calls);
//  - memory kinds, each array on its own: pageable (malloc/std::vector),
//    pinned (cudaMallocHost), registered (cudaHostRegister), A pinned with
//    pageable outputs, and a mix of the three;
//  - a NaN matrix exactly at a chunk boundary (first matrix of a chunk) and
//    an Inf matrix just before it (last of the previous chunk): info
//    NONFINITE for both, every other matrix bitwise as in the device call on
//    the batch without them;
//  - every forced CUDA variant over the n it claims;
//  - the handle's stream: a host-array call is ordered after work already
//    on the handle's stream (a large device-to-device copy, then a host
//    function that holds the stream for a while);
//  - several GPUs (batcheigSetDevices {0,1}, {1,0}, {1}): bitwise the
//    single-device results; skipped with fewer than two GPUs of one model;
//  - device memory: a batch 8 times larger on the same handle takes no more
//    device memory (cudaMemGetInfo) than the staging ring (double geev
//    n = 30 and syevj n = 100, whose variant needs n x n of workspace);
//    tagged [exclusive]: it needs the GPU to itself.
// Skipped (reported as skipped, never passed) without a usable GPU, or when
// BATCHEIG_TEST_BACKENDS is set and does not name cuda.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catch_compat.hpp"
#include "support/backend.hpp"
#include "support/cuda_streams.hpp"
#include "support/geev_api.hpp"
#include "support/generators.hpp"
#include "support/herm_generators.hpp"
#include "support/syevj_api.hpp"
#include "support/test_config.hpp"
#include "support/watchdog.hpp"

using namespace bt;

#define BT_TYPES float, double, std::complex<float>, std::complex<double>

namespace {

#define CUDA_REQUIRE(call) REQUIRE((call) == cudaSuccess)

/// BATCHEIG_TEST_BACKENDS unset or empty: run (the other *_cuda tests do);
/// set: run only if it names cuda.
bool cuda_requested() {
  const char *env = std::getenv("BATCHEIG_TEST_BACKENDS");
  if (env == nullptr || *env == '\0') return true;
  for (const batcheigBackend_t b : backends_under_test())
    if (b == BATCHEIG_BACKEND_CUDA) return true;
  return false;
}

/// Create a CUDA handle in `guard`, or skip the test (BT_SKIP: use only
/// where a return ends the test).
#define BT_CUDA_HANDLE_OR_SKIP(guard)                                                   \
  do {                                                                                  \
    if (!cuda_requested()) BT_SKIP("BATCHEIG_TEST_BACKENDS does not name cuda");        \
    BT_CREATE_HANDLE_OR_SKIP(guard, BATCHEIG_BACKEND_CUDA);                             \
  } while (0)

// ---------------------------------------------------------------------------
// Memory

enum class Mem { Pageable, Pinned, Registered };

/// Host bytes of one memory kind: pageable (std::vector), pinned
/// (cudaMallocHost) or pageable memory registered with cudaHostRegister.
class HostBytes {
 public:
  HostBytes(size_t bytes, Mem kind) : kind_(kind) {
    const size_t alloc = std::max<size_t>(bytes, 1);
    switch (kind) {
      case Mem::Pageable:
        vec_.resize(alloc);
        p_ = vec_.data();
        break;
      case Mem::Pinned:
        CUDA_REQUIRE(cudaMallocHost(reinterpret_cast<void **>(&p_), alloc));
        break;
      case Mem::Registered: {
        const size_t rounded = (alloc + 4095) / 4096 * 4096;
        p_ = static_cast<unsigned char *>(std::aligned_alloc(4096, rounded));
        REQUIRE(p_ != nullptr);
        const cudaError_t e = cudaHostRegister(p_, rounded, cudaHostRegisterDefault);
        if (e != cudaSuccess) {
          std::free(p_);
          p_ = nullptr;
        }
        CUDA_REQUIRE(e);
        break;
      }
    }
  }
  HostBytes(const HostBytes &) = delete;
  HostBytes &operator=(const HostBytes &) = delete;
  ~HostBytes() {
    if (p_ == nullptr) return;
    if (kind_ == Mem::Pinned) cudaFreeHost(p_);
    if (kind_ == Mem::Registered) {
      cudaHostUnregister(p_);
      std::free(p_);
    }
  }
  unsigned char *data() { return p_; }

 private:
  Mem kind_;
  unsigned char *p_ = nullptr;
  std::vector<unsigned char> vec_;
};

/// Device bytes on the current device, freed on scope exit.
struct DeviceBytes {
  unsigned char *p = nullptr;
  explicit DeviceBytes(size_t bytes) { CUDA_REQUIRE(cudaMalloc(reinterpret_cast<void **>(&p), std::max<size_t>(bytes, 1))); }
  DeviceBytes(const DeviceBytes &) = delete;
  DeviceBytes &operator=(const DeviceBytes &) = delete;
  ~DeviceBytes() { cudaFree(p); }
};

/// Which memory kind each array of a host-array call gets.
enum class Layout {
  Pageable,                    ///< all pageable (std::vector)
  Pinned,                      ///< all cudaMallocHost
  Registered,                  ///< all cudaHostRegister
  InputPinnedOutputsPageable,  ///< A pinned, every output pageable
  Mixed,                       ///< array i: pinned, pageable, registered, pinned, ...
};

const char *layout_name(Layout l) {
  switch (l) {
    case Layout::Pageable: return "all pageable";
    case Layout::Pinned: return "all pinned";
    case Layout::Registered: return "all registered";
    case Layout::InputPinnedOutputsPageable: return "A pinned, outputs pageable";
    case Layout::Mixed: return "pinned/pageable/registered mix";
  }
  return "?";
}

Mem mem_for(Layout l, size_t index) {
  switch (l) {
    case Layout::Pageable: return Mem::Pageable;
    case Layout::Pinned: return Mem::Pinned;
    case Layout::Registered: return Mem::Registered;
    case Layout::InputPinnedOutputsPageable: return index == 0 ? Mem::Pinned : Mem::Pageable;
    case Layout::Mixed: {
      const Mem cycle[3] = {Mem::Pinned, Mem::Pageable, Mem::Registered};
      return cycle[index % 3];
    }
  }
  return Mem::Pageable;
}

// ---------------------------------------------------------------------------
// One call, described by its arrays, run with host or device arrays.

/// One array argument of a call: its initial bytes and what must hold of it
/// afterwards.
struct Array {
  std::string name;
  size_t elem = 0;        ///< bytes per element
  size_t per_matrix = 0;  ///< elements per matrix
  std::vector<unsigned char> init;
  enum Rule {
    Compare,    ///< host-array result bitwise the device-array result
    Unchanged,      ///< must keep its initial bytes (both calls)
    HostUnchanged,  ///< the host-array call must keep its initial bytes (it is not copied
                    ///< back); the device-array call may use it as scratch
    Ignore      ///< unspecified on exit
  } rule = Compare;
  /// ld > rows: rows rows..ld-1 of every column must keep their initial
  /// bytes (both calls).
  int ld = 0, rows = 0;

  size_t matrix_bytes() const { return per_matrix * elem; }
};

template <class X>
Array make_array(std::string name, size_t per_matrix, const std::vector<X> &init, Array::Rule rule) {
  Array a;
  a.name = std::move(name);
  a.elem = sizeof(X);
  a.per_matrix = per_matrix;
  a.init.resize(init.size() * sizeof(X));
  if (!init.empty()) std::memcpy(a.init.data(), init.data(), a.init.size());
  a.rule = rule;
  return a;
}

/// A call: its arrays (A first) and how to make it on given pointers.
struct Problem {
  int batch = 0;
  std::vector<Array> arrays;
  size_t info_index = 0;
  std::function<batcheigStatus_t(const std::vector<void *> &)> call;
};

struct Run {
  batcheigStatus_t status = BATCHEIG_STATUS_INTERNAL_ERROR;
  std::vector<std::vector<unsigned char>> out;

  int info(const Problem &pb, int b) const {
    int v;
    std::memcpy(&v, out[pb.info_index].data() + sizeof(int) * static_cast<size_t>(b), sizeof v);
    return v;
  }
};

/// The call on device arrays of the current device (work = NULL), then a
/// device synchronization.
Run run_device(const Problem &pb) {
  Run r;
  std::vector<std::unique_ptr<DeviceBytes>> bufs;
  std::vector<void *> ptrs;
  for (const Array &a : pb.arrays) {
    bufs.push_back(std::make_unique<DeviceBytes>(a.init.size()));
    CUDA_REQUIRE(cudaMemcpy(bufs.back()->p, a.init.data(), a.init.size(), cudaMemcpyHostToDevice));
    ptrs.push_back(bufs.back()->p);
  }
  CUDA_REQUIRE(cudaDeviceSynchronize());  // the copies' DMA done before a call on any stream
  {
    CallWatchdog wd("device-array call and its synchronization, batch " + std::to_string(pb.batch));
    r.status = pb.call(ptrs);
    CUDA_REQUIRE(cudaDeviceSynchronize());
  }
  CUDA_REQUIRE(cudaGetLastError());
  for (size_t i = 0; i < pb.arrays.size(); ++i) {
    r.out.emplace_back(pb.arrays[i].init.size());
    CUDA_REQUIRE(cudaMemcpy(r.out.back().data(), bufs[i]->p, r.out.back().size(), cudaMemcpyDeviceToHost));
  }
  return r;
}

/// The call on host arrays of the given memory kinds. The results are read
/// as soon as the call returns: it must return with them in host memory.
Run run_host(const Problem &pb, Layout layout) {
  Run r;
  std::vector<std::unique_ptr<HostBytes>> bufs;
  std::vector<void *> ptrs;
  for (size_t i = 0; i < pb.arrays.size(); ++i) {
    const Array &a = pb.arrays[i];
    bufs.push_back(std::make_unique<HostBytes>(a.init.size(), mem_for(layout, i)));
    std::memcpy(bufs.back()->data(), a.init.data(), a.init.size());
    ptrs.push_back(bufs.back()->data());
  }
  {
    CallWatchdog wd(std::string("host-array call, ") + layout_name(layout) + ", batch " + std::to_string(pb.batch));
    r.status = pb.call(ptrs);
  }
  for (size_t i = 0; i < pb.arrays.size(); ++i) {
    const size_t bytes = pb.arrays[i].init.size();
    r.out.emplace_back(bufs[i]->data(), bufs[i]->data() + bytes);
  }
  return r;
}

/// First matrix whose bytes differ between x and y (-1: none).
long first_diff_matrix(const Array &a, const std::vector<unsigned char> &x, const std::vector<unsigned char> &y) {
  REQUIRE(x.size() == y.size());
  if (std::memcmp(x.data(), y.data(), x.size()) == 0) return -1;
  const size_t mb = std::max<size_t>(a.matrix_bytes(), 1);
  for (size_t k = 0; k < x.size(); ++k)
    if (x[k] != y[k]) return static_cast<long>(k / mb);
  return -1;
}

bool same_matrix(const Array &a, const std::vector<unsigned char> &x, const std::vector<unsigned char> &y, int b) {
  const size_t mb = a.matrix_bytes();
  return std::memcmp(x.data() + mb * static_cast<size_t>(b), y.data() + mb * static_cast<size_t>(b), mb) == 0;
}

/// Rows rows..ld-1 of every column still hold their initial bytes.
bool padding_kept(const Array &a, const std::vector<unsigned char> &x) {
  if (a.ld <= a.rows) return true;
  const size_t col = static_cast<size_t>(a.ld) * a.elem;
  const size_t head = static_cast<size_t>(a.rows) * a.elem;
  for (size_t off = 0; off + col <= x.size(); off += col)
    if (std::memcmp(x.data() + off + head, a.init.data() + off + head, col - head) != 0) return false;
  return true;
}

/// Host-array results bitwise the device-array results; padding rows and
/// arrays that must not be written kept in both.
void expect_bitwise(const Problem &pb, const Run &host, const Run &dev) {
  REQUIRE(dev.status == BATCHEIG_STATUS_SUCCESS);
  REQUIRE(host.status == BATCHEIG_STATUS_SUCCESS);
  for (size_t i = 0; i < pb.arrays.size(); ++i) {
    const Array &a = pb.arrays[i];
    INFO("array " << a.name);
    if (a.rule == Array::Compare) {
      const long b = first_diff_matrix(a, host.out[i], dev.out[i]);
      INFO("first matrix that differs: " << b << " (info host "
                                         << (b >= 0 ? host.info(pb, static_cast<int>(b)) : 0) << ", device "
                                         << (b >= 0 ? dev.info(pb, static_cast<int>(b)) : 0) << ")");
      CHECK(b < 0);
    } else if (a.rule == Array::Unchanged || a.rule == Array::HostUnchanged) {
      INFO("must not be written" << (a.rule == Array::HostUnchanged ? " (host array)" : ""));
      CHECK(first_diff_matrix(a, host.out[i], a.init) < 0);
      if (a.rule == Array::Unchanged) CHECK(first_diff_matrix(a, dev.out[i], a.init) < 0);
    }
    if (a.ld > a.rows) {
      INFO("rows " << a.rows << ".." << a.ld - 1 << " of every column must be left untouched");
      CHECK(padding_kept(a, host.out[i]));
      CHECK(padding_kept(a, dev.out[i]));
    }
  }
}

/// The matrices in `bad` have info NONFINITE; every other matrix has the
/// results of the device call on the batch without them.
void expect_isolated(const Problem &pb, const Run &host, const Run &clean_dev, const std::vector<int> &bad) {
  for (const int b : bad) {
    INFO("non-finite matrix " << b);
    CHECK(host.info(pb, b) == BATCHEIG_INFO_NONFINITE);
  }
  std::string differ;
  for (int b = 0; b < pb.batch; ++b) {
    if (std::find(bad.begin(), bad.end(), b) != bad.end()) continue;
    for (size_t i = 0; i < pb.arrays.size(); ++i) {
      const Array &a = pb.arrays[i];
      if (a.rule == Array::Compare && !same_matrix(a, host.out[i], clean_dev.out[i], b))
        differ += " " + a.name + "[" + std::to_string(b) + "]";
    }
  }
  INFO("finite matrices whose results differ from the device call without the non-finite ones:" << differ);
  CHECK(differ.empty());
}

// ---------------------------------------------------------------------------
// Problems

template <class T>
T nonfinite_value(int k) {
  using R = real_t<T>;
  const R v = k % 2 == 0 ? std::numeric_limits<R>::quiet_NaN() : std::numeric_limits<R>::infinity();
  if constexpr (is_complex_v<T>)
    return T(v, R(0));
  else
    return v;
}

/// Which matrices are made non-finite: bad[0] gets a NaN, bad[1] an Inf,
/// alternately, at entry (0, 0) (in the stored triangle for syevj).
int nonfinite_kind(const std::vector<int> &bad, int b) {
  const auto it = std::find(bad.begin(), bad.end(), b);
  return it == bad.end() ? -1 : static_cast<int>(it - bad.begin());
}

/// `count` geev test matrices of order n (cheap families that exercise
/// balancing, complex pairs and the QR iteration).
template <class T>
std::vector<std::vector<T>> geev_matrices(int n, int count, std::uint64_t tag) {
  const Family fams[] = {Family::RandomDense, Family::Companion,       Family::Graded,
                         Family::ZeroRowsCols, Family::UpperTriangular, Family::OrthArith};
  std::vector<std::vector<T>> v;
  for (int b = 0; b < count; ++b)
    v.push_back(make_matrix<T>(fams[b % 6], Magnitude::Unit, n, make_seed(tag, n, b)).a);
  return v;
}

template <class T>
std::vector<std::vector<T>> herm_matrices(int n, int count, std::uint64_t tag) {
  std::vector<std::vector<T>> v;
  for (auto &m : mixed_batch<T>(n, count, tag)) v.push_back(std::move(m.a));
  return v;
}

struct GeevJobs {
  bool vl, vr;
  const char *name;
};
const GeevJobs kGeevJobs[] = {{false, false, "eigenvalues only"}, {false, true, "VR"}, {true, true, "VL and VR"}};

/// geevBatched on matrix b = mats[b % mats.size()], lda = n + lda_pad,
/// ldv = n + ldv_pad; padding rows hold the sentinel, outputs are
/// sentinel-filled.
template <class T>
Problem geev_problem(batcheigHandle_t h, batcheigParams_t p, int n, int batch, GeevJobs jobs, int lda_pad,
                     int ldv_pad, const std::vector<std::vector<T>> &mats, const std::vector<int> &bad = {}) {
  using R = real_t<T>;
  const int lda = n + lda_pad, ldv = n + ldv_pad;
  const size_t nb = static_cast<size_t>(batch);
  std::vector<T> A(static_cast<size_t>(lda) * n * nb, sentinel_value<T>());
  for (int b = 0; b < batch; ++b) {
    const std::vector<T> &m = mats[static_cast<size_t>(b) % mats.size()];
    T *dst = A.data() + static_cast<size_t>(b) * lda * n;
    copy_into(m, n, dst, lda);
    const int k = nonfinite_kind(bad, b);
    if (k >= 0) dst[0] = nonfinite_value<T>(k);
  }
  Problem pb;
  pb.batch = batch;
  pb.arrays.push_back(make_array("A", static_cast<size_t>(lda) * n, A, Array::Ignore));
  size_t iw = 0, iwi = 0, ivl = 0, ivr = 0;
  if constexpr (is_complex_v<T>) {
    iw = pb.arrays.size();
    pb.arrays.push_back(make_array("W", n, std::vector<T>(n * nb, sentinel_value<T>()), Array::Compare));
  } else {
    iw = pb.arrays.size();
    pb.arrays.push_back(make_array("wr", n, std::vector<R>(n * nb, sentinel_nan<R>()), Array::Compare));
    iwi = pb.arrays.size();
    pb.arrays.push_back(make_array("wi", n, std::vector<R>(n * nb, sentinel_nan<R>()), Array::Compare));
  }
  const std::vector<T> vinit(static_cast<size_t>(ldv) * n * nb, sentinel_value<T>());
  if (jobs.vl) {
    ivl = pb.arrays.size();
    pb.arrays.push_back(make_array("VL", static_cast<size_t>(ldv) * n, vinit, Array::Compare));
    pb.arrays.back().ld = ldv;
    pb.arrays.back().rows = n;
  }
  if (jobs.vr) {
    ivr = pb.arrays.size();
    pb.arrays.push_back(make_array("VR", static_cast<size_t>(ldv) * n, vinit, Array::Compare));
    pb.arrays.back().ld = ldv;
    pb.arrays.back().rows = n;
  }
  pb.info_index = pb.arrays.size();
  pb.arrays.push_back(make_array("info", 1, std::vector<int>(nb, kInfoSentinel), Array::Compare));
  const size_t iinfo = pb.info_index;
  pb.call = [=](const std::vector<void *> &ptr) {
    GeevArgs<T> g;
    g.handle = h;
    g.jobvl = jobs.vl ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
    g.jobvr = jobs.vr ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
    g.n = n;
    g.A = static_cast<T *>(ptr[0]);
    g.lda = lda;
    if constexpr (is_complex_v<T>) {
      g.W = static_cast<T *>(ptr[iw]);
    } else {
      g.wr = static_cast<R *>(ptr[iw]);
      g.wi = static_cast<R *>(ptr[iwi]);
    }
    g.VL = jobs.vl ? static_cast<T *>(ptr[ivl]) : nullptr;
    g.ldvl = jobs.vl ? ldv : 1;
    g.VR = jobs.vr ? static_cast<T *>(ptr[ivr]) : nullptr;
    g.ldvr = jobs.vr ? ldv : 1;
    g.work = nullptr;
    g.lwork = 0;
    g.info = static_cast<int *>(ptr[iinfo]);
    g.params = p;
    g.batch = batch;
    return geev_dispatch(g);
  };
  return pb;
}

/// syevj/heevj on matrix b = mats[b % mats.size()] (its `uplo` triangle, NaN
/// in the other one, junk imaginary parts on the diagonal), lda = n +
/// lda_pad with sentinel padding rows; with `outputs`, sweeps and residual
/// arrays (host or device like A) are set on the params for the call.
template <class T>
Problem syevj_problem(batcheigHandle_t h, batcheigParams_t p, int n, int batch, bool vectors,
                      batcheigFillMode_t uplo, int lda_pad, bool outputs, const std::vector<std::vector<T>> &mats,
                      const std::vector<int> &bad = {}) {
  using R = real_t<T>;
  const int lda = n + lda_pad;
  const size_t nb = static_cast<size_t>(batch);
  std::vector<T> A(static_cast<size_t>(lda) * n * nb, sentinel_value<T>());
  for (int b = 0; b < batch; ++b) {
    const size_t src = static_cast<size_t>(b) % mats.size();
    T *dst = A.data() + static_cast<size_t>(b) * lda * n;
    herm_input(mats[src], n, uplo, dst, lda, make_seed(77, n, src));
    const int k = nonfinite_kind(bad, b);
    if (k >= 0) dst[0] = nonfinite_value<T>(k);
  }
  Problem pb;
  pb.batch = batch;
  // Without vectors A is not copied back to host arrays; on device arrays
  // the two-sided variants, LANE and CLUSTER leave it alone and the block variant
  // (which AUTO may pick) uses it as scratch (batcheig.h).
  batcheigAlgorithm_t alg = BATCHEIG_ALG_AUTO;
  REQUIRE(batcheigParamsGetAlgorithm(p, &alg) == BATCHEIG_STATUS_SUCCESS);
  const bool a_kept = alg == BATCHEIG_ALG_JACOBI_CUDA_WARP || alg == BATCHEIG_ALG_JACOBI_CUDA_SHARED ||
                      alg == BATCHEIG_ALG_JACOBI_CUDA_GLOBAL || alg == BATCHEIG_ALG_JACOBI_CUDA_LANE ||
                      alg == BATCHEIG_ALG_JACOBI_CUDA_CLUSTER;
  pb.arrays.push_back(make_array("A", static_cast<size_t>(lda) * n, A,
                                 vectors ? Array::Compare : a_kept ? Array::Unchanged : Array::HostUnchanged));
  pb.arrays.back().ld = lda;
  pb.arrays.back().rows = n;
  pb.arrays.push_back(make_array("W", n, std::vector<R>(n * nb, sentinel_nan<R>()), Array::Compare));
  pb.info_index = pb.arrays.size();
  pb.arrays.push_back(make_array("info", 1, std::vector<int>(nb, kInfoSentinel), Array::Compare));
  if (outputs) {
    pb.arrays.push_back(make_array("sweeps", 1, std::vector<int>(nb, -7), Array::Compare));
    pb.arrays.push_back(make_array("residual", 1, std::vector<double>(nb, -7.0), Array::Compare));
  }
  pb.call = [=](const std::vector<void *> &ptr) {
    if (outputs)
      REQUIRE(batcheigParamsSetJacobiOutputs(p, static_cast<int *>(ptr[3]), static_cast<double *>(ptr[4])) ==
              BATCHEIG_STATUS_SUCCESS);
    SyevjArgs<T> g;
    g.handle = h;
    g.jobz = vectors ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
    g.uplo = uplo;
    g.n = n;
    g.A = static_cast<T *>(ptr[0]);
    g.lda = lda;
    g.W = static_cast<R *>(ptr[1]);
    g.work = nullptr;
    g.lwork = 0;
    g.info = static_cast<int *>(ptr[2]);
    g.params = p;
    g.batch = batch;
    const batcheigStatus_t st = syevj_dispatch(g);
    if (outputs) batcheigParamsSetJacobiOutputs(p, nullptr, nullptr);
    return st;
  };
  return pb;
}

// ---------------------------------------------------------------------------
// Chunkings

struct Config {
  const char *what;
  int chunk, streams, batch;
  int lda_pad, ldv_pad;
  Layout layout;
  bool nonfinite;  ///< NaN at the first matrix of chunk 2, Inf at the last of chunk 1
  bool quick;      ///< also at BATCHEIG_TEST_LEVEL=quick
};

const Config kConfigs[] = {
    {"chunk 7, 2 streams, batch 100 (not a multiple of the chunk, several rings)", 7, 2, 100, 0, 0, Layout::Pageable,
     false, true},
    {"automatic chunk and streams, batch 100, padded lda and ldv", 0, 0, 100, 2, 3, Layout::Pinned, false, true},
    {"chunk 5, 16 streams, batch 83, NaN/Inf at a chunk boundary", 5, 16, 83, 1, 2,
     Layout::InputPinnedOutputsPageable, true, true},
    {"chunk 3, 1 stream, batch 50 (the input does not fit the ring)", 3, 1, 50, 0, 1, Layout::Mixed, false, true},
    {"chunk 64 > batch 20, 3 streams", 64, 3, 20, 1, 0, Layout::Registered, false, false},
    {"chunk 1, 1 stream, batch 9, NaN/Inf at a chunk boundary", 1, 1, 9, 0, 2, Layout::Pageable, true, false},
    {"chunk 11, automatic streams, batch 100, NaN/Inf at a chunk boundary", 11, 0, 100, 3, 1, Layout::Mixed, true,
     false},
};

/// The configuration every forced variant runs.
const Config kVariantConfig = {"chunk 7, 2 streams, batch 30", 7, 2, 30, 1, 2, Layout::Mixed, true, true};

std::vector<const Config *> configs() {
  std::vector<const Config *> v;
  for (const Config &c : kConfigs)
    if (c.quick || test_level() != TestLevel::Quick) v.push_back(&c);
  return v;
}

std::vector<int> bad_matrices(const Config &c) {
  if (!c.nonfinite || c.chunk <= 0 || c.batch <= 2 * c.chunk) return {};
  return {2 * c.chunk, 2 * c.chunk - 1};  // first matrix of chunk 2 (NaN), last of chunk 1 (Inf)
}

void set_streaming(batcheigParams_t p, const Config &c, batcheigAlgorithm_t alg) {
  REQUIRE(batcheigParamsSetStreaming(p, c.chunk, c.streams) == BATCHEIG_STATUS_SUCCESS);
  REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
}

/// Host-array call vs device-array call on `make(bad)`; with non-finite
/// matrices, also the device call on the clean batch for the neighbours.
void check_config(const std::function<Problem(const std::vector<int> &)> &make, const Config &c) {
  const std::vector<int> bad = bad_matrices(c);
  const Problem pb = make(bad);
  const Run dev = run_device(pb);
  const Run host = run_host(pb, c.layout);
  expect_bitwise(pb, host, dev);
  if (!bad.empty() && host.status == BATCHEIG_STATUS_SUCCESS) {
    const Problem clean = make({});
    expect_isolated(pb, host, run_device(clean), bad);
  }
}

/// geev orders. AUTO (src/plan/tuning.hpp) takes THREAD up to n = 2 in the
/// real types (5 / 6 in complex double / float), WARP up to 48 (float 64),
/// BLOCK while a matrix with both vector matrices fits (double to n ~ 97,
/// float ~ 138; complex float to 84, complex double never), GLOBAL beyond
/// (whose eigenvalues run the block's launches while the matrix fits);
/// quick covers the first three (GLOBAL runs forced), default all four.
std::vector<int> geev_sizes() {
  switch (test_level()) {
    case TestLevel::Quick: return {1, 5, 17, 60};
    case TestLevel::Default: return {1, 2, 5, 13, 14, 17, 33, 48, 49, 60, 90, 100};
    case TestLevel::Full: return {1, 2, 3, 5, 8, 13, 14, 17, 32, 33, 48, 49, 64, 80, 81, 100};
  }
  return {};
}

/// syevj orders. AUTO takes WARP up to n = 48 / 40 / 24 (float / double and
/// complex float / complex double), SHARED while one matrix with vectors
/// fits in shared memory (n = 70 does for every precision), GLOBAL beyond
/// (n = 130 for all but float, which runs GLOBAL forced).
std::vector<int> syevj_sizes() {
  switch (test_level()) {
    case TestLevel::Quick: return {1, 8, 31, 70, 130};
    case TestLevel::Default: return {1, 2, 8, 24, 25, 31, 40, 41, 48, 49, 70, 130};
    case TestLevel::Full: return {1, 2, 3, 8, 16, 24, 25, 31, 40, 41, 48, 49, 64, 70, 100, 130, 180};
  }
  return {};
}

/// Distinct matrices per test (the batch repeats them): fewer for large n,
/// where generating them (in long double) would dominate the test.
int distinct_matrices(int n) { return n <= 64 ? 100 : 16; }

// ---------------------------------------------------------------------------

template <class T>
void geev_host_arrays_match_device_arrays() {
  HandleGuard h;
  BT_CUDA_HANDLE_OR_SKIP(h);
  for (const int n : geev_sizes()) {
    const auto mats = geev_matrices<T>(n, distinct_matrices(n), 31337);
    for (const GeevJobs &jobs : kGeevJobs)
      for (const Config *c : configs()) {
        INFO(precision_name<T>() << " geev | n = " << n << " | " << jobs.name << " | auto | " << c->what << " | "
                                 << layout_name(c->layout));
        ParamsGuard p;
        set_streaming(p, *c, BATCHEIG_ALG_AUTO);
        check_config(
            [&](const std::vector<int> &bad) {
              return geev_problem<T>(h, p, n, c->batch, jobs, c->lda_pad, c->ldv_pad, mats, bad);
            },
            *c);
      }
    // Every forced variant on the n it claims, VL and VR (and eigenvalues only).
    for (const batcheigAlgorithm_t alg : geev_forced_variants(BATCHEIG_BACKEND_CUDA))
      for (const GeevJobs &jobs : {kGeevJobs[0], kGeevJobs[2]}) {
        if (!geev_variant_claims<T>(alg, n, jobs.vl, jobs.vr)) continue;
        const Config &c = kVariantConfig;
        INFO(precision_name<T>() << " geev | n = " << n << " | " << jobs.name << " | " << algorithm_name(alg)
                                 << " | " << c.what << " | " << layout_name(c.layout));
        ParamsGuard p;
        set_streaming(p, c, alg);
        check_config(
            [&](const std::vector<int> &bad) {
              return geev_problem<T>(h, p, n, c.batch, jobs, c.lda_pad, c.ldv_pad, mats, bad);
            },
            c);
      }
  }
}

template <class T>
void syevj_host_arrays_match_device_arrays() {
  HandleGuard h;
  BT_CUDA_HANDLE_OR_SKIP(h);
  for (const int n : syevj_sizes()) {
    const auto mats = herm_matrices<T>(n, distinct_matrices(n), 4711);
    int k = 0;
    for (const bool vectors : {false, true})
      for (const Config *c : configs()) {
        const batcheigFillMode_t uplo = (k++ % 2) ? BATCHEIG_FILL_MODE_UPPER : BATCHEIG_FILL_MODE_LOWER;
        const bool outputs = c->chunk != 64;  // one configuration without the Jacobi outputs
        INFO(precision_name<T>() << " syevj | n = " << n << " | " << (vectors ? "vectors" : "no vectors") << " | "
                                 << uplo_name(uplo) << " | Jacobi outputs " << (outputs ? "on" : "off")
                                 << " | auto | " << c->what << " | " << layout_name(c->layout));
        ParamsGuard p;
        set_streaming(p, *c, BATCHEIG_ALG_AUTO);
        check_config(
            [&](const std::vector<int> &bad) {
              return syevj_problem<T>(h, p, n, c->batch, vectors, uplo, c->lda_pad, outputs, mats, bad);
            },
            *c);
      }
    for (const batcheigAlgorithm_t alg : syevj_forced_variants(BATCHEIG_BACKEND_CUDA))
      for (const bool vectors : {false, true}) {
        if (!syevj_variant_claims<T>(alg, n, vectors)) continue;
        const Config &c = kVariantConfig;
        const batcheigFillMode_t uplo = vectors ? BATCHEIG_FILL_MODE_LOWER : BATCHEIG_FILL_MODE_UPPER;
        INFO(precision_name<T>() << " syevj | n = " << n << " | " << (vectors ? "vectors" : "no vectors") << " | "
                                 << uplo_name(uplo) << " | " << syevj_variant_name(alg) << " | " << c.what << " | "
                                 << layout_name(c.layout));
        ParamsGuard p;
        set_streaming(p, c, alg);
        check_config(
            [&](const std::vector<int> &bad) {
              return syevj_problem<T>(h, p, n, c.batch, vectors, uplo, c.lda_pad, true, mats, bad);
            },
            c);
      }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("streaming geev: host arrays give bitwise the device-array results (chunkings, memory kinds, "
                   "padding, NaN at chunk boundaries, every variant)",
                   "[streaming][geev][cuda]", BT_TYPES) {
  geev_host_arrays_match_device_arrays<TestType>();
}

TEMPLATE_TEST_CASE("streaming syevj/heevj: host arrays give bitwise the device-array results (chunkings, memory "
                   "kinds, padding, Jacobi outputs, NaN at chunk boundaries, every variant)",
                   "[streaming][syevj][cuda]", BT_TYPES) {
  syevj_host_arrays_match_device_arrays<TestType>();
}

namespace {

/// A batch of tiny matrices larger than one round of the largest automatic
/// chunk on every automatic stream (src/plan/tuning.hpp: 6 streams on one
/// device, 3 per device on several, of at most 65536 matrices), so that
/// automatic chunking reuses its buffers.
constexpr int kLargeBatch = 2 * 3 * 65536 + 4321;

template <class T>
void large_batch_automatic() {
  HandleGuard h;
  BT_CUDA_HANDLE_OR_SKIP(h);
  const Config c = {"automatic chunk and streams, large batch", 0, 0, kLargeBatch, 0, 0, Layout::Pageable, false,
                    true};
  {
    const int n = 2;
    INFO(precision_name<T>() << " geev | n = " << n << " | VR | batch " << kLargeBatch << " | pageable");
    const auto mats = geev_matrices<T>(n, 60, 2718);
    ParamsGuard p;
    set_streaming(p, c, BATCHEIG_ALG_AUTO);
    check_config([&](const std::vector<int> &) { return geev_problem<T>(h, p, n, c.batch, kGeevJobs[1], 0, 0, mats); },
                 c);
  }
  {
    // All pinned: each device ends with the smaller tail chunks of
    // cuda/streaming.cpp (chunk_starts).
    const int n = 3;
    Config cp = c;
    cp.layout = Layout::Pinned;
    INFO(precision_name<T>() << " geev | n = " << n << " | eigenvalues | batch " << kLargeBatch << " | pinned");
    const auto mats = geev_matrices<T>(n, 60, 2721);
    ParamsGuard p;
    set_streaming(p, cp, BATCHEIG_ALG_AUTO);
    check_config([&](const std::vector<int> &) { return geev_problem<T>(h, p, n, cp.batch, kGeevJobs[0], 0, 0, mats); },
                 cp);
  }
  {
    const int n = 3;
    Config cm = c;
    cm.layout = Layout::Mixed;
    INFO(precision_name<T>() << " syevj | n = " << n << " | vectors | batch " << kLargeBatch << " | mixed memory");
    const auto mats = herm_matrices<T>(n, 60, 2719);
    ParamsGuard p;
    set_streaming(p, cm, BATCHEIG_ALG_AUTO);
    check_config(
        [&](const std::vector<int> &) {
          return syevj_problem<T>(h, p, n, cm.batch, true, BATCHEIG_FILL_MODE_LOWER, 0, true, mats);
        },
        cm);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("streaming: automatic chunking of a batch of several rounds of chunks", "[streaming][cuda][large]",
                   BT_TYPES) {
  large_batch_automatic<TestType>();
}

namespace {

/// Bytes of the current device in use by anyone (cudaMemGetInfo).
size_t device_bytes_in_use() {
  size_t free_bytes = 0, total_bytes = 0;
  CUDA_REQUIRE(cudaDeviceSynchronize());
  CUDA_REQUIRE(cudaMemGetInfo(&free_bytes, &total_bytes));
  return total_bytes - free_bytes;
}

/// make(batch), on a handle whose params give `chunk` matrices per chunk and
/// 2 streams: host-array calls on one partial chunk, then on a batch of 3
/// rounds of chunks, then on one of 24 rounds, all three ending with the
/// same partial chunk so that all run the same kernels. The largest call
/// must take no more device memory than the second, and what the second
/// added to the first (the staging ring grown to whole chunks) must be a
/// small part of the largest batch's arrays. Then the largest batch's
/// results must be bitwise the device-array call's.
void device_memory_within_ring(int chunk, const std::function<Problem(int)> &make) {
  const int streams = 2, tail = chunk / 4 + 3;
  const int small_batch = 3 * streams * chunk + tail, large_batch = 24 * streams * chunk + tail;
  {
    // One partial chunk first: the kernels' code and the local memory the
    // driver reserves for them (for every thread the device can hold, not
    // per matrix) are then in `base`.
    const Problem warm = make(tail);
    REQUIRE(run_host(warm, Layout::Pageable).status == BATCHEIG_STATUS_SUCCESS);
  }
  const size_t base = device_bytes_in_use();
  {
    const Problem small = make(small_batch);
    REQUIRE(run_host(small, Layout::Pageable).status == BATCHEIG_STATUS_SUCCESS);
  }
  const size_t after_small = device_bytes_in_use();
  const Problem large = make(large_batch);
  const Run large_run = run_host(large, Layout::Pageable);
  REQUIRE(large_run.status == BATCHEIG_STATUS_SUCCESS);
  const size_t after_large = device_bytes_in_use();

  size_t large_bytes = 0;
  for (const Array &a : large.arrays) large_bytes += a.init.size();
  const size_t ring = after_small > base ? after_small - base : 0;
  const size_t growth = after_large > after_small ? after_large - after_small : 0;
  INFO("device bytes in use: " << base << " before, " << after_small << " after batch " << small_batch << ", "
                               << after_large << " after batch " << large_batch << " (its arrays: " << large_bytes
                               << " bytes)");
  // Allocation granularity and the driver's own bookkeeping: a few MiB.
  CHECK(growth <= (size_t(4) << 20));
  CHECK(ring * 4 < large_bytes);
  expect_bitwise(large, large_run, run_device(large));
}

}  // namespace

// The device memory of a host-array call is the staging ring's (streams x
// chunk), whatever the batch; the call never reserves the handle's
// batch-sized workspace (work is not used with host arrays).
// cudaMemGetInfo counts the whole device, so this test must run on a GPU
// that no other process is using at the same time: the tag [exclusive] says
// so. ctest runs it alone (RUN_SERIAL, tests/CMakeLists.txt) and
// scripts/gpu-check.sh runs it after the other suites have ended; beside
// other GPU processes, their allocations would count as this call's.
TEST_CASE("streaming: device memory stays within the staging ring whatever the batch",
          "[streaming][cuda][large][exclusive]") {
  HandleGuard h;
  BT_CUDA_HANDLE_OR_SKIP(h);
  {
    const int n = 30;
    INFO("double geev | n = " << n << " | VR | chunk 2048, 2 streams");
    const auto mats = geev_matrices<double>(n, 20, 4242);
    ParamsGuard p;
    REQUIRE(batcheigParamsSetStreaming(p, 2048, 2) == BATCHEIG_STATUS_SUCCESS);
    device_memory_within_ring(
        2048, [&](int batch) { return geev_problem<double>(h, p, n, batch, kGeevJobs[1], 0, 0, mats); });
  }
  {
    // AUTO takes the tridiagonal variant here, with n x n elements of
    // workspace per matrix: the batch's workspace would be about as large
    // as its arrays.
    const int n = 100;
    INFO("double syevj | n = " << n << " | vectors | chunk 256, 2 streams");
    const auto mats = herm_matrices<double>(n, 8, 4243);
    ParamsGuard p;
    REQUIRE(batcheigParamsSetStreaming(p, 256, 2) == BATCHEIG_STATUS_SUCCESS);
    device_memory_within_ring(256, [&](int batch) {
      return syevj_problem<double>(h, p, n, batch, true, BATCHEIG_FILL_MODE_LOWER, 0, false, mats);
    });
  }
}

// ---------------------------------------------------------------------------
// The handle's stream

namespace {

/// A host-array call on a handle whose (user) stream holds pending work:
/// the results are right, and the call returns only after that work ran
/// ("the work is ordered after what the handle's stream already holds").
void stream_is_honoured(batcheigHandle_t h, const Problem &pb, Layout layout) {
  const Run ref = run_device(pb);  // on the default stream
  const UserStream stream(h);
  {
    INFO("warm-up call on the user stream");
    expect_bitwise(pb, run_host(pb, layout), ref);
  }
  {
    INFO("behind a 256 MiB device-to-device copy on the user stream");
    const size_t bytes = size_t(256) << 20;
    DeviceBytes src(bytes), dst(bytes);
    CUDA_REQUIRE(cudaMemsetAsync(src.p, 0x5a, bytes, stream.s));
    for (int k = 0; k < 4; ++k) CUDA_REQUIRE(cudaMemcpyAsync(dst.p, src.p, bytes, cudaMemcpyDeviceToDevice, stream.s));
    expect_bitwise(pb, run_host(pb, layout), ref);
    CUDA_REQUIRE(cudaStreamSynchronize(stream.s));
  }
  {
    INFO("behind a host function that holds the user stream for 300 ms");
    StreamGate gate;
    CUDA_REQUIRE(cudaLaunchHostFunc(stream.s, &StreamGate::hold, &gate));
    std::thread releaser([&gate] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      gate.release = true;
    });
    const Run host = run_host(pb, layout);
    const bool waited = gate.finished.load();
    releaser.join();
    CUDA_REQUIRE(cudaStreamSynchronize(stream.s));
    CHECK(!gate.timed_out.load());
    {
      INFO("the call returned before the work already on the handle's stream had run");
      CHECK(waited);
    }
    expect_bitwise(pb, host, ref);
  }
}

template <class T>
void stream_is_honoured_all() {
  HandleGuard h;
  BT_CUDA_HANDLE_OR_SKIP(h);
  {
    const int n = 9, batch = 40;
    INFO(precision_name<T>() << " geev | n = " << n << " | VL and VR | chunk 6, 2 streams");
    const auto mats = geev_matrices<T>(n, 20, 1234);
    ParamsGuard p;
    REQUIRE(batcheigParamsSetStreaming(p, 6, 2) == BATCHEIG_STATUS_SUCCESS);
    stream_is_honoured(h, geev_problem<T>(h, p, n, batch, kGeevJobs[2], 1, 1, mats), Layout::Pageable);
  }
  {
    const int n = 12, batch = 40;
    INFO(precision_name<T>() << " syevj | n = " << n << " | vectors | chunk 6, 2 streams");
    const auto mats = herm_matrices<T>(n, 20, 1235);
    ParamsGuard p;
    REQUIRE(batcheigParamsSetStreaming(p, 6, 2) == BATCHEIG_STATUS_SUCCESS);
    stream_is_honoured(h, syevj_problem<T>(h, p, n, batch, true, BATCHEIG_FILL_MODE_UPPER, 1, true, mats),
                       Layout::Pinned);
  }
}

}  // namespace

TEMPLATE_TEST_CASE("streaming: a host-array call is ordered after the work on the handle's stream",
                   "[streaming][cuda][stream]", BT_TYPES) {
  stream_is_honoured_all<TestType>();
}

// ---------------------------------------------------------------------------
// Several GPUs

namespace {

/// Device lists to try: {0,1}, {1,0}, {1}, and all devices in reverse order
/// when there are more than two.
std::vector<std::vector<int>> device_lists(int ndev) {
  std::vector<std::vector<int>> v = {{0, 1}, {1, 0}, {1}};
  if (ndev > 2) {
    std::vector<int> all;
    for (int d = ndev - 1; d >= 0; --d) all.push_back(d);
    v.push_back(all);
  }
  return v;
}

std::string list_str(const std::vector<int> &l) {
  std::ostringstream s;
  s << "{";
  for (size_t i = 0; i < l.size(); ++i) s << (i ? "," : "") << l[i];
  s << "}";
  return s.str();
}

/// The host-array call with each device list gives bitwise the results of
/// the device-array call on device 0; the caller's current device is kept;
/// device-array calls are not affected by the list.
void multi_gpu_matches(batcheigHandle_t h, const std::function<Problem(const std::vector<int> &)> &make,
                       const std::vector<int> &bad, int ndev, Layout layout = Layout::Mixed) {
  CUDA_REQUIRE(cudaSetDevice(0));
  const Problem pb = make(bad);
  const Run ref = run_device(pb);
  REQUIRE(ref.status == BATCHEIG_STATUS_SUCCESS);
  for (const auto &list : device_lists(ndev)) {
    INFO("devices " << list_str(list));
    REQUIRE(batcheigSetDevices(h, static_cast<int>(list.size()), list.data()) == BATCHEIG_STATUS_SUCCESS);
    const Run host = run_host(pb, layout);
    int current = -1;
    CUDA_REQUIRE(cudaGetDevice(&current));
    {
      INFO("the call must leave the calling thread's current device as it was");
      CHECK(current == 0);
    }
    CUDA_REQUIRE(cudaSetDevice(0));
    expect_bitwise(pb, host, ref);
    for (const int b : bad) CHECK(host.info(pb, b) == BATCHEIG_INFO_NONFINITE);
    {
      INFO("device arrays (on the current device) with the list set");
      const Run dev = run_device(pb);
      expect_bitwise(pb, dev, ref);
    }
  }
  REQUIRE(batcheigSetDevices(h, 0, nullptr) == BATCHEIG_STATUS_SUCCESS);
}

/// Number of devices, or 0 (after BT_SKIP) when fewer than two of one model.
int two_gpus_or_zero(std::string &why) {
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess) ndev = 0;
  if (ndev < 2) {
    why = "fewer than two GPUs (" + std::to_string(ndev) + ")";
    return 0;
  }
  cudaDeviceProp p0{}, p1{};
  CUDA_REQUIRE(cudaGetDeviceProperties(&p0, 0));
  CUDA_REQUIRE(cudaGetDeviceProperties(&p1, 1));
  if (std::strcmp(p0.name, p1.name) != 0 || p0.major != p1.major || p0.minor != p1.minor) {
    why = std::string("GPUs 0 and 1 are different models (") + p0.name + ", " + p1.name +
          "): bitwise equality is only promised on one model";
    return 0;
  }
  return ndev;
}

template <class T>
void multi_gpu_all() {
  HandleGuard h;
  BT_CUDA_HANDLE_OR_SKIP(h);
  std::string why;
  const int ndev = two_gpus_or_zero(why);
  if (ndev == 0) BT_SKIP(why);
  for (const int chunk : {4, 0}) {
    const Config c = {"multi-GPU", chunk, 2, 61, 1, 2, Layout::Mixed, true, true};
    const std::vector<int> bad = {8, 7};  // with chunk 4: first of chunk 2 (NaN), last of chunk 1 (Inf)
    {
      const int n = 17;
      INFO(precision_name<T>() << " geev | n = " << n << " | VL and VR | chunk " << chunk << ", 2 streams per device");
      const auto mats = geev_matrices<T>(n, 61, 999);
      ParamsGuard p;
      set_streaming(p, c, BATCHEIG_ALG_AUTO);
      multi_gpu_matches(
          h,
          [&](const std::vector<int> &b) {
            return geev_problem<T>(h, p, n, c.batch, kGeevJobs[2], c.lda_pad, c.ldv_pad, mats, b);
          },
          bad, ndev);
    }
    {
      const int n = 31;
      INFO(precision_name<T>() << " syevj | n = " << n << " | vectors | chunk " << chunk << ", 2 streams per device");
      const auto mats = herm_matrices<T>(n, 61, 998);
      ParamsGuard p;
      set_streaming(p, c, BATCHEIG_ALG_AUTO);
      multi_gpu_matches(
          h,
          [&](const std::vector<int> &b) {
            return syevj_problem<T>(h, p, n, c.batch, true, BATCHEIG_FILL_MODE_LOWER, c.lda_pad, true, mats, b);
          },
          bad, ndev);
    }
    {
      const int n = 8;
      INFO(precision_name<T>() << " syevj | n = " << n << " | no vectors | chunk " << chunk);
      const auto mats = herm_matrices<T>(n, 61, 997);
      ParamsGuard p;
      set_streaming(p, c, BATCHEIG_ALG_AUTO);
      multi_gpu_matches(
          h,
          [&](const std::vector<int> &b) {
            return syevj_problem<T>(h, p, n, c.batch, false, BATCHEIG_FILL_MODE_UPPER, c.lda_pad, true, mats, b);
          },
          bad, ndev);
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("streaming: several GPUs (batcheigSetDevices) give bitwise the single-device results",
                   "[streaming][cuda][multigpu]", BT_TYPES) {
  multi_gpu_all<TestType>();
}

namespace {

/// Several GPUs with automatic chunks and streams on a batch of several
/// rounds of chunks in pinned memory, so that each device ends with the
/// smaller tail chunks of cuda/streaming.cpp (chunk_starts) and the first
/// copies in are enqueued first; NaN and Inf matrices spread over the
/// batch, the last matrix among them.
template <class T>
void multi_gpu_large_automatic() {
  HandleGuard h;
  BT_CUDA_HANDLE_OR_SKIP(h);
  std::string why;
  const int ndev = two_gpus_or_zero(why);
  if (ndev == 0) BT_SKIP(why);
  const int n = 3;
  const std::vector<int> bad = {0, kLargeBatch / 3, kLargeBatch - 4000, kLargeBatch - 1};
  INFO(precision_name<T>() << " geev | n = " << n << " | eigenvalues | batch " << kLargeBatch
                           << " | automatic chunk and streams");
  const auto mats = geev_matrices<T>(n, 60, 2720);
  ParamsGuard p;
  const Config c = {"multi-GPU, large batch", 0, 0, kLargeBatch, 0, 0, Layout::Pinned, true, true};
  set_streaming(p, c, BATCHEIG_ALG_AUTO);
  multi_gpu_matches(
      h, [&](const std::vector<int> &b) { return geev_problem<T>(h, p, n, c.batch, kGeevJobs[0], 0, 0, mats, b); },
      bad, ndev, c.layout);
}

}  // namespace

TEMPLATE_TEST_CASE("streaming: several GPUs with automatic chunks on a batch of several rounds",
                   "[streaming][cuda][multigpu][large]", BT_TYPES) {
  multi_gpu_large_automatic<TestType>();
}
