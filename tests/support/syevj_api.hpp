// One calling convention for batcheig{S,D}syevjBatched / batcheig{C,Z}heevjBatched
// and their _bufferSize queries, the Jacobi variants per backend, and a
// runner that calls the library on a batch with sentinel-filled outputs.
//
// SyevjArgs<T> holds every argument of the C call by value (pointers
// included), so argument tests can take a valid set of arguments, corrupt
// exactly one field, and call. T is float, double, std::complex<float> or
// std::complex<double>; W is always real. The enum arguments are ints and
// the calls go through C shims (syevj_raw.h) so that invalid values never
// live in a C++ enum object.
#ifndef BATCHEIG_TESTS_SUPPORT_SYEVJ_API_HPP
#define BATCHEIG_TESTS_SUPPORT_SYEVJ_API_HPP

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "batcheig.h"
#include "plan/tuning.hpp"
#include "scalar.hpp"
#include "syevj_raw.h"

namespace bt {

template <class T>
struct SyevjArgs {
  using R = real_t<T>;
  batcheigHandle_t handle = nullptr;
  int jobz = BATCHEIG_EIG_MODE_VECTOR;  ///< an int: tests pass invalid values (see syevj_raw.h)
  int uplo = BATCHEIG_FILL_MODE_LOWER;
  int n = 0;
  T *A = nullptr;
  int lda = 1;
  R *W = nullptr;
  void *work = nullptr;
  size_t lwork = 0;
  int *info = nullptr;
  batcheigParams_t params = nullptr;
  int batch = 1;
};

/// Positions documented in batcheig.h (the same for all four precisions).
enum class SyevjArg { handle = 1, jobz, uplo, n, A, lda, W, work, lwork, info, params, batch };
inline int syevj_position(SyevjArg a) { return static_cast<int>(a); }
/// The _bufferSize query: the same up to W, then lwork (8), params (9), batch (10).
inline int syevj_buffersize_position(SyevjArg a) {
  switch (a) {
    case SyevjArg::lwork: return 8;
    case SyevjArg::params: return 9;
    case SyevjArg::batch: return 10;
    default: return static_cast<int>(a);
  }
}

// The calls go through the C shims of syevj_raw.c, which take jobz and uplo as ints.
inline batcheigStatus_t syevj_dispatch(const SyevjArgs<float> &g) {
  return bt_ssyevj_raw(g.handle, g.jobz, g.uplo, g.n, g.A, g.lda, g.W, g.work, g.lwork, g.info, g.params, g.batch);
}
inline batcheigStatus_t syevj_dispatch(const SyevjArgs<double> &g) {
  return bt_dsyevj_raw(g.handle, g.jobz, g.uplo, g.n, g.A, g.lda, g.W, g.work, g.lwork, g.info, g.params, g.batch);
}
inline batcheigStatus_t syevj_dispatch(const SyevjArgs<std::complex<float>> &g) {
  return bt_cheevj_raw(g.handle, g.jobz, g.uplo, g.n, reinterpret_cast<batcheigComplex *>(g.A), g.lda, g.W, g.work,
                       g.lwork, g.info, g.params, g.batch);
}
inline batcheigStatus_t syevj_dispatch(const SyevjArgs<std::complex<double>> &g) {
  return bt_zheevj_raw(g.handle, g.jobz, g.uplo, g.n, reinterpret_cast<batcheigDoubleComplex *>(g.A), g.lda, g.W,
                       g.work, g.lwork, g.info, g.params, g.batch);
}

inline batcheigStatus_t syevj_buffersize_dispatch(const SyevjArgs<float> &g, size_t *lwork) {
  return bt_ssyevj_buffersize_raw(g.handle, g.jobz, g.uplo, g.n, g.A, g.lda, g.W, lwork, g.params, g.batch);
}
inline batcheigStatus_t syevj_buffersize_dispatch(const SyevjArgs<double> &g, size_t *lwork) {
  return bt_dsyevj_buffersize_raw(g.handle, g.jobz, g.uplo, g.n, g.A, g.lda, g.W, lwork, g.params, g.batch);
}
inline batcheigStatus_t syevj_buffersize_dispatch(const SyevjArgs<std::complex<float>> &g, size_t *lwork) {
  return bt_cheevj_buffersize_raw(g.handle, g.jobz, g.uplo, g.n, reinterpret_cast<const batcheigComplex *>(g.A),
                                  g.lda, g.W, lwork, g.params, g.batch);
}
inline batcheigStatus_t syevj_buffersize_dispatch(const SyevjArgs<std::complex<double>> &g, size_t *lwork) {
  return bt_zheevj_buffersize_raw(g.handle, g.jobz, g.uplo, g.n,
                                  reinterpret_cast<const batcheigDoubleComplex *>(g.A), g.lda, g.W, lwork, g.params,
                                  g.batch);
}

template <class T>
batcheigStatus_t call_syevj(const SyevjArgs<T> &g) {
  return syevj_dispatch(g);
}
template <class T>
batcheigStatus_t call_syevj_buffersize(const SyevjArgs<T> &g, size_t *lwork) {
  return syevj_buffersize_dispatch(g, lwork);
}

/// Jacobi variants that can be forced on a backend; AUTO is always there.
/// A CUDA handle runs its own kernels (on device arrays, and on host arrays
/// staged through the GPU) and refuses the host variants with NOT_SUPPORTED;
/// a host handle refuses the CUDA variants alike.
inline std::vector<batcheigAlgorithm_t> syevj_variants(batcheigBackend_t backend) {
  if (backend == BATCHEIG_BACKEND_CUDA)
    return {BATCHEIG_ALG_AUTO, BATCHEIG_ALG_JACOBI_CUDA_WARP, BATCHEIG_ALG_JACOBI_CUDA_SHARED,
            BATCHEIG_ALG_JACOBI_CUDA_GLOBAL, BATCHEIG_ALG_JACOBI_CUDA_BLOCK, BATCHEIG_ALG_JACOBI_CUDA_LANE,
            BATCHEIG_ALG_JACOBI_CUDA_CLUSTER, BATCHEIG_ALG_JACOBI_CUDA_GRID, BATCHEIG_ALG_JACOBI_CUDA_MIXED,
            BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG, BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG};
  return {BATCHEIG_ALG_AUTO, BATCHEIG_ALG_JACOBI_HOST_SCALAR, BATCHEIG_ALG_JACOBI_HOST_BLOCK};
}

inline const char *syevj_variant_name(batcheigAlgorithm_t a) {
  switch (a) {
    case BATCHEIG_ALG_AUTO: return "auto";
    case BATCHEIG_ALG_JACOBI_HOST_SCALAR: return "jacobi-host-scalar";
    case BATCHEIG_ALG_JACOBI_HOST_BLOCK: return "jacobi-host-block";
    case BATCHEIG_ALG_JACOBI_CUDA_WARP: return "jacobi-cuda-warp";
    case BATCHEIG_ALG_JACOBI_CUDA_SHARED: return "jacobi-cuda-shared";
    case BATCHEIG_ALG_JACOBI_CUDA_GLOBAL: return "jacobi-cuda-global";
    case BATCHEIG_ALG_JACOBI_CUDA_BLOCK: return "jacobi-cuda-block";
    case BATCHEIG_ALG_JACOBI_CUDA_LANE: return "jacobi-cuda-lane";
    case BATCHEIG_ALG_JACOBI_CUDA_CLUSTER: return "jacobi-cuda-cluster";
    case BATCHEIG_ALG_JACOBI_CUDA_GRID: return "jacobi-cuda-grid";
    case BATCHEIG_ALG_JACOBI_CUDA_MIXED: return "jacobi-cuda-mixed";
    case BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG: return "jacobi-cuda-mixed-tridiag";
    case BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG: return "jacobi-cuda-tridiag";
    default: return "?";
  }
}

/// The forced (non-AUTO) variants; with BATCHEIG_TEST_VARIANTS set (names as
/// syevj_variant_name(), comma-separated), only those (for runs on the GPU
/// machine that check one variant).
inline std::vector<batcheigAlgorithm_t> syevj_forced_variants(batcheigBackend_t backend) {
  const char *only = std::getenv("BATCHEIG_TEST_VARIANTS");
  const std::string list = only ? "," + std::string(only) + "," : std::string();
  std::vector<batcheigAlgorithm_t> v;
  for (auto a : syevj_variants(backend))
    if (a != BATCHEIG_ALG_AUTO && (!only || list.find("," + std::string(syevj_variant_name(a)) + ",") != std::string::npos))
      v.push_back(a);
  return v;
}

/// Opt-in shared memory per block the shared-memory Jacobi variants may use
/// (Hopper: 227 KiB, the GPUs the suite runs on).
inline constexpr size_t kJacobiSharedOptinBytes = 227 * 1024;

/// Shared memory one matrix needs in the shared-memory CUDA Jacobi variants
/// (WARP, SHARED): the working matrix (and, with vectors, V) with leading
/// dimension n|1, two real n-vectors, and one rotation record per pair of
/// the round-robin step, h = ceil(n/2) of them, each
/// round_up(12 + 4 sizeof(R) + sizeof(T), alignof(R)) bytes (float 32,
/// double 56, complex float 36, complex double 64); each part rounded up to
/// 16 bytes; plus the 256 bytes of a block team's reduction slots (static
/// shared memory, which counts against the same per-block limit).
template <class T>
size_t syevj_shared_bytes(int n, bool want_v) {
  using R = real_t<T>;
  auto r16 = [](size_t x) { return (x + 15) / 16 * 16; };
  const size_t nn = static_cast<size_t>(n);
  const size_t ld = static_cast<size_t>(n | 1);
  const size_t mats = want_v ? 2 : 1;
  const size_t h = (nn + 1) / 2;
  const size_t rot = (12 + 4 * sizeof(R) + sizeof(T) + alignof(R) - 1) / alignof(R) * alignof(R);
  return r16(mats * ld * nn * sizeof(T)) + r16(2 * nn * sizeof(R)) + r16(h * rot) + 256;
}

/// Largest n of JACOBI_CUDA_LANE (a column pair per slot, 64 slots).
inline constexpr int kJacobiLaneMaxN = 128;

/// Whether JACOBI_CUDA_CLUSTER claims order n on a Hopper GPU: column
/// blocks of nb = 8 columns; K = ceil(n / nb) blocks,
/// players(K) / 2 <= 16 pairs (thread blocks of the cluster); each block's
/// shared memory, 8 nb (n|1) elements (two buffers of its pair's columns of
/// A Q and Q) plus two 2nb x (2nb+1) matrices, with at most 512 bytes of
/// static shared memory, within kJacobiSharedOptinBytes.
template <class T>
bool syevj_cluster_claims(int n) {
  const size_t nb = 8, s = 2 * nb;
  const int k = static_cast<int>((n + nb - 1) / nb);
  if (n < 1 || (k + (k & 1)) / 2 > 16) return false;
  const size_t bytes = 8 * nb * static_cast<size_t>(n | 1) * sizeof(T) + 2 * s * (s + 1) * sizeof(T);
  return bytes + 512 <= kJacobiSharedOptinBytes;
}

/// Whether JACOBI_CUDA_GRID claims order n: n >= 32 and its state fits in
/// the n entries of w: 7 scalars, one slot per pair (players(K) / 2, K =
/// ceil(n / nb), nb = 16 in the real types, 8 in the complex ones) and one
/// per tile of 32 columns.
template <class T>
bool syevj_grid_claims(int n) {
  const int nb = is_complex_v<T> ? 8 : 16;
  const int k = (n + nb - 1) / nb;
  return n >= 32 && 7 + (k + (k & 1)) / 2 + (n + 31) / 32 <= n;
}

/// Whether JACOBI_CUDA_MIXED_TRIDIAG claims order n (double and complex
/// double): its single-precision reduction keeps 14 n entries (v, w, their
/// successors, 2 row partials and 8 column partials per entry of a 256-row
/// grid, from n = 449; fewer below) in shared memory, with at most 512 bytes
/// of static shared memory, within kJacobiSharedOptinBytes. Its other
/// launches need less.
template <class T>
bool syevj_tridiag_claims(int n) {
  const size_t single = sizeof(T) / 2;  // complex<float> or float
  return 14 * static_cast<size_t>(n) * single + 512 <= kJacobiSharedOptinBytes;
}

/// Largest n of JACOBI_CUDA_TRIDIAG's shared-memory kernel (64 columns of
/// four threads in a block of 256; its shared memory, at most 106 KB in
/// complex double, always fits).
inline constexpr int kJacobiTriMaxN = 64;

/// Largest n of JACOBI_CUDA_TRIDIAG's global-memory form (64 checkpoints of
/// 32 rows per solve).
inline constexpr int kJacobiTriGlobalMaxN = 2048;

/// Whether JACOBI_CUDA_TRIDIAG claims order n: the shared-memory kernel to
/// n = 64; beyond, the global-memory form to kJacobiTriGlobalMaxN while its
/// reduction's shared memory (4 n + (512 / rw + rw / 32) n entries of T for
/// a grid of rw = min(256, 32 ceil(n / 64)) rows, plus 512 bytes of static
/// shared memory) fits in kJacobiSharedOptinBytes: complex double to
/// n = 1 035. Its other launches need less.
template <class T>
bool syevj_tri_claims(int n) {
  if (n <= kJacobiTriMaxN) return true;
  if (n > kJacobiTriGlobalMaxN) return false;
  const size_t rw = std::min(256, (n + 63) / 64 * 32);
  return (4 + 512 / rw + rw / 32) * static_cast<size_t>(n) * sizeof(T) + 512 <= kJacobiSharedOptinBytes;
}

/// Whether a variant iterates sweeps (every variant but JACOBI_CUDA_TRIDIAG,
/// the tridiagonal method, which reports 0 sweeps and ignores the sweep
/// limit).
inline bool syevj_iterates(batcheigAlgorithm_t alg) { return alg != BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG; }

/// Whether a variant is one of the two mixed-precision variants
/// (JACOBI_CUDA_MIXED and JACOBI_CUDA_MIXED_TRIDIAG: a single-precision first
/// stage and the same double-precision finish).
inline bool syevj_is_mixed(batcheigAlgorithm_t alg) {
  return alg == BATCHEIG_ALG_JACOBI_CUDA_MIXED || alg == BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG;
}

/// Whether a Jacobi variant claims some order for element type T: every
/// variant but the mixed ones, which exist in double and complex double
/// only (every n there).
template <class T>
bool syevj_variant_exists(batcheigAlgorithm_t alg) {
  return !syevj_is_mixed(alg) || std::is_same_v<real_t<T>, double>;
}

/// Whether a Jacobi variant claims order n with the given jobz: the
/// shared-memory CUDA variants while syevj_shared_bytes() fits in
/// kJacobiSharedOptinBytes, LANE up to kJacobiLaneMaxN, CLUSTER as
/// syevj_cluster_claims(), GRID as syevj_grid_claims(), MIXED_TRIDIAG as
/// syevj_tridiag_claims(), TRIDIAG as syevj_tri_claims(); every other variant (host variants, GLOBAL,
/// BLOCK, AUTO) claims every n. A forced variant that does not claim n
/// returns NOT_SUPPORTED and writes nothing.
template <class T>
bool syevj_variant_claims(batcheigAlgorithm_t alg, int n, bool want_v) {
  if (!syevj_variant_exists<T>(alg)) return false;
  if (alg == BATCHEIG_ALG_JACOBI_CUDA_LANE) return n <= kJacobiLaneMaxN;
  if (alg == BATCHEIG_ALG_JACOBI_CUDA_CLUSTER) return syevj_cluster_claims<T>(n);
  if (alg == BATCHEIG_ALG_JACOBI_CUDA_GRID) return syevj_grid_claims<T>(n);
  if (alg == BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG) return syevj_tridiag_claims<T>(n);
  if (alg == BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG) return syevj_tri_claims<T>(n);
  if (alg != BATCHEIG_ALG_JACOBI_CUDA_WARP && alg != BATCHEIG_ALG_JACOBI_CUDA_SHARED) return true;
  return syevj_shared_bytes<T>(n, want_v) <= kJacobiSharedOptinBytes;
}

/// The order from which AUTO takes the block variant on the host (for
/// eigenvalue accuracy at large n).
inline constexpr int kHostJacobiBlockMinN = batcheig::plan::tuning::host_jacobi_block_min_n;

/// Whether a variant is a CUDA kernel variant.
inline bool syevj_is_cuda_variant(batcheigAlgorithm_t a) {
  return a == BATCHEIG_ALG_JACOBI_CUDA_WARP || a == BATCHEIG_ALG_JACOBI_CUDA_SHARED ||
         a == BATCHEIG_ALG_JACOBI_CUDA_GLOBAL || a == BATCHEIG_ALG_JACOBI_CUDA_BLOCK ||
         a == BATCHEIG_ALG_JACOBI_CUDA_LANE || a == BATCHEIG_ALG_JACOBI_CUDA_CLUSTER ||
         a == BATCHEIG_ALG_JACOBI_CUDA_GRID || a == BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG || syevj_is_mixed(a);
}

inline const char *uplo_name(batcheigFillMode_t u) { return u == BATCHEIG_FILL_MODE_LOWER ? "lower" : "upper"; }

/// Tolerance a call uses (batcheig.h): tol (default 2u), raised to
/// 32 n u for JACOBI_CUDA_MIXED (whose residual is the larger of
/// off(X^H A X) / ||A||_F and ||I - X^H X||_F) and JACOBI_CUDA_TRIDIAG, to
/// 4 sqrt(n) u for the one-sided block variants (host and CUDA), and to
/// 8 sqrt(n) u for the CUDA lane variant in its Gram form (n > 64; double
/// and complex float n > 16; complex double n > 8). The other CUDA variants
/// (two-sided, like JACOBI_HOST_SCALAR) use tol as given. T is the element
/// type.
template <class T>
double syevj_effective_tol(double tol, int n, batcheigAlgorithm_t variant) {
  using R = real_t<T>;
  const double u = static_cast<double>(unit_roundoff<R>());
  double t = tol > 0 ? static_cast<double>(static_cast<R>(tol)) : 2 * u;
  if (variant == BATCHEIG_ALG_JACOBI_HOST_BLOCK || variant == BATCHEIG_ALG_JACOBI_CUDA_BLOCK ||
      variant == BATCHEIG_ALG_JACOBI_CUDA_LANE || variant == BATCHEIG_ALG_JACOBI_CUDA_CLUSTER ||
      variant == BATCHEIG_ALG_JACOBI_CUDA_GRID)
    t = std::max(t, 4 * std::sqrt(static_cast<double>(n)) * u);
  if (syevj_is_mixed(variant) || variant == BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG) t = std::max(t, 32.0 * n * u);
  const int gram_above = sizeof(T) == 16 ? 8 : sizeof(T) == 8 ? 16 : 64;
  if (variant == BATCHEIG_ALG_JACOBI_CUDA_LANE && n > gram_above)
    t = std::max(t, 8 * std::sqrt(static_cast<double>(n)) * u);
  return t;
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_SYEVJ_API_HPP
