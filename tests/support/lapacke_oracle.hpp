// LAPACKE (OpenBLAS) as the oracle: ?geev per precision through overloads,
// and a uniform result with complex eigenvalues and unpacked eigenvectors.
#ifndef BATCHEIG_TESTS_SUPPORT_LAPACKE_ORACLE_HPP
#define BATCHEIG_TESTS_SUPPORT_LAPACKE_ORACLE_HPP

#include <complex>
#include <vector>

// Make LAPACKE's complex types std::complex in C++ regardless of the
// lapack.h version (newer ones do this by default, older ones use _Complex).
#ifndef lapack_complex_float
#define lapack_complex_float std::complex<float>
#endif
#ifndef lapack_complex_double
#define lapack_complex_double std::complex<double>
#endif
#include <lapacke.h>

#include "scalar.hpp"

namespace bt {

inline lapack_int lapacke_geev(char jl, char jr, int n, float *a, int lda, float *wr, float *wi,
                               std::complex<float> * /*w*/, float *vl, int ldvl, float *vr, int ldvr) {
  return LAPACKE_sgeev(LAPACK_COL_MAJOR, jl, jr, n, a, lda, wr, wi, vl, ldvl, vr, ldvr);
}
inline lapack_int lapacke_geev(char jl, char jr, int n, double *a, int lda, double *wr, double *wi,
                               std::complex<double> * /*w*/, double *vl, int ldvl, double *vr, int ldvr) {
  return LAPACKE_dgeev(LAPACK_COL_MAJOR, jl, jr, n, a, lda, wr, wi, vl, ldvl, vr, ldvr);
}
inline lapack_int lapacke_geev(char jl, char jr, int n, std::complex<float> *a, int lda, float * /*wr*/,
                               float * /*wi*/, std::complex<float> *w, std::complex<float> *vl, int ldvl,
                               std::complex<float> *vr, int ldvr) {
  return LAPACKE_cgeev(LAPACK_COL_MAJOR, jl, jr, n, a, lda, w, vl, ldvl, vr, ldvr);
}
inline lapack_int lapacke_geev(char jl, char jr, int n, std::complex<double> *a, int lda, double * /*wr*/,
                               double * /*wi*/, std::complex<double> *w, std::complex<double> *vl, int ldvl,
                               std::complex<double> *vr, int ldvr) {
  return LAPACKE_zgeev(LAPACK_COL_MAJOR, jl, jr, n, a, lda, w, vl, ldvl, vr, ldvr);
}

/// Unpack eigenvectors stored LAPACK-style into complex columns (n x n,
/// leading dimension n). Real T: a real eigenvalue (wi[j] == 0) gives the
/// real column j; a pair wi[j] > 0 gives v_j = V(:,j) + i V(:,j+1) and
/// v_{j+1} = conj(v_j). Malformed packing (checked separately) is unpacked
/// as real columns.
template <class T>
std::vector<std::complex<real_t<T>>> unpack_vectors(int n, const T *V, int ldv, const real_t<T> *wi) {
  using R = real_t<T>;
  std::vector<std::complex<R>> out(static_cast<size_t>(n) * n);
  auto col = [&](int j) { return V + static_cast<size_t>(j) * ldv; };
  if constexpr (is_complex_v<T>) {
    (void)wi;
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) out[static_cast<size_t>(j) * n + i] = col(j)[i];
  } else {
    int j = 0;
    while (j < n) {
      if (wi[j] > 0 && j + 1 < n) {
        for (int i = 0; i < n; ++i) {
          out[static_cast<size_t>(j) * n + i] = {col(j)[i], col(j + 1)[i]};
          out[static_cast<size_t>(j + 1) * n + i] = {col(j)[i], -col(j + 1)[i]};
        }
        j += 2;
      } else {
        for (int i = 0; i < n; ++i) out[static_cast<size_t>(j) * n + i] = {col(j)[i], R(0)};
        j += 1;
      }
    }
  }
  return out;
}

/// Result of one LAPACKE ?geev call with both eigenvector sets.
template <class T>
struct OracleGeev {
  using R = real_t<T>;
  int n = 0;
  lapack_int info = 0;
  std::vector<std::complex<R>> w;   ///< eigenvalues
  std::vector<R> wr, wi;            ///< real T: raw LAPACK eigenvalues
  std::vector<T> vl_raw, vr_raw;    ///< raw vector storage (ld n)
  std::vector<std::complex<R>> VL;  ///< unpacked, n x n
  std::vector<std::complex<R>> VR;
};

/// Run LAPACKE ?geev('V','V') on a copy of `a` (n x n, ld n).
template <class T>
OracleGeev<T> oracle_geev(const std::vector<T> &a, int n) {
  using R = real_t<T>;
  OracleGeev<T> o;
  o.n = n;
  if (n == 0) return o;
  std::vector<T> acopy(a);
  o.wr.assign(n, R(0));
  o.wi.assign(n, R(0));
  std::vector<std::complex<R>> w(n);
  o.vl_raw.assign(static_cast<size_t>(n) * n, T(0));
  o.vr_raw.assign(static_cast<size_t>(n) * n, T(0));
  o.info = lapacke_geev('V', 'V', n, acopy.data(), n, o.wr.data(), o.wi.data(), w.data(), o.vl_raw.data(), n,
                        o.vr_raw.data(), n);
  o.w.resize(n);
  for (int j = 0; j < n; ++j) {
    if constexpr (is_complex_v<T>)
      o.w[j] = w[j];
    else
      o.w[j] = {o.wr[j], o.wi[j]};
  }
  o.VL = unpack_vectors<T>(n, o.vl_raw.data(), n, o.wr.empty() ? nullptr : o.wi.data());
  o.VR = unpack_vectors<T>(n, o.vr_raw.data(), n, o.wr.empty() ? nullptr : o.wi.data());
  return o;
}

/// Eigenvalues only, LAPACKE ?geev('N','N').
template <class T>
std::vector<std::complex<real_t<T>>> oracle_eigenvalues(const std::vector<T> &a, int n, lapack_int *info_out) {
  using R = real_t<T>;
  std::vector<std::complex<R>> out(n);
  if (n == 0) return out;
  std::vector<T> acopy(a);
  std::vector<R> wr(n), wi(n);
  std::vector<std::complex<R>> w(n);
  T dummy[1] = {T(0)};
  const lapack_int info = lapacke_geev('N', 'N', n, acopy.data(), n, wr.data(), wi.data(), w.data(), dummy, 1,
                                       dummy, 1);
  if (info_out) *info_out = info;
  for (int j = 0; j < n; ++j) {
    if constexpr (is_complex_v<T>)
      out[j] = w[j];
    else
      out[j] = {wr[j], wi[j]};
  }
  return out;
}

}  // namespace bt

#endif  // BATCHEIG_TESTS_SUPPORT_LAPACKE_ORACLE_HPP
