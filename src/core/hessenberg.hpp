// Householder reduction to upper Hessenberg form (xGEHD2) and the explicit
// orthogonal/unitary factor (xORGHR / xUNGHR), for any team (core/team.hpp).
#pragma once

#include "core/blas.hpp"

namespace batcheig::core {

// A = Q H Q^H with Q = H(ilo) H(ilo+1) ... H(ihi-2). Reflector i is stored
// below the subdiagonal of column i, its scalar factor in tau[i]. Only the
// block [ilo, ihi] is reduced (the rest is already triangular after gebal).
// The leading 1 of each reflector is implicit (never stored in a), so the
// updates need no write to the reflector's column.
template <class Team, class M, class V>
BATCHEIG_HD void gehd2(const Team &tm, index_t n, index_t ilo, index_t ihi, M a, V tau) {
    using T = typename M::value_type;
    for (index_t i = tm.first(0); i < n; i += tm.size()) tau[i] = T(0);
    tm.sync();
    for (index_t i = ilo; i < ihi - 1; ++i) {
        // Reflector that annihilates a(i+2:ihi, i).
        T alpha = a(i + 1, i);
        VecView<T> x{&a(i + 2 < n ? i + 2 : n - 1, i), a.es};
        T t;
        team_larfg(tm, ihi - i, alpha, x, t);
        const index_t m = ihi - i;  // length of v = (1, a(i+2:ihi, i))
        // Right: A(0:ihi, i+1:ihi) = A (I - t v v^H), one row per member.
        for (index_t r = tm.first(0); r <= ihi; r += tm.size()) {
            T s = a(r, i + 1);
            for (index_t k = 1; k < m; ++k) s += a(r, i + 1 + k) * a(i + 1 + k, i);
            s = s * t;
            a(r, i + 1) -= s;
            for (index_t k = 1; k < m; ++k) a(r, i + 1 + k) -= s * conj(a(i + 1 + k, i));
        }
        tm.sync();
        // Left: A(i+1:ihi, i+1:n) = (I - t v v^H)^H A, one column per member.
        const T tc = conj(t);
        for (index_t c = tm.first(i + 1); c < n; c += tm.size()) {
            T s = a(i + 1, c);
            for (index_t k = 1; k < m; ++k) s += conj(a(i + 1 + k, i)) * a(i + 1 + k, c);
            s = s * tc;
            a(i + 1, c) -= s;
            for (index_t k = 1; k < m; ++k) a(i + 1 + k, c) -= s * a(i + 1 + k, i);
        }
        if (tm.leader()) {
            tau[i] = t;
            a(i + 1, i) = alpha;
        }
        tm.sync();
    }
}

// Form Q explicitly in z (n x n) from the reflectors left in a by gehd2.
// Q is the identity outside rows/columns [ilo+1, ihi]. Each member owns whole
// columns of z, so the members never touch each other's data.
template <class Team, class M, class V>
BATCHEIG_HD void orghr(const Team &tm, index_t n, index_t ilo, index_t ihi, M a, V tau, M z) {
    using T = typename M::value_type;
    for (index_t j = tm.first(0); j < n; j += tm.size())
        for (index_t i = 0; i < n; ++i) z(i, j) = i == j ? T(1) : T(0);
    // Backward accumulation: Q = H(ilo) (H(ilo+1) (... H(ihi-2))).
    for (index_t i = ihi - 2; i >= ilo; --i) {
        const T t = tau[i];
        if (t == T(0)) continue;
        const index_t m = ihi - i;  // v = (1, a(i+2:ihi, i)) acts on rows i+1..ihi
        for (index_t c = tm.first(i + 1); c <= ihi; c += tm.size()) {
            T s = z(i + 1, c);
            for (index_t k = 1; k < m; ++k) s += conj(a(i + 1 + k, i)) * z(i + 1 + k, c);
            s = s * t;
            z(i + 1, c) -= s;
            for (index_t k = 1; k < m; ++k) z(i + 1 + k, c) -= s * a(i + 1 + k, i);
        }
    }
    tm.sync();
}

}  // namespace batcheig::core
