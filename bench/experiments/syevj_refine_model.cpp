// syevj_refine_model.cpp: a host model (plain loops and LAPACKE) of a
// double-precision finish for syevj/heevj from single-precision
// eigenvectors, the candidate for issue 5's large n (docs/performance.md,
// session 44). Not part of the library or its tests; built on request:
//   ninja -C build/release batcheig_syevj_refine_model
//   build/release/bench/batcheig_syevj_refine_model [n] [iterations]
//
// One iteration, X the current eigenvectors (n x n), A Hermitian:
//   P = A X, C = X^H X, S = X^H P (GEMMs; C and S as one X^H [X P]);
//   lambda_i = s_ii / c_ii, R = I - C;
//   delta = max(kDeltaFactor (||S - diag lambda||_F + max|lambda| ||R||_F),
//               kDeltaFloor max|lambda|);
//   groups: runs of the sorted lambda with gaps <= delta;
//   E = R/2 + W, W anti-Hermitian (computed for i < j, mirrored):
//     w_ij = (s_ij + r_ij (lambda_i + lambda_j)/2) / (lambda_j - lambda_i)
//   for i, j in different groups, 0 within a group. This is Ogita and
//   Aishima's first-order update E_ij = (s_ij + lambda_j r_ij) /
//   (lambda_j - lambda_i), but its Hermitian part, which restores
//   orthogonality, does not go through the division by the gap;
//   F = I + E; for each group g of two or more, F(:, g) <- F(:, g) Q_g with
//   Q_g the eigenvectors of S_gg - m I + m R_gg (m the group's mean
//   lambda; LAPACKE ?heev in double), and lambda_g <- m + its eigenvalues;
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
#include <numeric>
#include <random>
#include <vector>
using std::vector;
template <class T>
struct Rt {
  using type = T;
};
template <class R>
struct Rt<std::complex<R>> {
  using type = R;
};
template <class T>
using real_t = typename Rt<T>::type;
inline double cj(double x) { return x; }
inline std::complex<double> cj(std::complex<double> x) { return std::conj(x); }
inline double re(double x) { return x; }
inline double re(std::complex<double> x) { return x.real(); }
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
// small Hermitian eigensolver (LAPACKE) in double
void heev(int m, vector<double> &a, vector<double> &w) {
  LAPACKE_dsyev(LAPACK_COL_MAJOR, 'V', 'L', m, a.data(), m, w.data());
}
void heev(int m, vector<std::complex<double>> &a, vector<double> &w) {
  LAPACKE_zheev(LAPACK_COL_MAJOR, 'V', 'L', m, (lapack_complex_double *)a.data(), m, w.data());
}

// One iteration: X (n x n) updated; lam out. Returns number of grouped columns.
// Pairs closer than this (relative to max |lambda|) always go to a group:
// their W would be mostly the rounding of S divided by a tiny gap. 1e-6
// also groups the eigenvalues single precision cannot resolve (1e-8 left a
// geometric spectrum 1 .. 1e-8 of the tests needing more iterations).
constexpr double kDeltaFloor = 1e-6;
// delta's multiple of the first-order error bound. Ogita and Aishima use 2;
// 20 puts more near-degenerate pairs into groups (solved exactly), which
// took the geometric family from 4-6 iterations to 3 (n = 32..128).
constexpr double kDeltaFactor = 20;

template <class T>
int refine_step(int n, const vector<T> &A, vector<T> &X, vector<double> &lam) {
  vector<T> P(n * n), C(n * n), S(n * n), F(n * n);
  gemm(n, false, A.data(), X.data(), P.data());
  gemm(n, true, X.data(), X.data(), C.data());
  gemm(n, true, X.data(), P.data(), S.data());
  for (int i = 0; i < n; i++) lam[i] = re(S[i + i * n]) / re(C[i + i * n]);
  double offs = 0, rr = 0, amax = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      T r = (i == j ? T(1) : T(0)) - C[i + j * n];
      C[i + j * n] = r;  // C now holds R
      T s = S[i + j * n] - (i == j ? T(lam[i]) : T(0));
      offs += std::norm(s);
      rr += std::norm(r);
    }
  for (int i = 0; i < n; i++) amax = std::max(amax, std::abs(lam[i]));
  const double delta = std::max(kDeltaFactor * (std::sqrt(offs) + amax * std::sqrt(rr)), kDeltaFloor * amax);
  // groups over sorted order
  vector<int> ord(n);
  std::iota(ord.begin(), ord.end(), 0);
  std::sort(ord.begin(), ord.end(), [&](int a, int b) { return lam[a] < lam[b]; });
  vector<int> gid(n);
  int g = 0;
  for (int k = 0; k < n; k++) {
    if (k > 0 && lam[ord[k]] - lam[ord[k - 1]] > delta) g++;
    gid[ord[k]] = g;
  }
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      T e;
      e = C[i + j * n] / 2.0;  // R/2: the Hermitian part, orthonormalizes to first order
      if (i != j && gid[i] != gid[j]) {
        // the anti-Hermitian part W, computed for i < j and mirrored so that W^H = -W exactly
        const int p = std::min(i, j), q = std::max(i, j);
        T sh = (S[p + q * n] + cj(S[q + p * n])) / 2.0, rh = (C[p + q * n] + cj(C[q + p * n])) / 2.0;
        T w = (sh + rh * ((lam[p] + lam[q]) / 2)) / (lam[q] - lam[p]);
        e = (i < j ? rh / 2.0 + w : cj(rh) / 2.0 - cj(w));
      }
      F[i + j * n] = (i == j ? T(1) : T(0)) + e;
    }
  int grouped = 0;
  for (int k = 0; k < n;) {
    int k2 = k;
    while (k2 + 1 < n && gid[ord[k2 + 1]] == gid[ord[k]]) k2++;
    int m = k2 - k + 1;
    if (m > 1) {
      grouped += m;
      vector<int> idx(ord.begin() + k, ord.begin() + k2 + 1);
      double mean = 0;
      for (int i : idx) mean += lam[i];
      mean /= m;
      vector<T> M(m * m);
      vector<double> w(m);
      for (int b = 0; b < m; b++)
        for (int a = 0; a < m; a++) {
          int i = idx[a], j = idx[b];
          M[a + b * m] = S[i + j * n] - (a == b ? T(mean) : T(0)) + mean * C[i + j * n];
        }
      heev(m, M, w);
      // F(:, idx) <- F(:, idx) Q
      vector<T> tmp(n * m, T(0));
      for (int b = 0; b < m; b++)
        for (int a = 0; a < m; a++)
          for (int r = 0; r < n; r++) tmp[r + b * n] += F[r + idx[a] * n] * M[a + b * m];
      for (int b = 0; b < m; b++) {
        for (int r = 0; r < n; r++) F[r + idx[b] * n] = tmp[r + b * n];
        lam[idx[b]] = mean + w[b];
      }
    }
    k = k2 + 1;
  }
  gemm(n, false, X.data(), F.data(), P.data());
  X = P;
  return grouped;
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
  const char *names[] = {"random", "cluster1e-9", "pairs1e-6", "geometric"};
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
  for (int fam = 0; fam < 4; fam++) {
    run<double>(n, fam, 7 + fam, iters);
    run<std::complex<double>>(n, fam, 17 + fam, iters);
  }
}
