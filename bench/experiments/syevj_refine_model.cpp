// syevj_refine_model.cpp: a host model (plain-loop GEMMs, LAPACKE, and the
// library's core::jacobi::refine_update for the per-matrix step) of a
// double-precision finish for syevj/heevj from single-precision
// eigenvectors, the candidate for issue 5's large n (docs/performance.md,
// session 44). Not part of the library or its tests; built on request:
//   ninja -C build/release batcheig_syevj_refine_model
//   build/release/bench/batcheig_syevj_refine_model [n] [iterations] [family] [d|z] [start] [steps] [seed]
//
// One iteration, X the current eigenvectors (n x n), A Hermitian:
//   P = A X, C = X^H X, S = X^H P (GEMMs; C and S as one X^H [X P]);
//   lambda_i = s_ii / c_ii, R = I - C;
//   delta = max(20 (||S - diag lambda||_F + max|lambda| ||R||_F),
//               1e-6 max|lambda|);
//   groups: runs of the sorted lambda with gaps <= delta;
//   E = R/2 + W, W anti-Hermitian (computed for i < j, mirrored):
//     w_ij = (s_ij + r_ij (lambda_i + lambda_j)/2) / (lambda_j - lambda_i)
//   for i, j in different groups, 0 within a group. This is Ogita and
//   Aishima's first-order update E_ij = (s_ij + lambda_j r_ij) /
//   (lambda_j - lambda_i), but its Hermitian part, which restores
//   orthogonality, does not go through the division by the gap;
//   F = I + E; for each group g of two or more, F(:, g) <- F(:, g) Q_g with
//   Q_g the eigenvectors of S_gg - m I + m R_gg (m the group's mean
//   lambda; two-sided Jacobi in double), and lambda_g <- m + its eigenvalues;
//   X <- X F (one GEMM).
// The single-precision start is LAPACKE ?syevd / ?heevd on A rounded to
// float; the reference eigenvalues come from LAPACKE in double. Ratios:
// residual max_j ||A x_j - lambda_j x_j||_1 / (n ||A||_1 u), orthogonality
// max |X^H X - I| / (n u), eigenvalues max |lambda - ref| / (||A||_1 u).
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstdio>
#include <random>
#include <vector>

#include "core/jacobi_refine.hpp"
#include "support/herm_generators.hpp"

namespace core = batcheig::core;
using std::vector;
inline double re(double x) { return x; }
inline double re(std::complex<double> x) { return x.real(); }
inline double cj(double x) { return x; }
inline std::complex<double> cj(std::complex<double> x) { return std::conj(x); }
inline float cj(float x) { return x; }
inline std::complex<float> cj(std::complex<float> x) { return std::conj(x); }

// MODEL_GEMM3M=1: complex products as three real ones (Gauss: with
// op(a) = a' + i a'', real = a' br - a'' bi and imag = (a' + a'')(br + bi)
// - a' br - a'' bi), to see what the 3M method's rounding does to the
// finish's floor.
static bool g_gemm3m = std::getenv("MODEL_GEMM3M") != nullptr;
inline void gemm3m(int n, bool ta, const std::complex<double> *a, const std::complex<double> *b,
                   std::complex<double> *c) {
  const size_t nn = size_t(n) * n;
  vector<double> a1(nn), a2(nn), a3(nn), br(nn), bi(nn), bs(nn);
  for (int k = 0; k < n; k++)
    for (int i = 0; i < n; i++) {  // op(a)(i, k) at [i + k n]
      const std::complex<double> v = ta ? std::conj(a[k + size_t(i) * n]) : a[i + size_t(k) * n];
      a1[i + size_t(k) * n] = v.real(), a2[i + size_t(k) * n] = v.imag();
      a3[i + size_t(k) * n] = v.real() + v.imag();
    }
  for (size_t e = 0; e < nn; e++) br[e] = b[e].real(), bi[e] = b[e].imag(), bs[e] = br[e] + bi[e];
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      double t1 = 0, t2 = 0, t3 = 0;
      for (int k = 0; k < n; k++) {
        const size_t ik = i + size_t(k) * n, kj = k + size_t(j) * n;
        t1 += a1[ik] * br[kj], t2 += a2[ik] * bi[kj], t3 += a3[ik] * bs[kj];
      }
      c[i + size_t(j) * n] = std::complex<double>(t1 - t2, t3 - t1 - t2);
    }
}
template <class T>
void gemm(int n, bool ta, const T *a, const T *b, T *c) {  // c = op(a) b, op = ^H if ta
  if constexpr (std::is_same_v<T, std::complex<double>>)
    if (g_gemm3m) return gemm3m(n, ta, a, b, c);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      T s = 0;
      if (ta)
        for (int k = 0; k < n; k++) s += cj(a[k + i * n]) * b[k + j * n];
      else
        for (int k = 0; k < n; k++) s += a[i + k * n] * b[k + j * n];
      c[i + j * n] = s;
    }
}
template <class T>
struct CoreType {
  using type = T;
};
template <class R>
struct CoreType<std::complex<R>> {
  using type = core::complex<R>;
};

