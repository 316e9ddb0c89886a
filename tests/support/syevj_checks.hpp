// syevj/heevj test machinery: the LAPACKE ?syev/?heev oracle, a runner that
// makes one batched call with sentinel-filled outputs, and the accuracy
// checks of DESIGN.md section 5 (LAPACK xSYT21 / xDRVST style):
//   residual  ||A - V Lambda V^H||_1 / (n ||A||_1 u)
//   orth      ||I - V^H V||_1 / (n u)
//   eig       max_i |lambda_i - lambda_i(LAPACKE)| / (||A||_1 u)   (both ascending)
// each <= 60 (kSyevThreshold), computed in acc_t<T> on the matrix scaled by
// a power of two (ratios.hpp), so near-overflow inputs are handled exactly.
#ifndef BATCHEIG_TESTS_SUPPORT_SYEVJ_CHECKS_HPP
#define BATCHEIG_TESTS_SUPPORT_SYEVJ_CHECKS_HPP

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "batcheig.h"
#include "catch_compat.hpp"
#include "herm_generators.hpp"
#include "lapacke_oracle.hpp"
#include "ratios.hpp"
#include "scalar.hpp"
#include "syevj_api.hpp"

namespace bt {

inline lapack_int lapacke_heev(char jobz, char uplo, int n, float *a, int lda, float *w) {
  return LAPACKE_ssyev(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w);
}
inline lapack_int lapacke_heev(char jobz, char uplo, int n, double *a, int lda, double *w) {
  return LAPACKE_dsyev(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w);
}
inline lapack_int lapacke_heev(char jobz, char uplo, int n, std::complex<float> *a, int lda, float *w) {
  return LAPACKE_cheev(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w);
}
inline lapack_int lapacke_heev(char jobz, char uplo, int n, std::complex<double> *a, int lda, double *w) {
  return LAPACKE_zheev(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w);
}

/// Eigenvalues (ascending) of the full Hermitian n x n matrix a by LAPACKE ?syev/?heev('N', 'L').
///
/// Single precision: should ?syev/?heev report a failure on a finite input,
/// the eigenvalues come from ?syev/?heev in double precision on the same
/// matrix (exactly representable), rounded to single. OpenBLAS 0.3.21's
/// AVX-512 kernels (Debian 12, run on an AVX-512 host) make ssyev report 30
/// of 31 eigenvalues unconverged on one random n = 31 matrix of the CUDA
/// suite once the heap is in a particular state; with OPENBLAS_CORETYPE=Haswell
/// the same run passes. The reference must not be what fails.
template <class T>
std::vector<real_t<T>> oracle_heev(const std::vector<T> &a, int n) {
  using R = real_t<T>;
  std::vector<R> w(static_cast<size_t>(n));
  if (n == 0) return w;
  std::vector<T> c(a);
  const lapack_int info = lapacke_heev('N', 'L', n, c.data(), n, w.data());
  if (info != 0) {
    bool finite = true;
    for (const T &x : a) finite = finite && std::isfinite(std::abs(x));
    INFO("LAPACKE ?syev/?heev info " << info << " (input all finite: " << finite << ")");
    REQUIRE(finite);
    REQUIRE(sizeof(R) == sizeof(float));
    WARN("LAPACKE ?syev/?heev reported info " << info << " on a finite matrix; reference taken in double precision");
    if constexpr (sizeof(R) == sizeof(float)) {
      using D = std::conditional_t<is_complex_v<T>, std::complex<double>, double>;
      std::vector<D> cd(a.begin(), a.end());
      std::vector<double> wd(static_cast<size_t>(n));
      REQUIRE(lapacke_heev('N', 'L', n, cd.data(), n, wd.data()) == 0);
      for (int i = 0; i < n; ++i) w[static_cast<size_t>(i)] = static_cast<R>(wd[static_cast<size_t>(i)]);
    }
  }
  return w;
}

inline bool syevj_verbose() {
  const char *e = std::getenv("BATCHEIG_TEST_VERBOSE");
  return e != nullptr && *e != '\0' && *e != '0';
}

enum class SyevjWork { HandleOwned, ExactQuery, Oversized };

struct SyevjOptions {
  batcheigEigMode_t jobz = BATCHEIG_EIG_MODE_VECTOR;
  batcheigFillMode_t uplo = BATCHEIG_FILL_MODE_LOWER;
  int lda_pad = 0;  ///< lda = max(1, n) + lda_pad
  SyevjWork work = SyevjWork::HandleOwned;
  batcheigParams_t params = nullptr;
};

/// Inputs and outputs of one batched call (all matrices of one size n).
template <class T>
struct SyevjRun {
  using R = real_t<T>;
  int n = 0, lda = 1, batch = 0;
  batcheigBackend_t backend = BATCHEIG_BACKEND_HOST;  ///< the handle's backend
  batcheigAlgorithm_t algorithm = BATCHEIG_ALG_AUTO;  ///< the params' variant
  SyevjOptions opt;
  batcheigStatus_t status = BATCHEIG_STATUS_SUCCESS;
  std::vector<T> input;  ///< what was passed in A (uplo triangle, NaN elsewhere, padding sentinels)
  std::vector<T> A;      ///< A after the call
  std::vector<R> W;
  std::vector<int> info;
  const T *matrix(int b) const { return A.data() + static_cast<size_t>(b) * lda * n; }
  const R *eigenvalues(int b) const { return W.data() + static_cast<size_t>(b) * n; }
};

/// One call on the matrices `mats` (n x n, ld n, full Hermitian): W, info and
/// the padding rows of A are sentinel-filled beforehand.
template <class T>
SyevjRun<T> run_syevj(batcheigHandle_t h, const std::vector<const std::vector<T> *> &mats, int n,
                      const SyevjOptions &opt) {
  using R = real_t<T>;
  SyevjRun<T> r;
  r.n = n;
  r.lda = std::max(1, n) + opt.lda_pad;
  r.batch = static_cast<int>(mats.size());
  r.opt = opt;
  REQUIRE(batcheigGetBackend(h, &r.backend) == BATCHEIG_STATUS_SUCCESS);
  if (opt.params) REQUIRE(batcheigParamsGetAlgorithm(opt.params, &r.algorithm) == BATCHEIG_STATUS_SUCCESS);
  r.input.assign(static_cast<size_t>(r.lda) * n * r.batch, sentinel_value<T>());
  for (int b = 0; b < r.batch; ++b)
    herm_input(*mats[b], n, opt.uplo, r.input.data() + static_cast<size_t>(b) * r.lda * n, r.lda,
               make_seed(77, n, b));
  r.A = r.input;
  r.W.assign(static_cast<size_t>(n) * r.batch, sentinel_nan<R>());
  r.info.assign(static_cast<size_t>(r.batch), kInfoSentinel);

  SyevjArgs<T> g;
  g.handle = h;
  g.jobz = opt.jobz;
  g.uplo = opt.uplo;
  g.n = n;
  g.A = r.A.data();
  g.lda = r.lda;
  g.W = r.W.data();
  g.info = r.info.data();
  g.params = opt.params;
  g.batch = r.batch;
  std::vector<unsigned char> work;
  if (opt.work != SyevjWork::HandleOwned) {
    size_t lw = 0;
    REQUIRE(call_syevj_buffersize(g, &lw) == BATCHEIG_STATUS_SUCCESS);
    if (opt.work == SyevjWork::Oversized) lw = 2 * lw + 4096;
    work.assign(std::max<size_t>(lw, 1), 0xa5);
    g.work = work.data();
    g.lwork = lw;
  }
  r.status = call_syevj(g);
  return r;
}

template <class T>
SyevjRun<T> run_syevj_single(batcheigHandle_t h, const std::vector<T> &a, int n, const SyevjOptions &opt) {
  return run_syevj<T>(h, {&a}, n, opt);
}

/// Worst ratios over a set of matrices.
struct SyevjRatios {
  double residual = 0, orth = 0, eig = 0;
  void merge_max(const SyevjRatios &o) {
    residual = nan_max(residual, o.residual);
    orth = nan_max(orth, o.orth);
    eig = nan_max(eig, o.eig);
  }
};

/// All accuracy and structure checks for matrix b of `run` (a successful
/// call) against the full Hermitian matrix `a` and the oracle's eigenvalues.
/// `expect_converged`: info[b] must be 0.
/// `sorted`: the call sorted the eigenvalues (the default); otherwise they
/// are compared with the oracle after sorting a copy.
template <class T>
SyevjRatios check_syevj_matrix(const std::vector<T> &a, const SyevjRun<T> &run, int b,
                               const std::vector<real_t<T>> &oracle, bool expect_converged = true,
                               bool sorted = true) {
  using R = real_t<T>;
  using W = acc_t<T>;
  SyevjRatios out;
  const int n = run.n, lda = run.lda;
  const bool vec = run.opt.jobz == BATCHEIG_EIG_MODE_VECTOR;
  INFO("batch index " << b << ", jobz " << (vec ? "V" : "N") << ", uplo " << uplo_name(run.opt.uplo) << ", lda "
                      << lda);
  if (expect_converged) CHECK(run.info[b] == 0);
  const R *w = run.eigenvalues(b);
  for (int i = 0; i < n; ++i) {
    INFO("eigenvalue " << i);
    REQUIRE(!is_sentinel(w[i]));  // written
    REQUIRE(std::isfinite(w[i]));
  }
  if (sorted) {
    for (int i = 0; i + 1 < n; ++i) {
      INFO("ascending order at " << i);
      CHECK(w[i] <= w[i + 1]);
    }
  }
  std::vector<R> ws(w, w + n);
  std::sort(ws.begin(), ws.end());
  // Padding rows of A (lda > n) are never touched; without vectors A keeps its input.
  const T *Ab = run.matrix(b);
  const T *Ain = run.input.data() + static_cast<size_t>(b) * lda * n;
  for (int j = 0; j < n; ++j)
    for (int i = n; i < lda; ++i) {
      INFO("padding A(" << i << "," << j << ")");
      REQUIRE(bits_equal(Ab[static_cast<size_t>(j) * lda + i], Ain[static_cast<size_t>(j) * lda + i]));
    }

  const ScaledMatrix<T> S = scale_matrix<T>(a, n);
  const W anorm = std::max(S.norm1, std::numeric_limits<W>::min());
  const W u = static_cast<W>(unit_roundoff<R>());
  // Eigenvalues against LAPACKE, both ascending (Weyl: the k-th eigenvalues of
  // two nearby Hermitian matrices differ by at most the perturbation's norm).
  W eig = 0;
  for (int i = 0; i < n; ++i)
    eig = nan_max(eig, std::abs(static_cast<W>(ws[i]) * S.sigma - static_cast<W>(oracle[i]) * S.sigma));
  out.eig = static_cast<double>(eig / (anorm * u));

  if (vec && n > 0) {
    std::vector<std::complex<W>> V(static_cast<size_t>(n) * n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const T x = Ab[static_cast<size_t>(j) * lda + i];
        INFO("V(" << i << "," << j << ")");
        REQUIRE(!is_sentinel(x));
        REQUIRE(is_finite_scalar(x));
        V[static_cast<size_t>(j) * n + i] = to_wide<W>(x);
      }
    // ||A - V Lambda V^H||_1 and ||I - V^H V||_1, column by column; the
    // residual's column j as a sum of columns of V Lambda (storage order:
    // at n = 512 the row-wise sum took seconds per matrix in cache misses).
    W res = 0, orth = 0;
    std::vector<std::complex<W>> vl(static_cast<size_t>(n) * n);  // V Lambda (scaled)
    for (int k = 0; k < n; ++k)
      for (int i = 0; i < n; ++i)
        vl[static_cast<size_t>(k) * n + i] = V[static_cast<size_t>(k) * n + i] * (static_cast<W>(w[k]) * S.sigma);
    std::vector<std::complex<W>> rcol(static_cast<size_t>(n));
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) rcol[static_cast<size_t>(i)] = S(i, j);
      for (int k = 0; k < n; ++k) {
        const std::complex<W> vjk = std::conj(V[static_cast<size_t>(k) * n + j]);
        const std::complex<W> *vlk = vl.data() + static_cast<size_t>(k) * n;
        for (int i = 0; i < n; ++i) rcol[static_cast<size_t>(i)] -= vlk[i] * vjk;
      }
      W rc = 0, oc = 0;
      for (int i = 0; i < n; ++i) {
        std::complex<W> o = (i == j) ? W(1) : W(0);
        for (int k = 0; k < n; ++k)
          o -= std::conj(V[static_cast<size_t>(i) * n + k]) * V[static_cast<size_t>(j) * n + k];
        rc += std::abs(rcol[static_cast<size_t>(i)]);
        oc += std::abs(o);
      }
      res = nan_max(res, rc);
      orth = nan_max(orth, oc);
    }
    out.residual = static_cast<double>(res / (static_cast<W>(n) * anorm * u));
    out.orth = static_cast<double>(orth / (static_cast<W>(n) * u));
  } else if (!vec && run.backend == BATCHEIG_BACKEND_HOST && run.algorithm != BATCHEIG_ALG_JACOBI_HOST_BLOCK &&
             !(run.algorithm == BATCHEIG_ALG_AUTO && n >= kHostJacobiBlockMinN)) {
    // NOVECTOR: the host's scalar variant (AUTO's choice on the host below
    // kHostJacobiBlockMinN) leaves A as it was; the block variants and
    // other backends leave its contents unspecified (batcheig.h), only its
    // padding rows are kept (checked above).
    INFO("jobz = N: A unchanged");
    CHECK(std::memcmp(Ab, Ain, sizeof(T) * static_cast<size_t>(lda) * n) == 0);
  }
  const double thr = kSyevThreshold;
  CHECK(out.residual <= thr);
  CHECK(out.orth <= thr);
  CHECK(out.eig <= thr);
  return out;
}

