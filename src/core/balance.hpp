// Balancing (xGEBAL, job 'B') and its back-transformation (xGEBAK).
//
// Permutations isolate eigenvalues that can be read off the diagonal (rows
// or columns that are zero apart from the diagonal); then a diagonal
// similarity by powers of two makes row and column norms of the remaining
// block comparable, which reduces the norm and improves the accuracy of
// the computed eigenvalues. Powers of two make the scaling exact.
#pragma once

#include "core/blas.hpp"

namespace batcheig::core {

namespace detail {
// Exchange index j with m: columns j and m over rows [0, l], rows j and m
// over columns [k, n).
template <class Team, class M>
BATCHEIG_HD void bal_exchange(const Team &tm, M a, index_t n, index_t j, index_t m, index_t k, index_t l) {
    if (j == m) return;
    for (index_t i = tm.first(0); i <= l; i += tm.size()) {
        auto t = a(i, j);
        a(i, j) = a(i, m);
        a(i, m) = t;
    }
    tm.sync();
    for (index_t i = tm.first(k); i < n; i += tm.size()) {
        auto t = a(j, i);
        a(j, i) = a(m, i);
        a(m, i) = t;
    }
    tm.sync();
}

// Is a(e, i) zero for every i in [lo, hi] other than skip (a row when
// row is true, else a column)?
template <class M>
BATCHEIG_HD bool bal_zero_off_diagonal(M a, bool row, index_t e, index_t lo, index_t hi, index_t skip) {
    using R = real_t<typename M::value_type>;
    for (index_t i = lo; i <= hi; ++i) {
        const auto x = row ? a(e, i) : a(i, e);
        if (i != skip && (real(x) != R(0) || imag(x) != R(0))) return false;
    }
    return true;
}

// True when gebal's scaling loop (below) would scale nothing in its first
// sweep, and so stop after it: for every index i of [k, l], the norms c of
// column i and r of row i over [k, l] are zero, or r / 2 <= c < 2 r with a
// margin of 2^-10 in the squares, wider than the rounding of either
// computation of the norms can move them; and no entry lies outside Blue's
// middle range, where a square could overflow or underflow. gebal then
// skips the loop, and its results are the same bit for bit. The squares
// are summed plainly, every index by one member, with one vote for the
// whole block: on a team, two team norms and their reductions per index
// cost a quarter of the GPU's reduction launch at n = 15. Used by the
// teams that say so (core::team_balance_check).
template <class Team, class M>
BATCHEIG_HD bool bal_unscaled(const Team &tm, M a, index_t k, index_t l) {
    using T = typename M::value_type;
    using R = real_t<T>;
    const R margin = R(1) + R(0x1p-10);
    bool bad = false;
    for (index_t i = tm.first(k); i <= l; i += tm.size()) {
        R c2 = R(0), r2 = R(0);
        bool outside = false;
        auto add = [&](R v, R &sum) { add_square_in_range(v, sum, outside); };
        BATCHEIG_NO_UNROLL
        for (index_t j = k; j <= l; ++j) {
            const T x = a(j, i), y = a(i, j);
            add(real(x), c2);
            add(real(y), r2);
            if constexpr (is_complex<T>) {
                add(imag(x), c2);
                add(imag(y), r2);
            }
        }
        // (NaN fails both comparisons: the drivers reject non-finite input
        // before, and the loop below would decide.)
        const bool kept = c2 == R(0) || r2 == R(0) || (R(4) * c2 >= r2 * margin && c2 * margin < R(4) * r2);
        bad |= outside || !kept;
    }
    return !tm.any(bad);
}
}  // namespace detail

// On exit a is balanced, [ilo, ihi] (0-based, inclusive) is the block that
// still needs QR, and scale[j] holds the permutation index (j outside the
// block) or the scaling factor (j inside), as LAPACK.
template <class Team, class M, class V>
BATCHEIG_HD void gebal(const Team &tm, index_t n, M a, index_t &ilo, index_t &ihi, V scale) {
    using T = typename M::value_type;
    using R = real_t<T>;
    if (n == 0) {
        ilo = 0;
        ihi = -1;
        return;
    }
    index_t k = 0, l = n - 1;

    // Rows with zero off-diagonal entries in columns [0, l] go to the bottom.
    bool found = true;
    while (found) {
        if (l == 0) {  // the last remaining diagonal entry is isolated too
            if (tm.leader()) scale[0] = R(0);
            tm.sync();
            ilo = 0;
            ihi = 0;
            return;
        }
        // The last row j in [0, l] whose entries in columns [0, l] are zero
        // off the diagonal (xGEBAL's search, from row l down), else -1.
        const index_t j = last_true(tm, index_t(-1), l,
                                    [&](index_t r) { return detail::bal_zero_off_diagonal(a, true, r, 0, l, r); });
        found = j >= 0;
        if (found) {
            tm.sync();  // every member has finished reading a
            if (tm.leader()) scale[l] = R(j);
            detail::bal_exchange(tm, a, n, j, l, k, l);
            --l;
        }
    }
    // Columns with zero off-diagonal entries in rows [k, l] go to the left.
    found = true;
    while (found) {
        // The first column j in [k, l] whose entries in rows [k, l] are zero
        // off the diagonal (xGEBAL's search, from column k up), else l + 1.
        const index_t j = first_true(tm, k, l + 1,
                                     [&](index_t c) { return detail::bal_zero_off_diagonal(a, false, c, k, l, c); });
        found = j <= l;
        if (found) {
            tm.sync();  // every member has finished reading a
            if (tm.leader()) scale[k] = R(j);
            detail::bal_exchange(tm, a, n, j, k, k, l);
            ++k;
        }
    }
    for (index_t i = tm.first(k); i <= l; i += tm.size()) scale[i] = R(1);
    tm.sync();
    if constexpr (team_balance_check<Team>) {
        if (detail::bal_unscaled(tm, a, k, l)) {
            ilo = k;
            ihi = l;
            return;
        }
    }

    // Iterative scaling by powers of two towards equal row and column norms.
    const R sfmin1 = limits<R>::safmin() / limits<R>::ulp();
    const R sfmax1 = R(1) / sfmin1;
    const R sfmin2 = sfmin1 * R(2);
    const R sfmax2 = R(1) / sfmin2;
    bool noconv = true;
    while (noconv) {
        noconv = false;
        for (index_t i = k; i <= l; ++i) {
            // (Team reductions: every member gets the same c, r, ca, ra.)
            R c = team_nrm2(tm, l - k + 1, VecView<T>{&a(k, i), a.es});
            R r = team_nrm2(tm, l - k + 1, VecView<T>{&a(i, k), a.ld * a.es});
            if (c == R(0) || r == R(0)) continue;
            R g = r / R(2), f = R(1), s = c + r;
            // The largest entries of column i and row i bound the scaling
            // loops below, which run only when c < r/2 or c/2 >= r. In the
            // common case neither holds and the two team reductions are
            // skipped (c, r and the decisions are the same either way; the
            // team takes the branch together, as c and r are team-wide).
            R ca = R(0), ra = R(0);
            if (c < g || c / R(2) >= r) {
                ca = team_abs_at_iamax(tm, l + 1, a.col(i));
                ra = team_abs_at_iamax(tm, n - k, VecView<T>{&a(i, k), a.ld * a.es});
            }
            // Never loop on NaN (the drivers reject non-finite input first).
            // Where ca and ra were skipped, c + ca + r + ra is finite when
            // c + r is: the drivers scale the matrix so that no entry
            // exceeds ulp / sqrt(safmin) (geev_reduce's bignum), far below
            // overflow.
            if (!is_finite(c + ca + r + ra)) {
                noconv = false;
                break;
            }
            while (c < g && rmax(f, rmax(c, ca)) < sfmax2 && rmin(r, rmin(g, ra)) > sfmin2) {
                f *= R(2);
                c *= R(2);
                ca *= R(2);
                r /= R(2);
                g /= R(2);
                ra /= R(2);
            }
            g = c / R(2);
            while (g >= r && rmax(r, ra) < sfmax2 && rmin(rmin(f, c), rmin(g, ca)) > sfmin2) {
                f /= R(2);
                c /= R(2);
                g /= R(2);
                ca /= R(2);
                r *= R(2);
                ra *= R(2);
            }
            // Now balance.
            if (c + r >= R(0.95) * s) continue;
            if (f < R(1) && scale[i] < R(1) && f * scale[i] <= sfmin1) continue;
            if (f > R(1) && scale[i] > R(1) && scale[i] >= sfmax1 / f) continue;
            g = R(1) / f;
            tm.sync();  // every member has read scale[i] and row/column i
            if (tm.leader()) scale[i] = scale[i] * f;
            noconv = true;
            // a(i, i) is owned by the same member in both loops.
            for (index_t j = tm.first(k); j < n; j += tm.size()) a(i, j) = a(i, j) * g;
            for (index_t j = tm.first(0); j <= l; j += tm.size()) a(j, i) = a(j, i) * f;
            tm.sync();
        }
    }
    ilo = k;
    ihi = l;
}

// Undo the balancing on the eigenvectors in v (n x m): right eigenvectors
// are multiplied by D, left ones by D^{-1}; then the permutation is undone.
template <class Team, class M, class V>
BATCHEIG_HD void gebak(const Team &tm, bool right, index_t n, index_t ilo, index_t ihi, V scale, index_t m, M v) {
    using R = real_t<typename M::value_type>;
    if (n == 0 || m == 0) return;
    // Column by column: each member owns whole columns of v.
    for (index_t j = tm.first(0); j < m; j += tm.size()) {
        if (ilo != ihi) {
            BATCHEIG_NO_UNROLL
            for (index_t i = ilo; i <= ihi; ++i) {
                R s = right ? scale[i] : R(1) / scale[i];
                v(i, j) = v(i, j) * s;
            }
        }
        // Undo the permutations in the reverse order of gebal: i = ilo-1
        // down to 0, then ihi+1 up to n-1.
        BATCHEIG_NO_UNROLL
        for (index_t ii = 0; ii < n; ++ii) {
            index_t i = ii;
            if (i >= ilo && i <= ihi) continue;
            if (i < ilo) i = ilo - 1 - ii;
            index_t k = static_cast<index_t>(real(scale[i]));
            if (k == i) continue;
            auto t = v(i, j);
            v(i, j) = v(k, j);
            v(k, j) = t;
        }
    }
    tm.sync();
}

}  // namespace batcheig::core
