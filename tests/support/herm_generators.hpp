// Hermitian (real: symmetric) test-matrix families for syevj/heevj, after
// LAPACK TESTING/EIG ddrvst/zdrvst (adapted), for all four scalar types. See
// DESIGN.md section 5. Reuses the wide-precision helpers of generators.hpp.
//
// Every matrix is built in long double (complex<long double>), made exactly
// Hermitian (a_ji = conj(a_ij), real diagonal), rounded once to T and then
// scaled by a power of two to its magnitude class (Unit / NearOverflow /
// NearUnderflow, as in generators.hpp). TestMatrix::a holds the full
// Hermitian matrix; herm_input() makes what the library is given: only the
// `uplo` triangle meaningful, the other triangle NaN and, for complex types,
// junk imaginary parts on the diagonal (both must be ignored).
#ifndef BATCHEIG_TESTS_SUPPORT_HERM_GENERATORS_HPP
#define BATCHEIG_TESTS_SUPPORT_HERM_GENERATORS_HPP

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "batcheig.h"
#include "generators.hpp"
#include "rng.hpp"
#include "scalar.hpp"

namespace bt {

enum class HermFamily {
  Zero,          ///< A = 0
  Identity,      ///< A = I
  DiagArith,     ///< diagonal, arithmetic spectrum in [1/c, 1], random signs
  DiagGeom,      ///< diagonal, geometric spectrum 1 .. 1/c, random signs
  DiagCluster,   ///< diagonal, 1 and n-1 copies of 1/c (dlatms MODE 1), random signs
  Repeated,      ///< Q D Q^H, D with max(1, n/4) distinct values, each repeated (multiplicity ~4)
  OrthArith,     ///< Q D Q^H, D as DiagArith, Q random orthogonal / unitary
  OrthGeom,      ///< Q D Q^H, D as DiagGeom
  OrthCluster,   ///< Q D Q^H, D as DiagCluster
  Random,        ///< entries uniform in [-1, 1] (complex: both parts), Hermitian
  Graded,        ///< D B D, B random Hermitian, D = diag(2^k), k uniform in [-g, g]
  Phases,        ///< P B P^H, B real symmetric random, P diagonal with random phases (real: signs)
  PlusMinusOne,  ///< Q D Q^H, D = diag(1, -1, then n - 2 values in [-2^-10, 2^-10]); not in all_herm_families()
};

inline const char *herm_family_name(HermFamily f) {
  switch (f) {
    case HermFamily::Zero: return "zero";
    case HermFamily::Identity: return "identity";
    case HermFamily::DiagArith: return "diag-arith";
    case HermFamily::DiagGeom: return "diag-geom";
    case HermFamily::DiagCluster: return "diag-cluster";
    case HermFamily::Repeated: return "repeated";
    case HermFamily::OrthArith: return "orth-similar-arith";
    case HermFamily::OrthGeom: return "orth-similar-geom";
    case HermFamily::OrthCluster: return "orth-similar-cluster";
    case HermFamily::Random: return "random";
    case HermFamily::Graded: return "graded";
    case HermFamily::Phases: return "random-phases";
    case HermFamily::PlusMinusOne: return "plus-minus-one";
  }
  return "?";
}

inline std::vector<HermFamily> all_herm_families() {
  return {HermFamily::Zero,      HermFamily::Identity,  HermFamily::DiagArith,   HermFamily::DiagGeom,
          HermFamily::DiagCluster, HermFamily::Repeated, HermFamily::OrthArith,  HermFamily::OrthGeom,
          HermFamily::OrthCluster, HermFamily::Random,   HermFamily::Graded,     HermFamily::Phases};
}

/// Every family at every magnitude, the zero matrix at unit scale only
/// (scaling zero is zero).
inline std::vector<std::pair<HermFamily, Magnitude>> herm_family_magnitudes() {
  std::vector<std::pair<HermFamily, Magnitude>> v;
  for (const HermFamily f : all_herm_families())
    for (const Magnitude m : all_magnitudes())
      if (f != HermFamily::Zero || m == Magnitude::Unit) v.emplace_back(f, m);
  return v;
}

template <class T>
struct HermMatrix {
  HermFamily family = HermFamily::Zero;
  Magnitude magnitude = Magnitude::Unit;
  int n = 0;
  std::uint64_t seed = 0;
  int scale_exp = 0;
  std::vector<T> a;  ///< n x n, column-major, ld n, exactly Hermitian (real diagonal)

