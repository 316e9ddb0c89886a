// Scaled accuracy ratios for eigenproblems (LAPACK TESTING style), computed
// overflow-safely and in wider precision than the data.
//
// Overflow safety: every ratio is invariant under A -> s*A, lambda -> s*lambda
// (eigenvectors unchanged), so we first multiply A and the eigenvalues by an
// exact power of two sigma with max|sigma*a_ij| in [1,2) and compute in that
// frame. Scaling by a power of two is exact except for entries that were or
// become subnormal, whose error is far below u*||A||. The products are then
// accumulated in acc_t<T> (double for single precision, x87 long double for
// double precision), so the test's own rounding stays well below u*||A||.
//
// The unit roundoff u is eps/2 (FLT_EPSILON/2, DBL_EPSILON/2); LAPACK's
// TESTING uses ulp = eps, so the same threshold is twice as strict here.
#ifndef BATCHEIG_TESTS_SUPPORT_RATIOS_HPP
#define BATCHEIG_TESTS_SUPPORT_RATIOS_HPP

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "scalar.hpp"

namespace bt {

/// DESIGN.md section 5: threshold for every non-symmetric ratio.
inline constexpr double kGeevThreshold = 20.0;
/// The library's eigenvectors have unit 2-norm to within about one ulp at
/// any n (core::detail::normalize_wide for float types, core::renormalize_unit
/// for double types); |‖v‖ - 1|/u is held to this bound. LAPACK
/// itself, summing the squares in working precision, reaches about sqrt(n)
/// ulps (18 at n = 512), so LAPACKE's vectors are held only to
/// kGeevThreshold.
inline constexpr double kGeevUnitNormThreshold = 3.0;
/// DESIGN.md section 5: threshold for every symmetric/Hermitian ratio.
inline constexpr double kSyevThreshold = 60.0;

/// max() that propagates NaN (a NaN anywhere makes the result NaN, and
/// "ratio <= threshold" is then false).
template <class W>
W nan_max(W a, W b) {
  if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<W>::quiet_NaN();
  return std::max(a, b);
}

/// sigma * A in wide complex precision, sigma a power of two.
template <class T>
struct ScaledMatrix {
  using W = acc_t<T>;
  int n = 0;
  W sigma = 1;
  std::vector<std::complex<W>> a;  // n x n, ld n
  W norm1 = 0;    ///< ||sigma*A||_1 (max column sum)
  W norminf = 0;  ///< ||sigma*A||_inf (max row sum) = ||(sigma*A)^H||_1
  W norm_max() const { return std::max(norm1, norminf); }  ///< >= ||sigma*A||_2
  const std::complex<W> &operator()(int i, int j) const { return a[static_cast<size_t>(j) * n + i]; }
  std::complex<W> scale(const std::complex<real_t<T>> &z) const {
    return std::complex<W>(static_cast<W>(z.real()) * sigma, static_cast<W>(z.imag()) * sigma);
  }
};

template <class T>
ScaledMatrix<T> scale_matrix(const T *A, int lda, int n) {
  using W = acc_t<T>;
  using R = real_t<T>;
  ScaledMatrix<T> s;
  s.n = n;
  R amax = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) amax = std::max(amax, abs_max_part(A[static_cast<size_t>(j) * lda + i]));
  s.sigma = (amax > 0 && std::isfinite(amax)) ? std::ldexp(W(1), -std::ilogb(amax)) : W(1);
  s.a.resize(static_cast<size_t>(n) * n);
  std::vector<W> rowsum(static_cast<size_t>(n), W(0));
  for (int j = 0; j < n; ++j) {
    W colsum = 0;
    for (int i = 0; i < n; ++i) {
      const std::complex<W> x = to_wide<W>(A[static_cast<size_t>(j) * lda + i]) * s.sigma;
      s.a[static_cast<size_t>(j) * n + i] = x;
      colsum += std::abs(x);
      rowsum[i] += std::abs(x);
    }
    s.norm1 = std::max(s.norm1, colsum);
  }
  for (W r : rowsum) s.norminf = std::max(s.norminf, r);
  return s;
}

