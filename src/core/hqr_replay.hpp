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

// Ask for the cache line that holds p in the GPU's L1 cache; nothing on
// the host. (qr_replay reads the log once, front to back: without it,
// every 128-byte line of the log costs its warp a trip to L2 or memory.)
BATCHEIG_HD void prefetch_l1(const void *p) {
#if defined(__CUDA_ARCH__)
    asm volatile("prefetch.L1 [%0];" ::"l"(p));
#else
    (void)p;
#endif
}

// One line of a replay (a column or row of h, or a row of z) over one
// sweep: the entries kk and kk+2 of the current step (p0, p2), the two of
// kk, kk+1 carried in registers (a0, a1), and where the next entry lies
// (entry k+1 is da + db k elements after entry k: a column, or a row of a
// whole matrix, has db = 0; a row of the band, whose columns grow, db = 1).
// A line that is off (not the member's, or not in this sweep's region)
// runs the same steps on the member's own scratch entry, so that the
// member's lines run without branches (on the GPU, one basic block per
// step, whose lines overlap).
template <class R>
struct ReplayLine {
    R *p0, *p2;
    index_t da, db;
    R a0, a1;

    BATCHEIG_HD void start(bool on, R *x, index_t m, index_t step_a, index_t step_b, R *scratch) {
        if (!on) {
            x = scratch;
            step_a = step_b = 0;
        }
        da = step_a;
        db = step_b;
        p0 = x;
        R *x1 = x + (da + db * m);
        p2 = x1 + (da + db * (m + 1));
        a0 = *x;
        a1 = *x1;
    }
    // The three-row chase step at kk, in three parts, so that a member's
    // lines load before any of them stores (their entries might be the
    // same scratch entry as far as a compiler can tell, which would
    // otherwise keep each line's load behind the previous line's store):
    // the entry kk+2 (a2), the reflector, the stores and the next entries.
    R a2;
    BATCHEIG_HD void load3() { a2 = *p2; }
    BATCHEIG_HD void apply3(R v2, R v3, R t1, R t2, R t3) { reflect3(3, a0, a1, a2, v2, v3, t1, t2, t3); }
    BATCHEIG_HD void store3(index_t kk) {
        *p0 = a0;
        a0 = a1;
        a1 = a2;
        p0 += da + db * kk;
        p2 += da + db * (kk + 2);
    }
    // The last, two-row step (kk = i - 1).
    BATCHEIG_HD void step2(index_t kk, R v2, R t1, R t2) {
        R unused = R(0);
        reflect3(2, a0, a1, unused, v2, R(0), t1, t2, R(0));
        *p0 = a0;
        p0[da + db * kk] = a1;
    }
    // As store3 for the first sweep of a tandem pass (see qr_replay):
    // entry kk, final for this sweep, goes to the second sweep instead of
    // memory.
    BATCHEIG_HD R pass3(index_t kk) {
        const R out = a0;
        a0 = a1;
        a1 = a2;
        p2 += da + db * (kk + 2);
        return out;
    }
};

// The same line under the second sweep of a tandem pass, two steps behind
// the first (ReplayLine::pass3): it takes each entry from the first sweep
// as the entry leaves that sweep's reach, and stores it when done. Its
// first entry is the first sweep's (both sweeps start at row m).
template <class R>
struct ReplayFollower {
    R *p0;
    index_t da, db;
    R a0, a1, a2;

    BATCHEIG_HD void start(const ReplayLine<R> &lead) {
        p0 = lead.p0;
        da = lead.da;
        db = lead.db;
    }
    BATCHEIG_HD void apply3(R v2, R v3, R t1, R t2, R t3) { reflect3(3, a0, a1, a2, v2, v3, t1, t2, t3); }
    BATCHEIG_HD void store3(index_t kk) {
        *p0 = a0;
        a0 = a1;
        a1 = a2;
        p0 += da + db * kk;
    }
    BATCHEIG_HD void step2(index_t kk, R v2, R t1, R t2) {
        R unused = R(0);
        reflect3(2, a0, a1, unused, v2, R(0), t1, t2, R(0));
        *p0 = a0;
        p0[da + db * kk] = a1;
    }
};

