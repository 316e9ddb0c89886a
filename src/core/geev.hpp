// One non-symmetric eigenproblem, as LAPACK's xGEEV: scaling, balancing,
// Hessenberg reduction, QR to Schur form, eigenvectors, back-transformation
// and normalization. Every backend calls this routine (the host backend on
// column-major views, GPU kernels on interleaved or shared-memory views).
#pragma once

#include "batcheig.h"
#include "core/balance.hpp"
#include "core/hessenberg.hpp"
#include "core/hqr.hpp"
#include "core/hqr_replay.hpp"
#include "core/trevc.hpp"

namespace batcheig::core {

// Scratch of one geev problem: O(n), never n x n (the Schur vectors are
// accumulated in the caller's VL or VR, and the eigenvector solutions kept
// below T's subdiagonal, core/trevc.hpp).
template <class T>
struct GeevWork {
    using R = real_t<T>;
    VecView<R> scale;  // n: balancing permutation / scaling
    VecView<T> tau;    // n: Householder factors
    VecView<R> cn;     // n: column norms for the eigenvector solves
    VecView<T> xt;     // 3n: the last three columns of the eigenvector solutions
    VecView<T> hd;     // 2n, when asked for: gehd2's two-sided form (core/hessenberg.hpp)
    // The blocked reduction's panel scratch, where a backend provides it
    // (nb >= 2; gehrd_panels_apply): not carved here, the CUDA global
    // variant points it at shared memory.
    GehrdPanel<T> panel{};