/// A forced variant that does not claim order n (syevj_variant_claims()):
/// the call and its query return NOT_SUPPORTED and write nothing (A, W,
/// info, the query's lwork; the params' Jacobi output arrays are the
/// caller's to check).
template <class T>
void expect_syevj_not_claimed(batcheigHandle_t h, const std::vector<const std::vector<T> *> &mats, int n,
                              const SyevjOptions &opt) {
  INFO("order " << n << " is not claimed by the forced variant: NOT_SUPPORTED, nothing written");
  SyevjOptions o = opt;
  o.work = SyevjWork::HandleOwned;
  const SyevjRun<T> r = run_syevj<T>(h, mats, n, o);
  CHECK(r.status == BATCHEIG_STATUS_NOT_SUPPORTED);
  CHECK(std::memcmp(r.A.data(), r.input.data(), sizeof(T) * r.A.size()) == 0);
  bool w_untouched = true;
  for (const auto w : r.W) w_untouched = w_untouched && is_sentinel(w);
  CHECK(w_untouched);
  for (const int i : r.info) CHECK(i == kInfoSentinel);
  SyevjArgs<T> g;
  g.handle = h;
  g.jobz = opt.jobz;
  g.uplo = opt.uplo;
  g.n = n;
  g.lda = r.lda;
  g.params = opt.params;
  g.batch = r.batch;
  size_t lw = 4321;
  CHECK(call_syevj_buffersize(g, &lw) == BATCHEIG_STATUS_NOT_SUPPORTED);
  CHECK(lw == 4321);
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_SYEVJ_CHECKS_HPP