// A member's lines of one sweep over the block [l, i] from row m: line j
// is (1) column j of h right of the block, or (2) row j of h above it, and
// (3) row j of z, each off (on the member's scratch entry) where j is not
// such a line. The steps between their consecutive entries come from the
// views: down a column of h; along a row of h or z (cols_apart: da + db k
// from column k).
template <class M, class MZ, class R>
struct ReplayLines {
    M h;
    MZ z;
    index_t n, iloz, ihiz;
    R *scratch;
    index_t col_da, row_da, row_db, z_da, z_db;

    BATCHEIG_HD ReplayLines(index_t n_, index_t iloz_, index_t ihiz_, M h_, MZ z_, R *scratch_)
        : h(h_), z(z_), n(n_), iloz(iloz_), ihiz(ihiz_), scratch(scratch_),
          col_da(index_t(&h_(1, 0) - &h_(0, 0))), row_da(index_t(cols_apart(h_, 0, 1))),
          row_db(index_t(cols_apart(h_, 1, 1)) - row_da), z_da(index_t(cols_apart(z_, 0, 1))),
          z_db(index_t(cols_apart(z_, 1, 1)) - z_da) {}
    BATCHEIG_HD void start(index_t j, index_t l, index_t i, index_t m, ReplayLine<R> &t, ReplayLine<R> &zl) const {
        if (j > i && j < n) t.start(true, &h(m, j), m, col_da, 0, scratch);
        else t.start(j < l, &h(j < l ? j : 0, m), m, row_da, row_db, scratch);
        const bool zon = j >= iloz && j <= ihiz;
        zl.start(zon, &z(zon ? j : iloz, m), m, z_da, z_db, scratch);
    }
};

// A three-row chase step's loads on a member's L lines of each kind (t,
// zl), all ahead of the step's arithmetic (see ReplayLine::load3).
template <int L, class R>
BATCHEIG_HD void load3_lines(ReplayLine<R> (&t)[L], ReplayLine<R> (&zl)[L]) {
    for (int q = 0; q < L; ++q) {
        t[q].load3();
        zl[q].load3();
    }
}

// The loads, then the reflector (v2, v3, t1) on them; the stores and the
// move to the next step are the caller's.
template <int L, class R>
BATCHEIG_HD void load_apply3(ReplayLine<R> (&t)[L], ReplayLine<R> (&zl)[L], R v2, R v3, R t1) {
    const R t2 = t1 * v2, t3 = t1 * v3;
    load3_lines<L>(t, zl);
    for (int q = 0; q < L; ++q) {
        t[q].apply3(v2, v3, t1, t2, t3);
        zl[q].apply3(v2, v3, t1, t2, t3);
    }
}

