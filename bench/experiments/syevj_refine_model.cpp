// syevj_refine_model.cpp: a host model (plain-loop GEMMs, LAPACKE, and the
// library's core::jacobi::refine_update for the per-matrix step) of a
// double-precision finish for syevj/heevj from single-precision
// eigenvectors, the candidate for issue 5's large n (docs/performance.md,
// session 44). Not part of the library or its tests; built on request:
//   ninja -C build/release batcheig_syevj_refine_model
//   build/release/bench/batcheig_syevj_refine_model [n] [iterations] [family] [d|z]
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
int refine_step(int n, const vector<T> &A, vector<T> &X, vector<double> &lam) {
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
      core::MatView<C>{reinterpret_cast<C *>(S.data()), n, 1}, core::VecView<double>{lam.data(), 1}, ws);
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
  if (fam == 0) {
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
    if constexpr (std::is_same_v<T, double>)
      LAPACKE_ssyevd(LAPACK_COL_MAJOR, 'V', 'L', n, B.data(), n, w.data());
    else
      LAPACKE_cheevd(LAPACK_COL_MAJOR, 'V', 'L', n, (lapack_complex_float *)B.data(), n, w.data());
    for (int i = 0; i < n * n; i++) X[i] = T(B[i]);
    for (int i = 0; i < n; i++) lam[i] = w[i];
  }
  const char *names[] = {"random", "cluster1e-9", "pairs1e-6", "geometric", "one+sqrt(u)cluster"};
  printf("%s n=%d %s\n", std::is_same_v<T, double> ? "D" : "Z", n, names[fam]);
  for (int it = 1; it <= iters; it++) {
    int gr = refine_step(n, A, X, lam);
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
  for (int fam = 0; fam < 5; fam++) {
    if (only >= 0 ? fam != only : fam == 4) continue;
    if (prec != 'z') run<double>(n, fam, 7 + fam, iters);
    if (prec != 'd') run<std::complex<double>>(n, fam, 17 + fam, iters);
  }
}