// One iteration: C, S by GEMMs, F and lambda by the library's
// core::jacobi::refine_update (serial team; delta's factor and floor are its
// kRefineDeltaFactor and kRefineDeltaFloor), X <- X F. Returns the number
// of grouped columns.
template <class T>
int refine_step(int n, const vector<T> &A, vector<T> &X, vector<double> &lam, bool orthogonalize = false) {
  using C = typename CoreType<T>::type;
  const size_t nn = size_t(n) * n;
  vector<T> P(nn), Cm(nn), S(nn);
  gemm(n, false, A.data(), X.data(), P.data());
  gemm(n, true, X.data(), X.data(), Cm.data());
  gemm(n, true, X.data(), P.data(), S.data());
  vector<core::index_t> order(n), start(n);
  vector<C> it(nn), q(nn);
  vector<double> b(n), z(n), wg(n);
  vector<core::jacobi::Rotation<C>> rot(std::max<core::index_t>(1, core::jacobi::players(n) / 2));
  const core::jacobi::RefineScratch<C> ws{order.data(), start.data(), core::MatView<C>{it.data(), n, 1}, q.data(),
                                          core::MatView<C>{it.data(), n, 1}, core::VecView<double>{b.data(), 1},
                                          core::VecView<double>{z.data(), 1}, core::VecView<double>{wg.data(), 1},
                                          rot.data()};
  const auto norms = core::jacobi::refine_update(
      core::SerialTeam{}, n, core::MatView<C>{reinterpret_cast<C *>(Cm.data()), n, 1},
      core::MatView<C>{reinterpret_cast<C *>(S.data()), n, 1}, core::VecView<double>{lam.data(), 1}, ws, orthogonalize);
  double anorm = 0;
  for (size_t e = 0; e < nn; e++) anorm += std::norm(std::complex<double>(A[e]));
  printf("  (before it: off(S)/||A||_F %.3g, ||I - C||_F %.3g, delta %.3g, orth-only %d)\n", norms.off / std::sqrt(anorm),
         norms.rnorm, norms.delta, int(norms.orth_only));
  gemm(n, false, X.data(), Cm.data(), P.data());
  X = P;
  return int(norms.grouped);
}

template <class T>
void report(int n, const vector<T> &A, const vector<T> &X, vector<double> lam, const vector<double> &ref,
            const char *tag) {
  const bool gemm3m = g_gemm3m;  // the checks in plain complex arithmetic
  g_gemm3m = false;
  const double u = 1.1102230246251565e-16;
  double anorm1 = 0;
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int i = 0; i < n; i++) s += std::abs(A[i + j * n]);
    anorm1 = std::max(anorm1, s);
  }
  vector<T> AX(n * n), G(n * n);
  gemm(n, false, A.data(), X.data(), AX.data());
  gemm(n, true, X.data(), X.data(), G.data());
  double res = 0, orth = 0;
  for (int j = 0; j < n; j++) {
    double s = 0;
    for (int i = 0; i < n; i++) s += std::abs(AX[i + j * n] - lam[j] * X[i + j * n]);
    res = std::max(res, s);
  }
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) orth = std::max(orth, std::abs(G[i + j * n] - (i == j ? T(1) : T(0))));
  std::sort(lam.begin(), lam.end());
  double ev = 0;
  for (int i = 0; i < n; i++) ev = std::max(ev, std::abs(lam[i] - ref[i]));
  printf("  %s res %.3g orth %.3g eig %.3g\n", tag, res / (n * anorm1 * u), orth / (n * u), ev / (anorm1 * u));
  g_gemm3m = gemm3m;
}