// Two consecutive sweeps over the same block [l, i] from the same row m
// (i - m >= 3; ca, cb: their steps' (v2, v3, t1)) in one pass over each
// line, as qr_replay's sweep: the second runs two steps behind the first,
// so each entry sees the first sweep's steps, then the second's, in the
// order of the Schur-form run.
template <int L, class Team, class Lines, class R>
BATCHEIG_HD void replay_tandem(const Team &tm, const Lines &lines, index_t l, index_t i, index_t m, const R *ca,
                               const R *cb) {
    for (index_t base = 0; base < lines.n; base += L * tm.size()) {
        ReplayLine<R> t[L], zl[L];
        ReplayFollower<R> ft[L], fz[L];
        for (int q = 0; q < L; ++q) {
            lines.start(base + tm.rank() + q * tm.size(), l, i, m, t[q], zl[q]);
            ft[q].start(t[q]);
            fz[q].start(zl[q]);
        }
        const R *c = ca, *d = cb;
        R v2 = c[0], v3 = c[1], t1 = c[2];
        // Steps m and m + 1 of the first sweep: the second's first entries.
        for (index_t kk = m; kk < m + 2; ++kk) {
            const R nv2 = c[3], nv3 = c[4], nt1 = c[5];
            load_apply3<L>(t, zl, v2, v3, t1);
            for (int q = 0; q < L; ++q) {
                const R xt = t[q].pass3(kk), xz = zl[q].pass3(kk);
                if (kk == m) {
                    ft[q].a0 = xt;
                    fz[q].a0 = xz;
                } else {
                    ft[q].a1 = xt;
                    fz[q].a1 = xz;
                }
            }
            v2 = nv2;
            v3 = nv3;
            t1 = nt1;
            c += 3;
        }
        // Step kk of the first sweep with step kk - 2 of the second.
        R w2 = d[0], w3 = d[1], u1 = d[2];
        const index_t last = i - 1;
        BATCHEIG_NO_UNROLL
        for (index_t kk = m + 2; kk < last; ++kk) {
            const R nv2 = c[3], nv3 = c[4], nt1 = c[5];
            const R nw2 = d[3], nw3 = d[4], nu1 = d[5];
            const R t2 = t1 * v2, t3 = t1 * v3;
            const R u2 = u1 * w2, u3 = u1 * w3;
            load3_lines<L>(t, zl);
            for (int q = 0; q < L; ++q) {
                t[q].apply3(v2, v3, t1, t2, t3);
                zl[q].apply3(v2, v3, t1, t2, t3);
                ft[q].a2 = t[q].pass3(kk);
                fz[q].a2 = zl[q].pass3(kk);
                ft[q].apply3(w2, w3, u1, u2, u3);
                fz[q].apply3(w2, w3, u1, u2, u3);
            }
            for (int q = 0; q < L; ++q) {
                ft[q].store3(kk - 2);
                fz[q].store3(kk - 2);
            }
            v2 = nv2;
            v3 = nv3;
            t1 = nt1;
            w2 = nw2;
            w3 = nw3;
            u1 = nu1;
            c += 3;
            d += 3;
        }
        // The first sweep's two-row step at i - 1 (its entries i - 1, i
        // stay in registers), then the second's steps i - 3, i - 2 and its
        // two-row step.
        {
            const R t2 = t1 * v2;
            for (int q = 0; q < L; ++q) {
                R unused = R(0);
                reflect3(2, t[q].a0, t[q].a1, unused, v2, R(0), t1, t2, R(0));
                reflect3(2, zl[q].a0, zl[q].a1, unused, v2, R(0), t1, t2, R(0));
            }
        }
        for (index_t kk = last - 2; kk < last; ++kk) {
            const R u2 = u1 * w2, u3 = u1 * w3;
            for (int q = 0; q < L; ++q) {
                ft[q].a2 = kk == last - 2 ? t[q].a0 : t[q].a1;
                fz[q].a2 = kk == last - 2 ? zl[q].a0 : zl[q].a1;
                ft[q].apply3(w2, w3, u1, u2, u3);
                fz[q].apply3(w2, w3, u1, u2, u3);
                ft[q].store3(kk);
                fz[q].store3(kk);
            }
            w2 = d[3];
            w3 = d[4];
            u1 = d[5];
            d += 3;
        }
        const R u2 = u1 * w2;
        for (int q = 0; q < L; ++q) {
            ft[q].step2(last, w2, u1, u2);
            fz[q].step2(last, w2, u1, u2);
        }
    }
}
}  // namespace detail