template <class T>
ScaledMatrix<T> scale_matrix(const std::vector<T> &a, int n) {
  return scale_matrix<T>(a.data(), n, n);
}

/// Right residual  ||A VR - VR Lambda||_1 / (n ||A||_1 u).
/// V is n x n complex (unpacked), one eigenvector per column.
/// (LAPACK's dget22 additionally divides by ||VR||_1 >= 1; we do not, which
/// is stricter by at most sqrt(n).)
template <class T>
acc_t<T> right_residual_ratio(const ScaledMatrix<T> &S, const std::vector<std::complex<real_t<T>>> &lambda,
                              const std::vector<std::complex<real_t<T>>> &V) {
  using W = acc_t<T>;
  const int n = S.n;
  if (n == 0) return 0;
  W res = 0;
  std::vector<std::complex<W>> v(n), r(n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) v[i] = to_wide<W>(V[static_cast<size_t>(j) * n + i]);
    const std::complex<W> lam = S.scale(lambda[j]);
    for (int i = 0; i < n; ++i) r[i] = -lam * v[i];
    for (int k = 0; k < n; ++k) {
      const std::complex<W> vk = v[k];
      for (int i = 0; i < n; ++i) r[i] += S(i, k) * vk;
    }
    W col = 0;
    for (int i = 0; i < n; ++i) col += std::abs(r[i]);
    res = nan_max(res, col);
  }
  const W denom = static_cast<W>(n) * std::max(S.norm1, std::numeric_limits<W>::min()) *
                  static_cast<W>(unit_roundoff<real_t<T>>());
  return res / denom;
}

/// Left residual  ||A^H VL - VL Lambda^H||_1 / (n ||A^H||_1 u): a left
/// eigenvector u_j satisfies u_j^H A = lambda_j u_j^H, i.e.
/// A^H u_j = conj(lambda_j) u_j. ||A^H||_1 = ||A||_inf.
template <class T>
acc_t<T> left_residual_ratio(const ScaledMatrix<T> &S, const std::vector<std::complex<real_t<T>>> &lambda,
                             const std::vector<std::complex<real_t<T>>> &VL) {
  using W = acc_t<T>;
  const int n = S.n;
  if (n == 0) return 0;
  W res = 0;
  std::vector<std::complex<W>> v(n);
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < n; ++i) v[i] = to_wide<W>(VL[static_cast<size_t>(j) * n + i]);
    const std::complex<W> lamc = std::conj(S.scale(lambda[j]));
    W col = 0;
    for (int i = 0; i < n; ++i) {
      std::complex<W> ri = -lamc * v[i];
      for (int k = 0; k < n; ++k) ri += std::conj(S(k, i)) * v[k];
      col += std::abs(ri);
    }
    res = nan_max(res, col);
  }
  const W denom = static_cast<W>(n) * std::max(S.norminf, std::numeric_limits<W>::min()) *
                  static_cast<W>(unit_roundoff<real_t<T>>());
  return res / denom;
}

/// max_j | ||v_j||_2 - 1 | / u over the columns of V (n x n complex).
template <class T>
acc_t<T> normalization_ratio(int n, const std::vector<std::complex<real_t<T>>> &V) {
  using W = acc_t<T>;
  W worst = 0;
  for (int j = 0; j < n; ++j) {
    W s = 0;
    for (int i = 0; i < n; ++i) s += std::norm(to_wide<W>(V[static_cast<size_t>(j) * n + i]));
    worst = nan_max(worst, std::abs(std::sqrt(s) - W(1)));
  }
  return worst / static_cast<W>(unit_roundoff<real_t<T>>());
}

