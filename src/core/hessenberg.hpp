// Householder reduction to upper Hessenberg form (xGEHD2) and the explicit
// orthogonal/unitary factor (xORGHR / xUNGHR).
#pragma once

#include "core/blas.hpp"

namespace batcheig::core {

// A = Q H Q^H with Q = H(ilo) H(ilo+1) ... H(ihi-2). Reflector i is stored
// below the subdiagonal of column i, its scalar factor in tau[i]. Only the
// block [ilo, ihi] is reduced (the rest is already triangular after gebal).
template <class M, class V>
BATCHEIG_HD void gehd2(index_t n, index_t ilo, index_t ihi, M a, V tau) {
    using T = typename M::value_type;
    for (index_t i = 0; i < n; ++i) tau[i] = T(0);
    for (index_t i = ilo; i < ihi - 1; ++i) {
        // Reflector that annihilates a(i+2:ihi, i).
        T alpha = a(i + 1, i);
        VecView<T> x{&a(i + 2 < n ? i + 2 : n - 1, i), a.es};
        T t;
        larfg(ihi - i, alpha, x, t);
        tau[i] = t;
        a(i + 1, i) = T(1);
        const index_t m = ihi - i;  // length of v = a(i+1:ihi, i)
        // Right: A(0:ihi, i+1:ihi) = A (I - t v v^H).
        for (index_t r = 0; r <= ihi; ++r) {
            T s = T(0);
            for (index_t k = 0; k < m; ++k) s += a(r, i + 1 + k) * a(i + 1 + k, i);
            s = s * t;
            for (index_t k = 0; k < m; ++k) a(r, i + 1 + k) -= s * conj(a(i + 1 + k, i));
        }
        // Left: A(i+1:ihi, i+1:n) = (I - t v v^H)^H A.
        const T tc = conj(t);
        for (index_t c = i + 1; c < n; ++c) {
            T s = T(0);
            for (index_t k = 0; k < m; ++k) s += conj(a(i + 1 + k, i)) * a(i + 1 + k, c);
            s = s * tc;
            for (index_t k = 0; k < m; ++k) a(i + 1 + k, c) -= s * a(i + 1 + k, i);
        }
        a(i + 1, i) = alpha;
    }
}

// Form Q explicitly in z (n x n) from the reflectors left in a by gehd2.
// Q is the identity outside rows/columns [ilo+1, ihi].
template <class M, class V>
BATCHEIG_HD void orghr(index_t n, index_t ilo, index_t ihi, M a, V tau, M z) {
    using T = typename M::value_type;
    for (index_t j = 0; j < n; ++j)
        for (index_t i = 0; i < n; ++i) z(i, j) = i == j ? T(1) : T(0);
    // Backward accumulation: Q = H(ilo) (H(ilo+1) (... H(ihi-2))).
    for (index_t i = ihi - 2; i >= ilo; --i) {
        const T t = tau[i];
        if (t == T(0)) continue;
        const index_t m = ihi - i;  // v = (1, a(i+2:ihi, i)) acts on rows i+1..ihi
        for (index_t c = i + 1; c <= ihi; ++c) {
            T s = z(i + 1, c);
            for (index_t k = 1; k < m; ++k) s += conj(a(i + 1 + k, i)) * z(i + 1 + k, c);
            s = s * t;
            z(i + 1, c) -= s;
            for (index_t k = 1; k < m; ++k) z(i + 1 + k, c) -= s * a(i + 1 + k, i);
        }
    }
}

}  // namespace batcheig::core