  std::string describe() const {
    return std::string(herm_family_name(family)) + " n=" + std::to_string(n) + " " + magnitude_name(magnitude) +
           " (scale 2^" + std::to_string(scale_exp) + ", seed " + std::to_string(seed) + ")";
  }
};

/// Build a Hermitian test matrix of the given family, magnitude and size.
template <class T>
HermMatrix<T> make_herm_matrix(HermFamily family, Magnitude magnitude, int n, std::uint64_t seed) {
  using namespace detail;
  using R = real_t<T>;
  constexpr bool cplx = is_complex_v<T>;
  Rng rng(seed);
  HermMatrix<T> hm;
  hm.family = family;
  hm.magnitude = magnitude;
  hm.n = n;
  hm.seed = seed;
  WMat A0(n);
  const wide c = spectrum_condition<R>();

  auto random_entry = [&]() -> wcplx {
    return cplx ? wcplx(rng.uniform_pm1(), rng.uniform_pm1()) : wcplx(rng.uniform_pm1(), 0);
  };
  auto random_hermitian = [&]() {
    WMat B(n);
    for (int j = 0; j < n; ++j)
      for (int i = j; i < n; ++i) {
        const wcplx x = (i == j) ? wcplx(rng.uniform_pm1(), 0) : random_entry();
        B(i, j) = x;
        B(j, i) = std::conj(x);
      }
    return B;
  };
  // Real eigenvalues with random signs.
  auto signed_spectrum = [&](Spectrum s) {
    std::vector<wide> d = spectrum_magnitudes(s, n, c);
    for (auto &x : d) x *= static_cast<wide>(rng.sign());
    return d;
  };
  auto similar = [&](const std::vector<wide> &d) {
    WMat D(n);
    for (int i = 0; i < n; ++i) D(i, i) = d[i];
    if (n < 2) return D;
    const WMat Q = random_unitary(n, cplx, rng);
    return matmul(matmul(Q, D), conj_transpose(Q));
  };

  switch (family) {
    case HermFamily::Zero: break;
    case HermFamily::Identity:
      for (int i = 0; i < n; ++i) A0(i, i) = 1;
      break;
    case HermFamily::DiagArith:
    case HermFamily::DiagGeom:
    case HermFamily::DiagCluster: {
      const auto s = static_cast<Spectrum>(static_cast<int>(family) - static_cast<int>(HermFamily::DiagArith));
      const std::vector<wide> d = signed_spectrum(s);
      for (int i = 0; i < n; ++i) A0(i, i) = d[i];
      break;
    }
    case HermFamily::Repeated: {
      const int k = std::max(1, n / 4);
      std::vector<wide> vals(static_cast<size_t>(k));
      for (int i = 0; i < k; ++i) vals[i] = (k > 1 ? -1 + 2 * static_cast<wide>(i) / (k - 1) : 1);
      std::vector<wide> d(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) d[i] = vals[i % k];
      A0 = similar(d);
      break;
    }
    case HermFamily::OrthArith:
    case HermFamily::OrthGeom:
    case HermFamily::OrthCluster: {
      const auto s = static_cast<Spectrum>(static_cast<int>(family) - static_cast<int>(HermFamily::OrthArith));
      A0 = similar(signed_spectrum(s));
      break;
    }
    case HermFamily::PlusMinusOne: {
      std::vector<wide> d(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) d[i] = i == 0 ? 1 : i == 1 ? -1 : std::ldexp(static_cast<wide>(rng.uniform_pm1()), -10);
      A0 = similar(d);
      break;
    }
    case HermFamily::Random: A0 = random_hermitian(); break;
    case HermFamily::Graded: {
      // Entries span 2^(+-2g): g = 6 (single), 12 (double), a dynamic range of
      // about 1/u; the eigenvalues spread over as many orders of magnitude.
      const int g = std::is_same_v<R, float> ? 6 : 12;
      A0 = random_hermitian();
      std::vector<int> e(static_cast<size_t>(n));
      for (auto &x : e) x = static_cast<int>(rng.uniform_int(-g, g));
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) A0(i, j) *= std::ldexp(static_cast<wide>(1), e[i] + e[j]);
      break;
    }
    case HermFamily::Phases: {
      WMat B(n);
      for (int j = 0; j < n; ++j)
        for (int i = j; i < n; ++i) {
          const wide x = rng.uniform_pm1();
          B(i, j) = x;
          B(j, i) = x;
        }
      std::vector<wcplx> ph(static_cast<size_t>(n));
      for (auto &p : ph) p = cplx ? rng.phase() : wcplx(rng.sign(), 0);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) A0(i, j) = ph[i] * B(i, j) * std::conj(ph[j]);
      break;
    }
  }
  // Exactly Hermitian in wide precision, so that rounding keeps it Hermitian.
  for (int j = 0; j < n; ++j) {
    A0(j, j) = wcplx(A0(j, j).real(), 0);
    for (int i = j + 1; i < n; ++i) A0(j, i) = std::conj(A0(i, j));
  }

  hm.a.resize(static_cast<size_t>(n) * n);
  R amax = 0;
  for (size_t i = 0; i < hm.a.size(); ++i) {
    hm.a[i] = from_wide<T>(A0.v[i]);
    amax = std::max(amax, abs_max_part(hm.a[i]));
  }
  if (amax > 0) {
    const int e0 = std::ilogb(amax);
    int target = 0;
    switch (magnitude) {
      case Magnitude::Unit: target = 0; break;
      case Magnitude::NearOverflow: target = exponent_emax<R>() - ceil_log2(std::max(n, 1)) - 3; break;
      case Magnitude::NearUnderflow: target = exponent_emin<R>() + 10; break;
    }
    const int se = target - e0;
    hm.scale_exp = se;
    for (auto &x : hm.a) {
      if constexpr (cplx)
        x = T(std::ldexp(x.real(), se), std::ldexp(x.imag(), se));
      else
        x = std::ldexp(x, se);
    }
  }
  return hm;
}

