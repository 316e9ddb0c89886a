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

template <class T>
void gemm(int n, bool ta, const T *a, const T *b, T *c) {  // c = op(a) b, op = ^H if ta
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
static void tridiag_vectors(int n, const vector<float> &d, const vector<float> &eg, vector<float> &lam, vector<float> &z,
                            int steps) {
  vector<float> e2(n, 0.f), u0(size_t(n) * n), u1(size_t(n) * n), u2(size_t(n) * n), dots(n);
  vector<int> start(n);
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
        const float x = rhs / u0[o];
        z[o] = x, x2 = x1, x1 = x, ss += x * x;
      }
      float sc = ss > 0 && ss < 3.4e38f ? 1.f / std::sqrt(ss) : 0.f;
      if (!(sc > 0)) {
        ss = 0;
        for (int k = 0; k < n; ++k) {
          const float x = start_entry(j, k + 7 * step + 1);
          z[size_t(k) * n + j] = x, ss += x * x;
        }
        sc = 1.f / std::sqrt(ss);
      }
      for (int k = 0; k < n; ++k) z[size_t(k) * n + j] *= sc;
    }
    for (int j = 1; j < n; ++j) {
      const int s0 = start[j];
      if (s0 == j) continue;
      for (int pass = 0; pass < 2; ++pass) {
        for (int c = s0; c < j; ++c) {
          float acc = 0;
          for (int k = 0; k < n; ++k) acc += z[size_t(k) * n + c] * z[size_t(k) * n + j];
          dots[c - s0] = acc;
        }
        for (int k = 0; k < n; ++k) {
          float acc = 0;
          for (int c = s0; c < j; ++c) acc += dots[c - s0] * z[size_t(k) * n + c];
          z[size_t(k) * n + j] -= acc;
        }
      }
      float ss = 0;
      for (int k = 0; k < n; ++k) ss += z[size_t(k) * n + j] * z[size_t(k) * n + j];
      const float sc = ss > 0 ? 1.f / std::sqrt(ss) : 0.f;
      for (int k = 0; k < n; ++k) z[size_t(k) * n + j] *= sc;
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
  if (fam == 5) {  // the tests' orth-similar-cluster matrix of seed g_test_seed (unit magnitude)
    const auto hm = bt::make_herm_matrix<T>(bt::HermFamily::OrthCluster, bt::Magnitude::Unit, n, g_test_seed);
    A = hm.a;
  } else if (fam == 0) {
    for (int j = 0; j < n; j++)
      for (int i = 0; i <= j; i++) {
        T v = rnd();
        if (i == j) v = re(v);
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
      tridiag_vectors(n, d, e, lf, z, g_steps);
      vector<F> Z(size_t(n) * n);
      for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++) Z[k + size_t(j) * n] = F(z[size_t(k) * n + j]);
      if constexpr (std::is_same_v<T, double>)
        LAPACKE_sormtr(LAPACK_COL_MAJOR, 'L', 'L', 'N', n, n, B.data(), n, tau.data(), Z.data(), n);
      else
        LAPACKE_cunmtr(LAPACK_COL_MAJOR, 'L', 'L', 'N', n, n, (lapack_complex_float *)B.data(), n,
                       (lapack_complex_float *)tau.data(), (lapack_complex_float *)Z.data(), n);
      B = Z;
      for (int i = 0; i < n; i++) w[i] = lf[i];
    }
    for (int i = 0; i < n * n; i++) X[i] = T(B[i]);
    for (int i = 0; i < n; i++) lam[i] = w[i];
  }
  const char *names[] = {"random", "cluster1e-9", "pairs1e-6", "geometric", "one+sqrt(u)cluster", "tests' orth-similar-cluster"};
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
  for (int fam = 0; fam < 6; fam++) {
    if (only >= 0 ? fam != only : fam >= 4) continue;
    if (prec != 'z') run<double>(n, fam, 7 + fam, iters);
    if (prec != 'd') run<std::complex<double>>(n, fam, 17 + fam, iters);
  }
}