/// Is the largest component of each eigenvector real? LAPACK (xGEEV)
/// rotates each vector so that its component of largest modulus is real,
/// and sets that imaginary part to exactly zero (complex T: Im v(k) = 0;
/// real T pair j,j+1: V(k,j+1) = 0). Components whose modulus ties with the
/// maximum to within 8u (rounding of the final rotation) are all accepted as
/// "the largest". Returns "" or a description of the first violation.
template <class T>
std::string largest_component_real(int n, const T *V, int ldv, const real_t<T> *wi) {
  using R = real_t<T>;
  using W = acc_t<T>;
  const W tol = 1 - 16 * static_cast<W>(unit_roundoff<R>());  // on squared moduli
  auto at = [&](int i, int j) -> const T & { return V[static_cast<size_t>(j) * ldv + i]; };
  int j = 0;
  while (j < n) {
    bool pair = false;
    std::vector<W> mod2(n);
    if constexpr (is_complex_v<T>) {
      for (int i = 0; i < n; ++i) mod2[i] = std::norm(to_wide<W>(at(i, j)));
    } else {
      pair = (wi != nullptr && wi[j] > 0 && j + 1 < n);
      for (int i = 0; i < n; ++i) {
        const W re = at(i, j), im = pair ? static_cast<W>(at(i, j + 1)) : W(0);
        mod2[i] = re * re + im * im;
      }
    }
    W mx = 0;
    for (W m : mod2) mx = std::max(mx, m);
    bool ok = false;
    if constexpr (is_complex_v<T>) {
      for (int i = 0; i < n && !ok; ++i) ok = mod2[i] >= tol * mx && at(i, j).imag() == R(0);
    } else {
      if (!pair) {
        ok = true;  // a real eigenvector is real
      } else {
        for (int i = 0; i < n && !ok; ++i) ok = mod2[i] >= tol * mx && at(i, j + 1) == R(0);
      }
    }
    if (!ok) return "eigenvector " + std::to_string(j) + ": no component of largest modulus is real";
    j += pair ? 2 : 1;
  }
  return "";
}

/// Real T: LAPACK packing of complex-conjugate pairs: wi[j] > 0,
/// wi[j+1] == -wi[j], wr[j+1] == wr[j] (bitwise), real eigenvalues wi == 0.
/// Returns "" or a description.
template <class R>
std::string check_pair_packing(int n, const R *wr, const R *wi) {
  int j = 0;
  while (j < n) {
    if (wi[j] == R(0)) {
      ++j;
      continue;
    }
    if (!(wi[j] > 0)) return "eigenvalue " + std::to_string(j) + ": negative (or NaN) imaginary part not preceded by its conjugate";
    if (j + 1 >= n) return "eigenvalue " + std::to_string(j) + ": complex eigenvalue without a conjugate partner";
    if (!(wi[j + 1] == -wi[j])) return "pair " + std::to_string(j) + ": wi[j+1] != -wi[j]";
    if (!bits_equal(wr[j], wr[j + 1])) return "pair " + std::to_string(j) + ": wr[j+1] != wr[j]";
    j += 2;
  }
  return "";
}

// ---------------------------------------------------------------------------
// Eigenvalue matching.

namespace detail {
/// Kuhn's augmenting-path bipartite matching: can every left vertex
/// (0..n_left-1) be matched to a distinct right vertex, adj[i] listing the
/// admissible right vertices of i?
inline bool has_left_saturating_matching(const std::vector<std::vector<int>> &adj, int n_left, int n_right) {
  std::vector<int> match_right(n_right, -1);
  std::vector<char> seen;
  std::function<bool(int)> augment = [&](int i) -> bool {
    for (int j : adj[i]) {
      if (seen[j]) continue;
      seen[j] = 1;
      if (match_right[j] < 0 || augment(match_right[j])) {
        match_right[j] = i;
        return true;
      }
    }
    return false;
  };
  for (int i = 0; i < n_left; ++i) {
    seen.assign(n_right, 0);
    if (!augment(i)) return false;
  }
  return true;
}
}  // namespace detail