/// The library's view of a Hermitian matrix: copy the `uplo` triangle of
/// `a` (n x n, ld n) into dst (ld lda); fill the other triangle with NaN
/// and, for complex types, give the diagonal a junk imaginary part. Rows
/// n..lda-1 of each column are left as they are.
template <class T>
void herm_input(const std::vector<T> &a, int n, batcheigFillMode_t uplo, T *dst, int lda, std::uint64_t junk_seed) {
  using R = real_t<T>;
  Rng rng(junk_seed);
  const R nan = std::numeric_limits<R>::quiet_NaN();
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      const bool in_triangle = (uplo == BATCHEIG_FILL_MODE_LOWER) ? i >= j : i <= j;
      T x = a[static_cast<size_t>(j) * n + i];
      if (!in_triangle) {
        if constexpr (is_complex_v<T>)
          x = T(nan, nan);
        else
          x = nan;
      } else if (i == j) {
        if constexpr (is_complex_v<T>) x = T(x.real(), static_cast<R>(rng.uniform_pm1() * 1e3));
      }
      dst[static_cast<size_t>(j) * lda + i] = x;
    }
}

/// `count` matrices of order n cycling through six families (random,
/// graded, orthogonal cluster, geometric diagonal, random phases, repeated).
template <class T>
std::vector<HermMatrix<T>> mixed_batch(int n, int count, std::uint64_t tag) {
  const std::vector<HermFamily> fams = {HermFamily::Random, HermFamily::Graded, HermFamily::OrthCluster,
                                        HermFamily::DiagGeom, HermFamily::Phases, HermFamily::Repeated};
  std::vector<HermMatrix<T>> v;
  for (int b = 0; b < count; ++b)
    v.push_back(make_herm_matrix<T>(fams[b % fams.size()], Magnitude::Unit, n, make_seed(tag, n, b)));
  return v;
}

/// The matrices' storage, as the batch runners take it.
template <class T>
std::vector<const std::vector<T> *> ptrs(const std::vector<HermMatrix<T>> &v) {
  std::vector<const std::vector<T> *> p;
  for (const auto &m : v) p.push_back(&m.a);
  return p;
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_HERM_GENERATORS_HPP