// Apply the log of an eigenvalues-only lahqr_real (slots [0, count) of
// log) to h (what that run left, any view type whose upper triangle and
// subdiagonal it can address) and to rows [iloz, ihiz] of z: h and z
// become what lahqr_real with wantt and wantz (on rows iloz..ihiz of z, as
// geev_qr runs it) would have left (see the top of this file). z holds the
// Schur vectors' start on entry (the orthogonal factor of the Hessenberg
// reduction). Collective. L: lines of each kind a member runs together
// in one pass over a sweep's steps (its lines j = base + rank + q size,
// q < L, for base = 0, L size, ...), sharing the reflectors' loads; a
// GPU team takes L near n / size. scratch: one entry of the member's own
// (what its lines that are off work on). tandem: two consecutive sweeps
// over the same rows run in one pass over the lines (replay_tandem), the
// same results with half the loads and stores of the lines' entries.
template <int L = 1, class Team, class M, class MZ, class R>
BATCHEIG_HD void qr_replay(const Team &tm, index_t n, index_t iloz, index_t ihiz, const R *log, index_t count, M h,
                           MZ z, R *scratch, bool tandem = true) {
    const detail::ReplayLines<M, MZ, R> lines(n, iloz, ihiz, h, z, scratch);
    // The next record is prefetched while one runs: the lines that hold a
    // sweep's record at its longest (four slots and three per row).
    constexpr index_t line_slots = index_t(128 / sizeof(R));
    const index_t ahead = (3 * n + 4 + line_slots - 1) / line_slots + 1;
    for (index_t q = tm.rank(); q < ahead && q * line_slots < count; q += tm.size())
        detail::prefetch_l1(log + q * line_slots);
    for (index_t pos = 0; pos < count;) {
        const int kind = int(log[pos]);
        const index_t a = index_t(log[pos + 1]);
        {
            const index_t next = pos + (kind == kQrLogSweep ? 4 + 3 * (index_t(log[pos + 2]) - index_t(log[pos + 3])) : 4);
            for (index_t q = tm.rank(); q < ahead && next + q * line_slots < count; q += tm.size())
                detail::prefetch_l1(log + next + q * line_slots);
        }
        if (kind == kQrLogSweep) {
            const index_t l = a, i = index_t(log[pos + 2]), m = index_t(log[pos + 3]);
            const index_t next = pos + 4 + 3 * (i - m);
            if (tandem && i - m >= 3 && next + 4 <= count && int(log[next]) == kQrLogSweep && index_t(log[next + 1]) == l &&
                index_t(log[next + 2]) == i && index_t(log[next + 3]) == m) {
                // A tandem pass: this sweep and the next, on the same rows
                // (so the same lines), each line's entries loaded and
                // stored once for both (see ReplayFollower).
                const index_t after = next + 4 + 3 * (i - m);
                for (index_t q = tm.rank(); q < ahead && after + q * line_slots < count; q += tm.size())
                    detail::prefetch_l1(log + after + q * line_slots);
                detail::replay_tandem<L>(tm, lines, l, i, m, log + pos + 4, log + next + 4);
                pos = after;
                tm.sync();
                continue;
            }
            for (index_t base = 0; base < n; base += L * tm.size()) {
                detail::ReplayLine<R> t[L], zl[L];
                for (int q = 0; q < L; ++q) lines.start(base + tm.rank() + q * tm.size(), l, i, m, t[q], zl[q]);
                const R *c = log + pos + 4;
                R v2 = c[0], v3 = c[1], t1 = c[2];
                const index_t last = i - 1;
                BATCHEIG_NO_UNROLL
                for (index_t kk = m; kk < last; ++kk) {
                    // The next step's reflector, loaded ahead (the two-row
                    // step's follows the last three-row one).
                    const R nv2 = c[3], nv3 = c[4], nt1 = c[5];
                    detail::load_apply3<L>(t, zl, v2, v3, t1);
                    for (int q = 0; q < L; ++q) {
                        t[q].store3(kk);
                        zl[q].store3(kk);
                    }
                    v2 = nv2;
                    v3 = nv3;
                    t1 = nt1;
                    c += 3;
                }
                const R t2 = t1 * v2;
                for (int q = 0; q < L; ++q) {
                    t[q].step2(last, v2, t1, t2);
                    zl[q].step2(last, v2, t1, t2);
                }
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