/// Pair every `got` eigenvalue with a distinct `ref` eigenvalue
/// (got.size() <= ref.size(); equal sizes: a one-to-one pairing of the
/// sets). ratio(i,j) = |got_i - ref_j| / unit_j. Returns the bottleneck
/// value: the smallest t such that some pairing has every pair's ratio
/// <= t. Greedy nearest pairing gives an upper bound and is tried first;
/// only if it is above `threshold` is the exact bottleneck computed with
/// bipartite matching (greedy can fail inside clusters although a valid
/// pairing exists, so the matching answers exactly "do the sets agree
/// within tolerance"). NaN anywhere gives +inf.
template <class W>
W match_eigenvalues(const std::vector<std::complex<W>> &got, const std::vector<std::complex<W>> &ref,
                    const std::vector<W> &unit, W threshold) {
  const int ng = static_cast<int>(got.size());
  const int nr = static_cast<int>(ref.size());
  if (ng == 0) return 0;
  const W inf = std::numeric_limits<W>::infinity();
  if (ng > nr) return inf;
  std::vector<W> ratio(static_cast<size_t>(ng) * nr);
  for (int i = 0; i < ng; ++i)
    for (int j = 0; j < nr; ++j) {
      const W d = std::abs(got[i] - ref[j]);
      W r;
      if (std::isnan(d)) r = inf;
      else if (d == 0) r = 0;
      else if (std::isinf(unit[j])) r = std::isinf(d) ? inf : W(0);
      else r = d / unit[j];
      if (std::isnan(r)) r = inf;
      ratio[static_cast<size_t>(i) * nr + j] = r;
    }
  // Greedy: globally closest unmatched pair first.
  std::vector<int> order(ratio.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return ratio[a] < ratio[b]; });
  std::vector<char> used_i(ng, 0), used_j(nr, 0);
  W greedy = 0;
  int matched = 0;
  for (int k : order) {
    const int i = k / nr, j = k % nr;
    if (used_i[i] || used_j[j]) continue;
    used_i[i] = used_j[j] = 1;
    greedy = std::max(greedy, ratio[k]);
    if (++matched == ng) break;
  }
  if (greedy <= threshold) return greedy;
  // Exact bottleneck by binary search over the sorted ratios.
  auto feasible = [&](W t) {
    std::vector<std::vector<int>> adj(ng);
    for (int i = 0; i < ng; ++i)
      for (int j = 0; j < nr; ++j)
        if (ratio[static_cast<size_t>(i) * nr + j] <= t) adj[i].push_back(j);
    return detail::has_left_saturating_matching(adj, ng, nr);
  };
  size_t lo = 0, hi = order.size() - 1;
  if (!feasible(ratio[order[hi]])) return inf;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (feasible(ratio[order[mid]])) hi = mid;
    else lo = mid + 1;
  }
  return ratio[order[lo]];
}

/// Bound on |mu - lambda0| for every eigenvalue mu of J + E, where J is a
/// k x k Jordan block with unit superdiagonal and ||E||_2 <= eps:
///   |mu - lambda0|^k <= eps * (1 + |mu - lambda0|)^(k-1)
/// (the Jordan-block form of the Bauer-Fike theorem; see e.g. Chatelin,
/// "Eigenvalues of Matrices", or Kahan, Parlett & Jiang, SINUM 1982). The
/// right side grows slower than the left, so the set of admissible
/// distances is [0, delta*]; we return delta* (bisection in log scale).
inline long double jordan_radius(int k, long double eps) {
  if (k <= 0 || eps <= 0) return 0;
  if (k == 1) return eps;
  auto f = [&](long double d) { return k * std::log(d) - std::log(eps) - (k - 1) * std::log1p(d); };
  long double lo = 1e-300L, hi = 1;
  while (f(hi) < 0) hi *= 2;
  for (int it = 0; it < 200; ++it) {
    const long double mid = std::sqrt(lo * hi);
    if (f(mid) < 0) lo = mid;
    else hi = mid;
  }
  return hi;
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_RATIOS_HPP