    // Bytes of one contiguous GeevWork; team: with hd (the teams that take
    // gehd2's two-sided form, core::two_sided_gehd2).
    BATCHEIG_HD static std::size_t bytes(index_t n, bool want_vectors, bool team = false) {
        std::size_t b = std::size_t(n) * (sizeof(R) + sizeof(T));
        if (want_vectors) b += std::size_t(n) * (sizeof(R) + 3 * sizeof(T));
        if (team) b += 2 * std::size_t(n) * sizeof(T);
        return b;
    }
    // Bytes of the eigenvector phase's scratch alone (carve_vectors): cn
    // and xt. tau and hd serve the reduction only, and a kernel that runs
    // the vectors in a launch of their own keeps the balancing factors
    // (scale) elsewhere.
    BATCHEIG_HD static std::size_t bytes_vectors(index_t n) {
        return std::size_t(n) * (sizeof(R) + 3 * sizeof(T));
    }
    // Lay the eigenvector phase's scratch out over `mem` (bytes_vectors
    // long): xt, then cn; tau, hd and scale null.
    BATCHEIG_HD static GeevWork carve_vectors(void *mem, index_t n) {
        GeevWork w{};
        T *pt = static_cast<T *>(mem);
        w.xt = VecView<T>{pt, 1};
        w.tau = w.hd = VecView<T>{nullptr, 1};
        w.scale = VecView<R>{nullptr, 1};
        w.cn = VecView<R>{reinterpret_cast<R *>(pt + 3 * n), 1};
        return w;
    }
    // Lay a GeevWork out over `mem` (T members first: they have the larger alignment).
    BATCHEIG_HD static GeevWork carve(void *mem, index_t n, bool want_vectors, bool team = false) {
        GeevWork w{};
        T *pt = static_cast<T *>(mem);
        w.tau = VecView<T>{pt, 1};
        pt += n;
        w.xt = VecView<T>{want_vectors ? pt : nullptr, 1};
        if (want_vectors) pt += 3 * n;
        w.hd = VecView<T>{team ? pt : nullptr, 1};
        if (team) pt += 2 * n;
        R *pr = reinterpret_cast<R *>(pt);
        w.scale = VecView<R>{pr, 1};
        w.cn = VecView<R>{want_vectors ? pr + n : nullptr, 1};
        return w;
    }
};

namespace detail {

// Largest |a(i,j)| (the modulus for complex), as xLANGE('M'); NaN if any
// entry is NaN, Inf if any is infinite.
template <class Team, class M>
BATCHEIG_HD real_t<typename M::value_type> max_abs(const Team &tm, index_t n, M a) {
    using R = real_t<typename M::value_type>;
    R m = R(0);
    bool bad = false;
    for (index_t j = tm.first(0); j < n; j += tm.size())
        for (index_t i = 0; i < n; ++i) {
            R v = cabs(a(i, j));
            if (!(v <= m)) {  // also true for NaN
                if (v != v) bad = true;
                else m = v;
            }
        }
    m = tm.max(m);
    bad = tm.max(bad ? 1 : 0) != 0;
    return bad ? R(NAN) : m;
}

template <class Team, class M>
BATCHEIG_HD void fill(const Team &tm, index_t n, M a, typename M::value_type v) {
    for (index_t j = tm.first(0); j < n; j += tm.size())
        for (index_t i = 0; i < n; ++i) a(i, j) = v;
    tm.sync();
}

// Eigenvalues [0, count) are NaN (both parts for real types).
template <class Team, class T>
BATCHEIG_HD void fail_values(const Team &tm, index_t count, VecView<T> w, VecView<real_t<T>> wi) {
    for (index_t i = tm.first(0); i < count; i += tm.size()) {
        w[i] = make_nan<T>();
        if constexpr (!is_complex<T>) wi[i] = real_t<T>(NAN);
    }
}

// lascl over a team: each member scales whole columns.
template <class Team, class M, class R>
BATCHEIG_HD void team_lascl(const Team &tm, R cfrom, R cto, index_t n, M a) {
    if constexpr (Team::serial) {
        lascl(cfrom, cto, n, n, a);
    } else {
        for (index_t j = tm.first(0); j < n; j += tm.size()) lascl(cfrom, cto, n, index_t(1), MatView<typename M::value_type>{&a(0, j), a.ld, a.es});
        tm.sync();
    }
}

// Index of the largest |v(r, i)|^2 (+ |v(r, i2)|^2 when i2 >= 0), the first
// one on ties; the largest value in best_out.
template <class M>
BATCHEIG_HD index_t argmax_sq(index_t n, M v, index_t i, index_t i2, real_t<typename M::value_type> &best_out) {
    using R = real_t<typename M::value_type>;
    index_t k = n;
    R best = R(-1);
    BATCHEIG_NO_UNROLL
    for (index_t r = 0; r < n; ++r) {
        R m = real(v(r, i)) * real(v(r, i)) + imag(v(r, i)) * imag(v(r, i));
        if (i2 >= 0) m = real(v(r, i)) * real(v(r, i)) + real(v(r, i2)) * real(v(r, i2));
        if (m > best) {
            best = m;
            k = r;
        }
    }
    best_out = best;
    return k < n ? k : 0;
}

// Float types normalize in double, in one pass over the squares (their
// sum, and the index of the largest) and one that writes: each entry is
// rounded once, so the norm is 1 to within one unit roundoff at any n, where
// xGEEV's float arithmetic leaves about sqrt(n) ulps. Squares of floats
// cannot overflow or underflow harmfully in double, so no scaled sums are
// needed. Column i of v, or the pair (i, i + 1) of a real matrix's complex
// pair (the rotation that makes the largest component real folded in).
template <class M>
BATCHEIG_HD void normalize_wide(index_t n, M v, index_t i, bool pair) {
    using T = typename M::value_type;
    using R = real_t<T>;
    double sum = 0, best = -1;
    index_t k = 0;
    BATCHEIG_NO_UNROLL
    for (index_t r = 0; r < n; ++r) {
        const double a = real(v(r, i));
        const double b = pair ? double(real(v(r, i + 1))) : double(imag(v(r, i)));
        const double m = a * a + b * b;
        sum += m;
        if (m > best) {
            best = m;
            k = r;
        }
    }
    const double scale = 1.0 / sqrt(sum);
    if constexpr (is_complex<T>) {
        // Times conj(v_k) / |v_k|: the largest component becomes real.
        const double q = scale / sqrt(best);
        const double fr = real(v(k, i)) * q, fi = -double(imag(v(k, i))) * q;
        BATCHEIG_NO_UNROLL
        for (index_t r = 0; r < n; ++r) {
            const double a = real(v(r, i)), b = imag(v(r, i));
            v(r, i) = T(static_cast<R>(a * fr - b * fi), static_cast<R>(a * fi + b * fr));
        }
        v(k, i) = T(real(v(k, i)));
    } else if (pair) {
        double cs, sn, rr;
        lartg(double(v(k, i)), double(v(k, i + 1)), cs, sn, rr);
        cs *= scale;
        sn *= scale;
        BATCHEIG_NO_UNROLL
        for (index_t r = 0; r < n; ++r) {
            const double a = v(r, i), b = v(r, i + 1);
            v(r, i) = static_cast<R>(cs * a + sn * b);
            v(r, i + 1) = static_cast<R>(cs * b - sn * a);
        }
        v(k, i + 1) = R(0);
    } else {
        BATCHEIG_NO_UNROLL
        for (index_t r = 0; r < n; ++r) v(r, i) = static_cast<R>(v(r, i) * scale);
    }
}

// Normalize real eigenvectors as xGEEV: unit 2-norm, and for a complex pair
// the component of largest modulus made real. Double: xGEEV's steps, then
// renormalize_unit takes the norm from within about sqrt(n) ulps of 1 to
// within about one; float: normalize_wide. Each member normalizes the
// columns it owns (a pair by the owner of its first column), serially.
template <class Team, class M, class V>
BATCHEIG_HD void normalize_real(const Team &tm, index_t n, M v, V wi) {
    using R = typename M::value_type;
    const SerialTeam one;
    for (index_t i = tm.first(0); i < n; i += tm.size()) {
        if constexpr (sizeof(R) < sizeof(double)) {
            if (wi[i] >= R(0)) normalize_wide(n, v, i, wi[i] > R(0));
        } else if (wi[i] == R(0)) {
            const R nrm = team_nrm2(one, n, v.col(i));
            team_scal(one, n, R(1) / nrm, v.col(i));
            renormalize_unit(n, v.col(i), v.col(i), false);
        } else if (wi[i] > R(0)) {
            const R n1 = team_nrm2(one, n, v.col(i));
            const R n2 = team_nrm2(one, n, v.col(i + 1));
            const R scl = R(1) / lapy2(n1, n2);
            team_scal(one, n, scl, v.col(i));
            team_scal(one, n, scl, v.col(i + 1));
            R best;
            const index_t k = argmax_sq(n, v, i, i + 1, best);
            R cs, sn, rr;
            lartg(v(k, i), v(k, i + 1), cs, sn, rr);
            team_rot(one, n, v.col(i), v.col(i + 1), cs, sn);
            v(k, i + 1) = R(0);
            renormalize_unit(n, v.col(i), v.col(i + 1), true);
        }
    }
    tm.sync();
}

// One entry's part of a sum of squares near 1, for normalize_real_short:
// x^2 = p + e (split_square) as an integer count of 2^-62 (p's part, exact
// for p >= 2^-10, and p <= 1 here) and the rest, in the same unit, in
// `rest`. The integer parts add exactly and with a short chain; the sum's
// error is the rests' alone, far below one unit roundoff of 1. A square
// that is not below 2 (none after the first scaling, unless it is Inf or
// NaN, whose vector is then NaN anyway) adds nothing.
BATCHEIG_HD void fixed_square(double x, std::int64_t &whole, double &rest) {
    double p, e;
    split_square(x, p, e);
    if (!(p < 2.0)) return;
    const double ps = p * 0x1p62;
    const std::int64_t k = static_cast<std::int64_t>(ps);  // ps - k is exact
    whole += k;
    rest += (ps - double(k)) + e * 0x1p62;
}

// Double real eigenvectors of a team, each member its own vectors as
// normalize_real, but in three passes over the rows that are the same for
// a real vector and a pair (a real vector's second column is its first,
// and counts as zero):
//   1. the sum of squares s1 and the row k of the largest |v_k|^2 (the
//      first on ties, as argmax_sq); where s1 is outside [2^-900, 2^900]
//      (squares overflowed, or underflowed with harm) the vector is first
//      scaled by an exact power of two and s1 taken again, so Blue's sums
//      are not needed;
//   2. xGEEV's scaling by 1 / sqrt(s1) (1 / dnrm2; for a pair 1 / dlapy2
//      of the two norms) and a pair's rotation (dlartg on row k, then drot,
//      v(k, i + 1) = 0), with the squares of the result summed in fixed
//      point (fixed_square);
//   3. renormalize_unit's correction from that sum.
// normalize_real's passes (two of Blue's sums for a pair, the scalings, the
// search, the rotation and renormalize_unit's two) each waited on a chain
// of additions, and the members with real vectors and with pairs took
// different paths; at double n = 30 with 32 lanes the normalization was a
// sixth of the eigenvector launch's time. (The calls with right vectors
// got 1.2-1.4 % faster at double n = 20-25 and no faster at 30: H100,
// docs/performance.md, session 100. Normalizing one vector at a time over
// the whole team, with team reductions, was slower.)
template <class Team, class M, class V>
BATCHEIG_HD void normalize_real_short(const Team &tm, index_t n, M v, V wi) {
    using R = typename M::value_type;
    static_assert(sizeof(R) == sizeof(double), "double only");
    for (index_t i = tm.first(0); i < n; i += tm.size()) {
        const R wii = wi[i];
        if (wii < R(0)) continue;  // the second column of a pair
        const bool pair = wii > R(0);
        const index_t i2 = pair ? i + 1 : i;
        R s1 = R(0), best = R(-1);
        index_t k = 0;
        auto squares = [&]() {
            s1 = R(0);
            best = R(-1);
            k = 0;
            for (index_t r = 0; r < n; ++r) {
                const R a = v(r, i), b = pair ? v(r, i2) : R(0);
                const R q = a * a + b * b;
                s1 += q;
                if (q > best) {
                    best = q;
                    k = r;
                }
            }
        };
        squares();
        if (s1 == s1 && !(s1 >= R(0x1p-900) && s1 <= R(0x1p900))) {
            R m = R(0);
            for (index_t r = 0; r < n; ++r) m = rmax(m, rmax(rabs(v(r, i)), rabs(v(r, i2))));
            if (m > R(0) && m <= limits<R>::huge()) {
                const int e = ilogb(m);
                for (index_t r = 0; r < n; ++r) {
                    v(r, i) = ldexp(v(r, i), -e);
                    if (pair) v(r, i2) = ldexp(v(r, i2), -e);
                }
                squares();
            }
        }
        const R scl = R(1) / rsqrt_(s1);
        R cs = R(1), sn = R(0), rr;
        if (pair) lartg(v(k, i) * scl, v(k, i2) * scl, cs, sn, rr);
        std::int64_t whole = 0;
        R rest = R(0);
        for (index_t r = 0; r < n; ++r) {
            const R x = v(r, i) * scl, y = pair ? v(r, i2) * scl : R(0);
            const R xr = pair ? cs * x + sn * y : x;
            const R yr = pair && r != k ? cs * y - sn * x : R(0);
            v(r, i) = xr;
            if (pair) v(r, i2) = yr;
            fixed_square(xr, whole, rest);
            fixed_square(yr, whole, rest);
        }
        // As renormalize_unit: d = sum - 1, one rounding for a sum near 1.
        const R d = (R(whole - (std::int64_t(1) << 62)) + rest) * R(0x1p-62);
        const R scale = unit_scale(d, R(1) + d);
        for (index_t r = 0; r < n; ++r) {
            v(r, i) = v(r, i) * scale;
            if (pair) v(r, i2) = v(r, i2) * scale;
        }
    }
    tm.sync();
}

// Normalize complex eigenvectors as xGEEV: unit 2-norm, largest component
// real (double: xGEEV's steps, then renormalize_unit; float:
// normalize_wide); each member its own columns, serially.
template <class Team, class M>
BATCHEIG_HD void normalize_complex(const Team &tm, index_t n, M v) {
    using T = typename M::value_type;
    using R = real_t<T>;
    const SerialTeam one;
    for (index_t i = tm.first(0); i < n; i += tm.size()) {
        if constexpr (sizeof(R) < sizeof(double)) {
            normalize_wide(n, v, i, false);
        } else {
            const R nrm = team_nrm2(one, n, v.col(i));
            team_scal(one, n, R(1) / nrm, v.col(i));
            R best;
            const index_t k = argmax_sq(n, v, i, -1, best);
            T tmp = conj(v(k, i)) / rsqrt_(best);
            team_scal(one, n, tmp, v.col(i));
            v(k, i) = T(real(v(k, i)));
            renormalize_unit(n, v.col(i), v.col(i), false);
        }
    }
    tm.sync();
}

}  // namespace detail

// What the phases of one geev problem pass on to each other (geev_schur ->
// geev_vectors -> geev_finish): the balancing range, the QR info code and
// the scaling of a. The balancing factors stay in GeevWork::scale. A kernel
// that runs the phases in separate launches keeps this and GeevWork::scale
// in global memory between them.
template <class R>
struct GeevState {
    R anrm = R(0);    // largest |a(i,j)| of the input
    R cscale = R(1);  // what a was scaled to (when scalea)
    index_t ilo = 0, ihi = 0;
    index_t info = 0;  // 0, k in 1..n, or BATCHEIG_INFO_NONFINITE
    index_t scalea = 0;
    index_t qr_at = 0;  // QR in stages (QrStage): the unfinished block ends at row qr_at
    index_t qr_log = 0; // slots of the QR's log (QrLog) written so far; -1: it overflowed
};

// Phase 1a of geev: scaling, balancing and Hessenberg reduction, a
// overwritten by H (and the reflectors below its subdiagonal), the
// eigenvalues of the rows that balancing isolated in (w, wi), and (wantv)
// the orthogonal factor in z. Non-finite input: w, wi and (wantv) z are
// set to NaN and st.info = BATCHEIG_INFO_NONFINITE.
template <class T, class Team, class M>
BATCHEIG_HD void geev_reduce(const Team &tm, bool wantv, index_t n, M a, VecView<T> w, VecView<real_t<T>> wi, M z,
                             const GeevWork<T> &ws, GeevState<real_t<T>> &st) {
    using R = real_t<T>;
    constexpr bool cplx = is_complex<T>;
    // Scale a if its largest entry is outside [smlnum, bignum].
    st.anrm = detail::max_abs(tm, n, a);
    if (!is_finite(st.anrm)) {
        st.info = BATCHEIG_INFO_NONFINITE;
        detail::fail_values(tm, n, w, wi);
        if (wantv) detail::fill(tm, n, z, make_nan<T>());
        return;
    }
    const R smlnum = rsqrt_(limits<R>::safmin()) / limits<R>::ulp();
    const R bignum = R(1) / smlnum;
    st.scalea = 0;
    st.cscale = R(1);
    if (st.anrm > R(0) && st.anrm < smlnum) {
        st.scalea = 1;
        st.cscale = smlnum;
    } else if (st.anrm > bignum) {
        st.scalea = 1;
        st.cscale = bignum;
    }
    if (st.scalea) detail::team_lascl(tm, st.anrm, st.cscale, n, a);

    index_t ilo, ihi;
    gebal(tm, n, a, ilo, ihi, ws.scale);
    bool reduced = false;
    if constexpr (gehrd_panels_apply<Team, M>) {
        if (ws.panel.nb >= 2) {
            gehrd_panels(tm, n, ilo, ihi, a, ws.tau, ws.panel);
            reduced = true;
        }
    }
    if (!reduced) gehd2(tm, n, ilo, ihi, a, ws.tau, ws.hd);
    st.ilo = ilo;
    st.ihi = ihi;
    st.qr_at = ihi;
    if (wantv) orghr(tm, n, ilo, ihi, a, ws.tau, z);

    // Eigenvalues of the rows that balancing isolated.
    for (index_t i = tm.first(0); i < n; i += tm.size()) {
        if (i < ilo || i > ihi) {
            w[i] = a(i, i);
            if constexpr (!cplx) wi[i] = R(0);
        }
    }
}

// Phase 1b of geev (after geev_reduce, when st.info is 0): QR on H in h
// (any view type whose entries within three rows below the diagonal are
// H's, core/types.hpp), h overwritten by the Schur form T (wantv) or by
// what QR leaves of H, the eigenvalues in (w, wi), the Schur vectors
// accumulated in z (wantv; a view of any type, e.g. full while h is
// banded); st.info set to QR's code. stage: one stage of the
// eigenvalues-only iteration (QrStage, through geev_qr_stage).
template <class T, class Team, class M, class MZ>
BATCHEIG_HD void geev_qr(const Team &tm, bool wantv, index_t n, M h, VecView<T> w, VecView<real_t<T>> wi, MZ z,
                         index_t max_iterations, GeevState<real_t<T>> &st, QrStage *stage = nullptr) {
    const index_t ilo = st.ilo, ihi = st.ihi;
    if constexpr (is_complex<T>)
        st.info = lahqr_complex(tm, wantv, wantv, n, ilo, ihi, h, w, ilo, ihi, z, max_iterations, stage);
    else st.info = lahqr_real(tm, wantv, wantv, n, ilo, ihi, h, w, wi, ilo, ihi, z, max_iterations, stage);
    tm.sync();  // the eigenvalues (written by the leader) are visible to the team
}

// geev_qr for the eigenvalues alone in stages (QrStage): from the block
// that ends at row st.qr_at (st.ihi after geev_reduce) to the first
// deflation that leaves it ending below row pause (0: to the end), st.qr_at
// then where it ends (< st.ilo: done). Bitwise geev_qr's results, whatever
// the stages.
template <class T, class Team, class M>
BATCHEIG_HD void geev_qr_stage(const Team &tm, index_t n, M h, VecView<T> w, VecView<real_t<T>> wi,
                               index_t max_iterations, GeevState<real_t<T>> &st, index_t pause) {
    QrStage stage{st.qr_at, pause};
    geev_qr(tm, false, n, h, w, wi, M{nullptr}, max_iterations, st, &stage);
    st.qr_at = stage.at;
}

// geev_qr_stage (real types) that also keeps the QR iteration's log
// (QrLog) in slots [0, cap), continued from stage to stage through
// st.qr_log, for qr_replay (core/hqr_replay.hpp): with it, what an
// eigenvalues-only run leaves in h becomes the Schur form, and the
// reduction's orthogonal factor the Schur vectors, bitwise as geev_qr with
// wantv would have made them. The eigenvalues are bitwise geev_qr_stage's.
template <class T, class Team, class M>
BATCHEIG_HD void geev_qr_stage_logged(const Team &tm, index_t n, M h, VecView<T> w, VecView<T> wi,
                                      index_t max_iterations, GeevState<T> &st, index_t pause, T *slots, index_t cap) {
    static_assert(!is_complex<T>, "the QR log is kept for the real types only");
    QrStage stage{st.qr_at, pause};
    QrLog<T> log(tm, slots, st.qr_log, cap);
    st.info = lahqr_real(tm, false, false, n, st.ilo, st.ihi, h, w, wi, st.ilo, st.ihi, M{nullptr}, max_iterations,
                         &stage, &log);
    tm.sync();  // the eigenvalues and the log (written by the leader) are visible to the team
    st.qr_at = stage.at;
    st.qr_log = log.pos;
}

// Phase 1 of geev: geev_reduce, then geev_qr on a. Non-finite input: as
// geev_reduce.
template <class T, class Team, class M>
BATCHEIG_HD void geev_schur(const Team &tm, bool wantv, index_t n, M a, VecView<T> w, VecView<real_t<T>> wi, M z,
                            const GeevWork<T> &ws, index_t max_iterations, GeevState<real_t<T>> &st) {
    geev_reduce(tm, wantv, n, a, w, wi, z, ws, st);
    if (st.info == BATCHEIG_INFO_NONFINITE) return;
    geev_qr(tm, wantv, n, a, w, wi, z, max_iterations, st);
}

// Phase 2 of geev (wantvl or wantvr, after geev_schur with wantv): the
// eigenvectors from the Schur form in a and the Schur vectors in vl (when
// wanted, else vr), back-transformed and normalized as xGEEV. Does nothing
// unless QR converged (st.info == 0). wi: the imaginary parts (real T).
template <class T, class Team, class M>
BATCHEIG_HD void geev_vectors(const Team &tm, bool wantvl, bool wantvr, index_t n, M a, VecView<real_t<T>> wi,
                              M vl, M vr, const GeevWork<T> &ws, const GeevState<real_t<T>> &st) {
    constexpr bool cplx = is_complex<T>;
    // A team's double real vectors are normalized in three passes
    // (detail::normalize_real_short), a serial team's as xGEEV.
    constexpr bool short_norm = !Team::serial && !cplx && sizeof(real_t<T>) == sizeof(double);
    if (st.info != 0 || !(wantvl || wantvr)) return;
    if (wantvl && wantvr) {
        for (index_t j = tm.first(0); j < n; j += tm.size())
            for (index_t i = 0; i < n; ++i) vr(i, j) = vl(i, j);
        tm.sync();
    }
    if constexpr (cplx) trevc_complex(tm, wantvr, wantvl, n, a, vl, vr, ws.cn, ws.xt);
    else trevc_real(tm, wantvr, wantvl, n, a, vl, vr, ws.cn, ws.xt);
    if (wantvl) {
        gebak(tm, false, n, st.ilo, st.ihi, ws.scale, n, vl);
        if constexpr (cplx) detail::normalize_complex(tm, n, vl);
        else if constexpr (short_norm) detail::normalize_real_short(tm, n, vl, wi);
        else detail::normalize_real(tm, n, vl, wi);
    }
    if (wantvr) {
        gebak(tm, true, n, st.ilo, st.ihi, ws.scale, n, vr);
        if constexpr (cplx) detail::normalize_complex(tm, n, vr);
        else if constexpr (short_norm) detail::normalize_real_short(tm, n, vr, wi);
        else detail::normalize_real(tm, n, vr, wi);
    }
}

// Phase 3 of geev: undo the scaling of the valid eigenvalues; when QR did
// not converge, the eigenvalues it did not find and every vector are NaN.
// Returns the per-matrix info code.
template <class T, class Team, class M>
BATCHEIG_HD int geev_finish(const Team &tm, bool wantvl, bool wantvr, index_t n, VecView<T> w,
                            VecView<real_t<T>> wi, M vl, M vr, const GeevState<real_t<T>> &st) {
    using R = real_t<T>;
    if (st.info == BATCHEIG_INFO_NONFINITE) {
        // geev_schur set the eigenvalues and the Schur vectors to NaN.
        const T nan = make_nan<T>();
        if (wantvl && wantvr) detail::fill(tm, n, vr, nan);
        else tm.sync();
        return BATCHEIG_INFO_NONFINITE;
    }
    // The barrier first: the vector normalization reads wi in every member,
    // and its last iterations need not end with one.
    tm.sync();
    if (st.scalea && tm.leader()) {
        lascl_vec(st.cscale, st.anrm, n - st.info, VecView<T>{&w[st.info], w.inc});
        if constexpr (!is_complex<T>) lascl_vec(st.cscale, st.anrm, n - st.info, VecView<R>{&wi[st.info], wi.inc});
    }
    tm.sync();
    if (st.info > 0) {
        detail::fail_values(tm, st.info, w, wi);
        if (wantvl) detail::fill(tm, n, vl, make_nan<T>());
        if (wantvr) detail::fill(tm, n, vr, make_nan<T>());
    }
    return static_cast<int>(st.info);
}

// Eigen-decomposition of one n x n matrix a (overwritten). Real T: the
// eigenvalues go to (w, wi), LAPACK-packed real eigenvectors to vl / vr;
// complex T: eigenvalues to w (wi unused). Returns the per-matrix info code:
// 0, k in 1..n (QR did not converge; eigenvalues k..n-1 (0-based) are valid,
// the others and all vectors are NaN), or BATCHEIG_INFO_NONFINITE.
//
// tm: the team that solves this problem (core/team.hpp); every member calls
// geev with the same arguments and gets the same return value.
// M: the matrix view type of a, vl and vr (MatView, or SharedView when they
// live in shared memory).
template <class T, class Team, class M>
BATCHEIG_HD int geev(const Team &tm, bool wantvl, bool wantvr, index_t n, M a, VecView<T> w,
                     VecView<real_t<T>> wi, M vl, M vr, const GeevWork<T> &ws, index_t max_iterations) {
    GeevState<real_t<T>> st;
    geev_schur(tm, wantvl || wantvr, n, a, w, wi, wantvl ? vl : vr, ws, max_iterations, st);
    geev_vectors(tm, wantvl, wantvr, n, a, wi, vl, vr, ws, st);
    return geev_finish(tm, wantvl, wantvr, n, w, wi, vl, vr, st);
}

// The serial form (one thread per problem): host backend and the
// one-matrix-per-thread CUDA variant.
template <class T>
BATCHEIG_HD int geev(bool wantvl, bool wantvr, index_t n, MatView<T> a, VecView<T> w, VecView<real_t<T>> wi,
                     MatView<T> vl, MatView<T> vr, const GeevWork<T> &ws, index_t max_iterations) {
    return geev<T>(SerialTeam{}, wantvl, wantvr, n, a, w, wi, vl, vr, ws, max_iterations);
}

}  // namespace batcheig::core
