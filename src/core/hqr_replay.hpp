// The Schur form and Schur vectors from an eigenvalues-only QR iteration
// and its log (QrLog, core/hqr.hpp).
//
// lahqr_real with the Schur form (wantt) and vectors (wantz) applies each
// chase step's reflector to three rows of h from column kk on (to column
// n-1), to three columns of h from row 0, and to three columns of z. Without
// them it touches only the active block [l, i]. The active block's
// arithmetic is the same either way, so after an eigenvalues-only run h
// holds T wherever an entry was last written inside the active block, and
// every other entry holds the value it had when it left the active block
// (an entry outside it never comes back in: i only falls, and a row above
// l lies, once l falls back, in a column right of the new block). What is
// missing are the updates that the Schur-form run makes outside the block:
//   (1) rows kk..kk+2 of each column right of the block (j > i),
//   (2) columns kk..kk+2 of each row above the block (j < l),
//   (3) columns kk..kk+2 of each row j of z in [iloz, ihiz],
// and, for a 2 x 2 block split off at rows i-1, i, its standardizing
// rotation of rows i-1, i right of it, of columns i-1, i above it, and of
// z. qr_replay applies exactly those, entry by entry in the order of the
// Schur-form run and with its arithmetic (reflect3, rot_pair), so h and z
// come out bitwise as lahqr_real with wantt and wantz leaves them, up to
// the entries two and three rows below the diagonal (those are zero in T;
// an eigenvalues-only run on the GPU may leave old bulges there, see
// kImplicitBulgeZeros), which a caller reads as zero.
//
// Each of the three kinds of update reaches one line (a column of h, a row
// of h or a row of z) and only that line, so a team splits them by line:
// member r owns the lines j congruent to r modulo the team size and runs
// each sweep's chase steps over its own lines with no barrier between the
// steps, carrying the three entries a step touches from one step to the
// next. Lines change owner only between records (a column of h updated
// in (2) as part of a row can be a line of (1) after a later deflation),
// where the team synchronizes.
#pragma once

#include "core/hqr.hpp"

namespace batcheig::core {

namespace detail {

// The chase steps kk = m..i-1 of one sweep (their reflectors at c, three
// slots each) on one line: x points at the line's entry m, and at(x, k)
// steps from the entry at index k to the one at k + 1. The three entries a
// step touches are carried in registers from one step to the next; each
// is stored once, after its last step.
template <class R, class At>
BATCHEIG_HD void replay_line(R *x, index_t m, index_t i, const R *c, At at) {
    R *x1 = at(x, m);
    R *x2 = at(x1, m + 1);
    R a0 = *x, a1 = *x1;
    BATCHEIG_NO_UNROLL
    for (index_t kk = m; kk < i - 1; ++kk, c += 3) {
        R a2 = *x2;
        const R v2 = c[0], v3 = c[1], t1 = c[2];
        const R t2 = t1 * v2, t3 = t1 * v3;
        reflect3(3, a0, a1, a2, v2, v3, t1, t2, t3);
        *x = a0;
        a0 = a1;
        a1 = a2;
        x = x1;
        x1 = x2;
        if (kk + 3 <= i) x2 = at(x2, kk + 2);
    }
    // The last step, two rows (kk = i - 1).
    const R v2 = c[0], t1 = c[2], t2 = t1 * v2;
    R unused = R(0);
    reflect3(2, a0, a1, unused, v2, R(0), t1, t2, R(0));
    *x = a0;
    *x1 = a1;
}

}  // namespace detail

// Apply the log of an eigenvalues-only lahqr_real (slots [0, count) of
// log) to h (what that run left, any view type whose upper triangle and
// subdiagonal it can address) and to rows [iloz, ihiz] of z: h and z
// become what lahqr_real with wantt and wantz (on rows iloz..ihiz of z, as
// geev_qr runs it) would have left (see the top of this file). z holds the
// Schur vectors' start on entry (the orthogonal factor of the Hessenberg
// reduction). Collective.
template <class Team, class M, class MZ, class R>
BATCHEIG_HD void qr_replay(const Team &tm, index_t n, index_t iloz, index_t ihiz, const R *log, index_t count, M h,
                           MZ z) {
    // Steps between the entries of a row of h (a column of h: consecutive
    // rows) and of a row of z, from index k to k + 1.
    auto along_row = [&](auto view) {
        return [view](auto *x, index_t k) { return x + cols_apart(view, k, 1); };
    };
    const auto row_h = along_row(h), row_z = along_row(z);
    const auto es = &h(1, 0) - &h(0, 0);
    const auto col_h = [es](R *x, index_t) { return x + es; };
    for (index_t pos = 0; pos < count;) {
        const int kind = int(log[pos]);
        const index_t a = index_t(log[pos + 1]);
        if (kind == kQrLogSweep) {
            const index_t l = a, i = index_t(log[pos + 2]), m = index_t(log[pos + 3]);
            const R *c = log + pos + 4;
            for (index_t j = tm.first(0); j < n; j += tm.size()) {
                if (j > i) detail::replay_line(&h(m, j), m, i, c, col_h);        // (1)
                else if (j < l) detail::replay_line(&h(j, m), m, i, c, row_h);   // (2)
                if (j >= iloz && j <= ihiz) detail::replay_line(&z(j, m), m, i, c, row_z);  // (3)
            }
            pos += 4 + 3 * (i - m);
        } else {
            // kQrLogSplit: rows i-1, i right of the block, columns i-1, i
            // above it, columns i-1, i of z (split_off_2x2).
            const index_t i = a;
            const R cs = log[pos + 2], sn = log[pos + 3];
            for (index_t j = tm.first(0); j < n; j += tm.size()) {
                if (j > i) detail::rot_pair(h(i - 1, j), h(i, j), cs, sn);
                else if (j < i - 1) detail::rot_pair(h(j, i - 1), h(j, i), cs, sn);
                if (j >= iloz && j <= ihiz) detail::rot_pair(z(j, i - 1), z(j, i), cs, sn);
            }
            pos += 4;
        }
        tm.sync();
    }
}

}  // namespace batcheig::core