// The CUDA tridiagonal stage's eigenvectors of T (syevj_tridiag.cuh,
// vectors_kernel), in the same single-precision arithmetic, for one
// matrix: d, e (T's diagonal and off-diagonal) -> lambda and z (z(k, j) at
// z[k n + j]).
static int sturm_count(int n, const float *d, const float *e2, float x, float pivmin) {
  float q = d[0] - x;
  if (std::fabs(q) < pivmin) q = -pivmin;
  int c = q < 0;
  for (int i = 1; i < n; ++i) {
    q = d[i] - x - e2[i - 1] / q;
    if (std::fabs(q) < pivmin) q = -pivmin;
    c += q < 0;
  }
  return c;
}
static float start_entry(int j, int k) {
  unsigned h = unsigned(j) * 0x9E3779B1u ^ (unsigned(k) + 0x7F4A7C15u) * 0x85EBCA77u;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  h ^= h >> 12;
  h *= 0x297A2D39u;
  h ^= h >> 15;
  return float(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
}
// MODEL_DIAG=1: per inverse-iteration step, how much of each group member
// the first Gram-Schmidt pass leaves and the cross-group orthogonality;
// MODEL_PERTURB=s: T's d and e times (1 + r 2^-23), r uniform in [-1, 1]
// from seed s (another single-precision reduction's rounding, roughly).
static bool g_diag = std::getenv("MODEL_DIAG") != nullptr;
// As the library (syevj_tridiag.cuh: kSolveRescale, kDependentKeep): the
// back substitution scales its column by 2^-50 when an entry passes 2^50;
// a group member that keeps less than 1e-2 of its norm through both
// Gram-Schmidt passes is left out of the later members' passes and, at the
// end of the step, replaced by a random vector orthogonalised against all
// the others. MODEL_OLD_STAGE=1: neither (the stage before them);
// MODEL_REPAIR=t: another threshold.
static bool g_old_stage = std::getenv("MODEL_OLD_STAGE") != nullptr;
static bool g_rescale = !g_old_stage;
static float g_repair = g_old_stage ? 0.f
                        : std::getenv("MODEL_REPAIR") ? float(std::atof(std::getenv("MODEL_REPAIR")))
                                                      : 1e-2f;
static unsigned g_perturb = std::getenv("MODEL_PERTURB") ? unsigned(std::atoi(std::getenv("MODEL_PERTURB"))) : 0u;
static void tridiag_vectors(int n, const vector<float> &d, const vector<float> &eg, vector<float> &lam, vector<float> &z,
                            int steps) {
  vector<float> e2(n, 0.f), u0(size_t(n) * n), u1(size_t(n) * n), u2(size_t(n) * n), dots(n);
  vector<int> start(n), flagged(n, 0);
  float lo_b = 3.4e38f, hi_b = -3.4e38f, tn = 0, em = 0;
  for (int i = 0; i < n; i++) {
    const float el = i > 0 ? std::fabs(eg[i - 1]) : 0.f, er = i + 1 < n ? std::fabs(eg[i]) : 0.f;
    e2[i] = er * er;
    lo_b = std::min(lo_b, d[i] - el - er);
    hi_b = std::max(hi_b, d[i] + el + er);
    tn = std::max(tn, std::fabs(d[i]) + el + er);
    em = std::max(em, er * er);
  }
  const float eps = 5.96046448e-08f, pivmin = 1.17549435e-38f * std::max(1.f, em), pad = 2 * eps * tn + 2 * pivmin;
  lo_b -= pad;
  hi_b += pad;
  lam.assign(n, 0.f);
  for (int j = 0; j < n; j++) {
    float lo = lo_b, hi = hi_b;
    for (int it = 0; it < 80; ++it) {
      const float mid = 0.5f * (lo + hi);
      if (hi - lo <= 2 * eps * std::max(std::fabs(lo), std::fabs(hi)) + pivmin || mid <= lo || mid >= hi) break;
      if (sturm_count(n, d.data(), e2.data(), mid, pivmin) > j) hi = mid;
      else lo = mid;
    }
    lam[j] = 0.5f * (lo + hi);
  }
  const float ortol = 1e-3f * tn;
  for (int j = 0, s0 = 0; j < n; j++) {
    if (j > 0 && lam[j] - lam[j - 1] > ortol) s0 = j;
    start[j] = s0;
  }
  const float tiny = std::max(eps * tn, pivmin);
  z.assign(size_t(n) * n, 0.f);
  for (int step = 0; step < steps; ++step) {
    int restarts = 0, rescales = 0;
    float maxss = 0;
    for (int j = 0; j < n; j++) {
      const float sj = lam[j];
      float p = d[0] - sj, q = n > 1 ? eg[0] : 0.f, r = 0.f;
      float beta = step == 0 ? start_entry(j, 0) : z[j];
      for (int k = 0; k + 1 < n; ++k) {
        const float sub = eg[k], dn = d[k + 1] - sj, en = k + 2 < n ? eg[k + 1] : 0.f;
        const float bn = step == 0 ? start_entry(j, k + 1) : z[size_t(k + 1) * n + j];
        const size_t o = size_t(k) * n + j;
        auto eliminate = [&](float a0, float a1, float a2, float ab, float c0, float c1, float c2, float cb) {
          const float mlt = c0 / a0;
          u0[o] = a0, u1[o] = a1, u2[o] = a2, z[o] = ab;
          p = c1 - mlt * a1, q = c2 - mlt * a2, r = 0.f, beta = cb - mlt * ab;
        };
        if (std::fabs(p) >= std::fabs(sub)) eliminate(std::fabs(p) < tiny ? std::copysign(tiny, p) : p, q, r, beta, sub, dn, en, bn);
        else eliminate(sub, dn, en, bn, p, q, r, beta);
      }
      const size_t ol = size_t(n - 1) * n + j;
      u0[ol] = std::fabs(p) < tiny ? std::copysign(tiny, p) : p;
      z[ol] = beta;
      float x1 = 0.f, x2 = 0.f, ss = 0.f;
      for (int k = n - 1; k >= 0; --k) {
        const size_t o = size_t(k) * n + j;
        float rhs = z[o];
        if (k + 1 < n) rhs -= u1[o] * x1;
        if (k + 2 < n) rhs -= u2[o] * x2;
        float x = rhs / u0[o];
        if (g_rescale && std::fabs(x) > 0x1p50f) {
          ++rescales;
          for (int i = 0; i < n; ++i) z[size_t(i) * n + j] *= 0x1p-50f;
          x *= 0x1p-50f, x1 *= 0x1p-50f, x2 *= 0x1p-50f, ss *= 0x1p-100f;
        }
        z[o] = x, x2 = x1, x1 = x, ss += x * x;
      }
      float sc = ss > 0 && ss < 3.4e38f ? 1.f / std::sqrt(ss) : 0.f;
      maxss = std::max(maxss, ss);
      if (!(sc > 0)) {
        ++restarts;
        ss = 0;
        for (int k = 0; k < n; ++k) {
          const float x = start_entry(j, k + 7 * step + 1);
          z[size_t(k) * n + j] = x, ss += x * x;
        }
        sc = 1.f / std::sqrt(ss);
      }
      for (int k = 0; k < n; ++k) z[size_t(k) * n + j] *= sc;
    }
    // As the kernel's project_out and normalize: column j less its
    // components along the unflagged columns c in [c0, c1), twice (with
    // MODEL_DIAG, what the first pass leaves is recorded); then unit norm,
    // returning the sum of squares before.
    int drop2 = 0, drop4 = 0, drop6 = 0;
    float minkeep = 1.f;
    auto project_out = [&](int j, int c0, int c1, bool record) {
      for (int pass = 0; pass < 2; ++pass) {
        if (pass == 1 && record && g_diag) {
          float kk = 0;
          for (int k = 0; k < n; ++k) kk += z[size_t(k) * n + j] * z[size_t(k) * n + j];
          kk = std::sqrt(kk);
          minkeep = std::min(minkeep, kk);
          drop2 += kk < 1e-2f, drop4 += kk < 1e-4f, drop6 += kk < 1e-6f;
        }
        for (int c = c0; c < c1; ++c) {
          float acc = 0;
          if (c != j && !flagged[c])
            for (int k = 0; k < n; ++k) acc += z[size_t(k) * n + c] * z[size_t(k) * n + j];
          dots[c - c0] = acc;
        }
        for (int k = 0; k < n; ++k) {
          float acc = 0;
          for (int c = c0; c < c1; ++c) acc += dots[c - c0] * z[size_t(k) * n + c];
          z[size_t(k) * n + j] -= acc;
        }
      }
    };
    auto normalize = [&](int j) {
      float ss = 0;
      for (int k = 0; k < n; ++k) ss += z[size_t(k) * n + j] * z[size_t(k) * n + j];
      const float sc = ss > 0 ? 1.f / std::sqrt(ss) : 0.f;
      for (int k = 0; k < n; ++k) z[size_t(k) * n + j] *= sc;
      return ss;
    };
    for (int j = 1; j < n; ++j) {
      const int s0 = start[j];
      if (s0 == j) continue;
      project_out(j, s0, j, true);
      const float ss = normalize(j);
      if (g_repair > 0 && !(ss >= g_repair * g_repair)) flagged[j] = 1;
    }
    // The dependent members: a new random vector, orthogonalised twice
    // against every vector that is not still waiting for this.
    int repaired = 0;
    for (int j = 1; j < n; ++j) {
      if (!flagged[j]) continue;
      ++repaired;
      for (int k = 0; k < n; ++k) z[size_t(k) * n + j] = start_entry(j, k + 7 * steps + 1);
      project_out(j, 0, n, false);
      normalize(j);
      flagged[j] = 0;
    }
    if (g_diag) {
      printf("  step %d: %d members replaced\n", step, repaired);
      // Largest |z_i . z_j| over pairs in different groups, and the group sizes.
      float cross = 0, within = 0, normdev = 0;
      for (int i = 0; i < n; ++i)
        for (int j = i; j < n; ++j) {
          double acc = 0;
          for (int k = 0; k < n; ++k) acc += double(z[size_t(k) * n + i]) * z[size_t(k) * n + j];
          if (i == j) normdev = std::max(normdev, float(std::fabs(acc - 1)));
          else if (start[i] == start[j]) {
            within = std::max(within, float(std::fabs(acc)));
          }
          else cross = std::max(cross, float(std::fabs(acc)));
        }
      printf("  step %d: largest | |z_j|^2 - 1 | %.2e, largest within-group |z_i . z_j| %.2e\n", step, normdev, within);
      int groups = 0, largest = 0;
      for (int j = 0; j < n; ++j)
        if (start[j] == j) {
          int m = 1;
          while (j + m < n && start[j + m] == j) ++m;
          ++groups, largest = std::max(largest, m);
        }
      printf("  step %d: %d groups (largest %d); kept norm after one CGS pass: min %.2e, below 1e-2: %d, 1e-4: %d, "
             "1e-6: %d; largest cross-group |z_i . z_j| %.2e; overflow restarts %d, rescales %d, largest sum of squares %.2e\n",
             step, groups, largest, minkeep, drop2, drop4, drop6, cross, restarts, rescales, maxss);
    }
  }
}

// start: 0 LAPACKE ?syevd / ?heevd in single precision; 1 the CUDA
// tridiagonal stage's eigenvectors of T (LAPACKE ?sytrd / ?hetrd and
// ?ormtr / ?unmtr in single precision around tridiag_vectors, with the
// library's orthogonalizing first update from n = 257), `steps` inverse
// iteration steps.
static int g_start = 0, g_steps = 3;
static std::uint64_t g_test_seed = 1;

template <class T>
void run(int n, int fam, unsigned seed, int iters) {
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<double> U(-1, 1);
  auto rnd = [&]() -> T {
    if constexpr (std::is_same_v<T, double>)
      return U(g);
    else
      return T(U(g), U(g));
  };
  vector<T> A(n * n);
  if (fam == 5) {  // the tests' orth-similar-cluster matrix of seed g_test_seed (unit magnitude);
                   // MODEL_HERM_FAMILY=k: the tests' family k (bt::HermFamily) instead
    const char *hf = std::getenv("MODEL_HERM_FAMILY");
    const auto family = hf ? static_cast<bt::HermFamily>(std::atoi(hf)) : bt::HermFamily::OrthCluster;
    const auto hm = bt::make_herm_matrix<T>(family, bt::Magnitude::Unit, n, g_test_seed);
    printf("%s\n", hm.describe().c_str());
    A = hm.a;
  } else if (fam == 0 || fam == 6) {
    // 6: I + 2^-26 R, R random Hermitian (the bitcheck's nearly-identity kind)
    for (int j = 0; j < n; j++)
      for (int i = 0; i <= j; i++) {
        T v = rnd();
        if (i == j) v = re(v);
        if (fam == 6) v = v * std::ldexp(1.0, -26) + (i == j ? 1.0 : 0.0);
        A[i + j * n] = v;
        A[j + i * n] = cj(v);
      }
  } else {
    vector<T> Q(n * n);
    for (auto &q : Q) q = rnd();
    vector<T> tau(n);
    if constexpr (std::is_same_v<T, double>) {
      LAPACKE_dgeqrf(LAPACK_COL_MAJOR, n, n, Q.data(), n, tau.data());
      LAPACKE_dorgqr(LAPACK_COL_MAJOR, n, n, n, Q.data(), n, tau.data());
    } else {
      LAPACKE_zgeqrf(LAPACK_COL_MAJOR, n, n, (lapack_complex_double *)Q.data(), n, (lapack_complex_double *)tau.data());
      LAPACKE_zungqr(LAPACK_COL_MAJOR, n, n, n, (lapack_complex_double *)Q.data(), n,
                     (lapack_complex_double *)tau.data());
    }
    vector<double> d(n);
    for (int i = 0; i < n; i++) {
      if (fam == 1) d[i] = i < n / 2 ? 1 + 1e-9 * U(g) : U(g);                          // half in a 1e-9 cluster
      if (fam == 2) d[i] = (i / 2) * (2.0 / n) - 1 + (i % 2) * 1e-6;                    // pairs 1e-6 apart
      if (fam == 3) d[i] = std::pow(1e-12, double(i) / (n - 1)) * (U(g) < 0 ? -1 : 1);  // geometric
      // one at 1, the rest at +-sqrt(u) (the tests' orth-similar-cluster)
      if (fam == 4) d[i] = (i == 0 ? 1 : 1.0536712127723509e-08) * (U(g) < 0 ? -1 : 1);
    }
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        T s = 0;
        for (int k = 0; k < n; k++) s += Q[i + k * n] * d[k] * cj(Q[j + k * n]);
        A[i + j * n] = s;
      }
    for (int j = 0; j < n; j++)
      for (int i = 0; i < j; i++) {
        T v = (A[i + j * n] + cj(A[j + i * n])) / 2.0;
        A[i + j * n] = v;
        A[j + i * n] = cj(v);
      }
    for (int i = 0; i < n; i++) A[i + i * n] = re(A[i + i * n]);
  }
  // reference eigenvalues (double)
  vector<double> ref(n);
  {
    vector<T> B = A;
    vector<double> w(n);
    if constexpr (std::is_same_v<T, double>)
      LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, B.data(), n, ref.data());
    else
      LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', n, (lapack_complex_double *)B.data(), n, ref.data());
  }
  // float stage
  vector<T> X(n * n);
  vector<double> lam(n);
  {
    using F = std::conditional_t<std::is_same_v<T, double>, float, std::complex<float>>;
    vector<F> B(n * n);
    vector<float> w(n);
    for (int i = 0; i < n * n; i++) B[i] = F(A[i]);
    if (g_start == 0) {
      if constexpr (std::is_same_v<T, double>)
        LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'V', 'L', n, B.data(), n, w.data());
      else
        LAPACKE_cheevd(LAPACK_COL_MAJOR, 'V', 'L', n, (lapack_complex_float *)B.data(), n, w.data());
    } else {
      vector<float> d(n), e(n, 0.f), lf, z;
      vector<F> tau(n);
      if constexpr (std::is_same_v<T, double>)
        LAPACKE_ssytrd(LAPACK_COL_MAJOR, 'L', n, B.data(), n, d.data(), e.data(), tau.data());
      else
        LAPACKE_chetrd(LAPACK_COL_MAJOR, 'L', n, (lapack_complex_float *)B.data(), n, d.data(), e.data(),
                       (lapack_complex_float *)tau.data());
      if (g_perturb) {
        std::mt19937 prng(g_perturb);
        std::uniform_real_distribution<float> ur(-1.f, 1.f);
        for (int i = 0; i < n; i++) d[i] *= 1.f + ur(prng) * 0x1p-23f;
        for (int i = 0; i + 1 < n; i++) e[i] *= 1.f + ur(prng) * 0x1p-23f;
      }
      // MODEL_DUMP=file (complex only): batcheig_syevj_tridiag_dump's GPU
      // stage on this matrix; T, the reflectors and tau from the GPU, and
      // the GPU's Z and X compared with the model's.
      struct Dump {
        vector<float> de, z;
        vector<F> a32, tau;
        vector<T> x, a;
      } dump;
      const char *dump_file = std::getenv("MODEL_DUMP");
      if constexpr (!std::is_same_v<T, double>) {
        if (dump_file) {
          std::FILE *f = std::fopen(dump_file, "rb");
          int dn = 0;
          if (!f || std::fread(&dn, sizeof dn, 1, f) != 1 || dn != n) {
            std::fprintf(stderr, "MODEL_DUMP: cannot read %s for n = %d\n", dump_file, n);
            std::exit(1);
          }
          const size_t nn = size_t(n) * n;
          dump.de.resize(2 * size_t(n)), dump.z.resize(nn), dump.a32.resize(nn), dump.tau.resize(n);
          dump.x.resize(nn), dump.a.resize(nn);
          bool ok = std::fread(dump.de.data(), sizeof(float), dump.de.size(), f) == dump.de.size();
          ok = ok && std::fread(dump.a32.data(), sizeof(F), nn, f) == nn;
          ok = ok && std::fread(dump.tau.data(), sizeof(F), size_t(n), f) == size_t(n);
          ok = ok && std::fread(dump.z.data(), sizeof(float), nn, f) == nn;
          ok = ok && std::fread(dump.x.data(), sizeof(T), nn, f) == nn;
          ok = ok && std::fread(dump.a.data(), sizeof(T), nn, f) == nn;
          std::fclose(f);
          if (!ok) std::exit(1);
          double adiff = 0;
          for (size_t i = 0; i < nn; i++) adiff = std::max(adiff, std::abs(dump.a[i] - A[i]));
          double dd = 0, ed = 0;
          for (int i = 0; i < n; i++) dd = std::max(dd, double(std::fabs(dump.de[i] - d[i])));
          for (int i = 0; i + 1 < n; i++) ed = std::max(ed, double(std::fabs(std::fabs(dump.de[n + i]) - std::fabs(e[i]))));
          printf("  dump: max |A_dump - A| %.2e; GPU T against LAPACKE's: max |d diff| %.2e, max ||e| diff| %.2e\n",
                 adiff, dd, ed);
          for (int i = 0; i < n; i++) d[i] = dump.de[i];
          for (int i = 0; i + 1 < n; i++) e[i] = dump.de[n + i];
          B = dump.a32;
          tau = dump.tau;
        }
      }
      tridiag_vectors(n, d, e, lf, z, g_steps);
      vector<F> Z(size_t(n) * n);
      for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++) Z[k + size_t(j) * n] = F(z[size_t(k) * n + j]);
      if (dump_file && !dump.z.empty()) {
        // ||Z^T Z - I||_F for the GPU's and the model's Z, and their largest difference.
        auto orth_z = [n](const vector<float> &zz) {
          double s2 = 0;
          for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
              double acc = 0;
              for (int k = 0; k < n; k++) acc += double(zz[size_t(k) * n + i]) * zz[size_t(k) * n + j];
              s2 += (acc - (i == j)) * (acc - (i == j));
            }
          return std::sqrt(s2);
        };
        double zd = 0;
        for (size_t i = 0; i < z.size(); i++) zd = std::max(zd, double(std::fabs(z[i] - dump.z[i])));
        printf("  dump: ||Z^T Z - I||_F GPU %.3e, model on GPU T %.3e; max |z_gpu - z_model| %.2e\n", orth_z(dump.z),
               orth_z(z), zd);
      }
      if constexpr (std::is_same_v<T, double>)
        LAPACKE_sormtr(LAPACK_COL_MAJOR, 'L', 'L', 'N', n, n, B.data(), n, tau.data(), Z.data(), n);
      else
        LAPACKE_cunmtr(LAPACK_COL_MAJOR, 'L', 'L', 'N', n, n, (lapack_complex_float *)B.data(), n,
                       (lapack_complex_float *)tau.data(), (lapack_complex_float *)Z.data(), n);
      B = Z;
      for (int i = 0; i < n; i++) w[i] = lf[i];
      if constexpr (!std::is_same_v<T, double>) {
        if (dump_file && !dump.x.empty()) {
          auto orth_x = [n](auto get) {
            double s2 = 0;
            for (int i = 0; i < n; i++)
              for (int j = 0; j < n; j++) {
                std::complex<double> acc = 0;
                for (int k = 0; k < n; k++) acc += std::conj(get(k, i)) * get(k, j);
                if (i == j) acc -= 1.0;
                s2 += std::norm(acc);
              }
            return std::sqrt(s2);
          };
          double xd = 0;
          for (size_t i = 0; i < B.size(); i++) xd = std::max(xd, std::abs(T(B[i]) - dump.x[i]));
          printf("  dump: ||X^H X - I||_F GPU %.3e, model (cunmtr on the GPU's reflectors) %.3e; max |x_gpu - x_model| "
                 "%.2e\n",
                 orth_x([&](int k, int j) { return dump.x[k + size_t(j) * n]; }),
                 orth_x([&](int k, int j) { return std::complex<double>(B[k + size_t(j) * n]); }), xd);
          if (std::getenv("MODEL_DUMP_X"))
            for (size_t i = 0; i < B.size(); i++) B[i] = F(dump.x[i]);
        }
      }
    }
    for (int i = 0; i < n * n; i++) X[i] = T(B[i]);
    for (int i = 0; i < n; i++) lam[i] = w[i];
  }
  const char *names[] = {"random", "cluster1e-9", "pairs1e-6", "geometric", "one+sqrt(u)cluster", "tests' orth-similar-cluster",
                         "I + 2^-26 R"};
  printf("%s n=%d %s\n", std::is_same_v<T, double> ? "D" : "Z", n, names[fam]);
  for (int it = 1; it <= iters; it++) {
    int gr = refine_step(n, A, X, lam, g_start == 1 && n >= 257 && it == 1);
    char tag[32];
    snprintf(tag, 32, "it %d (grouped %d)", it, gr);
    report(n, A, X, lam, ref, tag);
  }
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 64, iters = argc > 2 ? atoi(argv[2]) : 3;
  // argv[3]: one family only (0-4; 4 is not in the default run), argv[4]:
  // d or z only.
  const int only = argc > 3 ? atoi(argv[3]) : -1;
  const char prec = argc > 4 ? argv[4][0] : 'b';
  // argv[5]: the start (0 LAPACKE, 1 the tridiagonal stage's vectors),
  // argv[6]: its inverse-iteration steps (3, as the library).
  g_start = argc > 5 ? atoi(argv[5]) : 0;
  g_steps = argc > 6 ? atoi(argv[6]) : 3;
  // argv[7]: family 5's seed (tests/support/herm_generators.hpp).
  g_test_seed = argc > 7 ? std::strtoull(argv[7], nullptr, 10) : 1;
  for (int fam = 0; fam < 7; fam++) {
    if (only >= 0 ? fam != only : fam >= 4) continue;
    if (prec != 'z') run<double>(n, fam, 7 + fam, iters);
    if (prec != 'd') run<std::complex<double>>(n, fam, 17 + fam, iters);
  }
}
