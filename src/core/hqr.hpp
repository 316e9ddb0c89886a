// Shifted QR iteration on an upper Hessenberg matrix (xLAHQR):
// Francis double-shift for real matrices, single Wilkinson shift for complex
// ones, with the Ahues-Tisseur deflation criterion, exceptional shifts after
// 10 and 20 iterations without deflation, and an iteration cap.
//
// wantt: compute the full Schur form T (else only the eigenvalues, working
// on the active block alone). wantz: accumulate the transformations into the
// rows [iloz, ihiz] of z. Returns 0, or i+1 (LAPACK's 1-based INFO) when the
// eigenvalue at row i did not converge within the cap: then eigenvalues
// i+1..n-1 (0-based) are final.
#pragma once

#include <type_traits>

#include "core/blas.hpp"

namespace batcheig::core {

namespace detail {
// Exceptional-shift constants of LAPACK's xLAHQR.
inline constexpr int kexsh = 10;
template <class R> BATCHEIG_HD constexpr R dat1() { return R(0.75); }
template <class R> BATCHEIG_HD constexpr R dat2() { return R(-0.4375); }

// base^(floor(log_base(safmin/ulp)/2)) of xLANV2: a power of two whose
// square stays clear of under- and overflow.
template <class R> BATCHEIG_HD R lanv2_safmn2();
template <> BATCHEIG_HD float lanv2_safmn2<float>() { return 0x1p-51f; }
template <> BATCHEIG_HD double lanv2_safmn2<double>() { return 0x1p-485; }

// Default iteration cap of xLAHQR for an active block of nh rows.
BATCHEIG_HD index_t default_itmax(index_t nh) { return 30 * (nh > 10 ? nh : 10); }

// Pieces of one real double-shift QR iteration (xLAHQR), used by
// lahqr_real; h is any matrix view.

// Ahues & Tisseur's test: is the subdiagonal entry h(k, k-1) negligible?
// Real or complex h (complex: LAPACK's cabs1 = |re| + |im| as the modulus,
// and the real parts of the subdiagonal, which xLAHQR keeps real).
template <class M, class R>
BATCHEIG_HD bool subdiag_negligible(M h, index_t k, index_t ilo, index_t ihi, R smlnum, R ulp) {
    if (abs1(h(k, k - 1)) <= smlnum) return true;
    R tst = abs1(h(k - 1, k - 1)) + abs1(h(k, k));
    if (tst == R(0)) {
        if (k - 2 >= ilo) tst += rabs(real(h(k - 1, k - 2)));
        if (k + 1 <= ihi) tst += rabs(real(h(k + 1, k)));
    }
    // Ahues & Tisseur's conservative deflation criterion.
    if (rabs(real(h(k, k - 1))) <= ulp * tst) {
        R ab = rmax(abs1(h(k, k - 1)), abs1(h(k - 1, k)));
        R ba = rmin(abs1(h(k, k - 1)), abs1(h(k - 1, k)));
        R aa = rmax(abs1(h(k, k)), abs1(h(k - 1, k - 1) - h(k, k)));
        R bb = rmin(abs1(h(k, k)), abs1(h(k - 1, k - 1) - h(k, k)));
        R s = aa + ab;
        if (ba * (ab / s) <= rmax(smlnum, ulp * (bb * (aa / s)))) return true;
    }
    return false;
}

// The two shifts (rt1r + i rt1i, rt2r + i rt2i) of one iteration.
template <class R>
struct DoubleShift {
    R rt1r, rt1i, rt2r, rt2i;
};

// Shifts of the iteration numbered kdefl (since the last deflation) on the
// active block [l, i]: exceptional shifts every 10th iteration (at the
// bottom every 20th, else at the top), the Francis double shift otherwise.
// Exceptional top shifts read rows l..l+2; all others rows i-2..i only.
template <class M>
BATCHEIG_HD DoubleShift<typename M::value_type> francis_shifts(M h, index_t l, index_t i, index_t kdefl) {
    using R = typename M::value_type;
    R h11, h12, h21, h22;
    if (kdefl % (2 * kexsh) == 0) {
        // Exceptional shift at the bottom.
        R s = rabs(h(i, i - 1)) + rabs(h(i - 1, i - 2));
        h11 = dat1<R>() * s + h(i, i);
        h12 = dat2<R>() * s;
        h21 = s;
        h22 = h11;
    } else if (kdefl % kexsh == 0) {
        // Exceptional shift at the top.
        R s = rabs(h(l + 1, l)) + rabs(h(l + 2, l + 1));
        h11 = dat1<R>() * s + h(l, l);
        h12 = dat2<R>() * s;
        h21 = s;
        h22 = h11;
    } else {
        // Francis double shift: the eigenvalues of the trailing 2x2.
        h11 = h(i - 1, i - 1);
        h21 = h(i, i - 1);
        h12 = h(i - 1, i);
        h22 = h(i, i);
    }
    DoubleShift<R> sh;
    R s = rabs(h11) + rabs(h12) + rabs(h21) + rabs(h22);
    if (s == R(0)) {
        sh.rt1r = sh.rt1i = sh.rt2r = sh.rt2i = R(0);
    } else {
        const R rs = R(1) / s;  // one division (every iteration computes shifts)
        h11 *= rs;
        h21 *= rs;
        h12 *= rs;
        h22 *= rs;
        R tr = (h11 + h22) / R(2);
        R det = (h11 - tr) * (h22 - tr) - h12 * h21;
        R rtdisc = rsqrt_(rabs(det));
        if (det >= R(0)) {
            // Complex conjugate shifts.
            sh.rt1r = tr * s;
            sh.rt2r = sh.rt1r;
            sh.rt1i = rtdisc * s;
            sh.rt2i = -sh.rt1i;
        } else {
            // Real shifts: use the one closer to h22, twice.
            sh.rt1r = tr + rtdisc;
            sh.rt2r = tr - rtdisc;
            if (rabs(sh.rt1r - h22) <= rabs(sh.rt2r - h22)) {
                sh.rt1r *= s;
                sh.rt2r = sh.rt1r;
            } else {
                sh.rt2r *= s;
                sh.rt1r = sh.rt2r;
            }
            sh.rt1i = sh.rt2i = R(0);
        }
    }
    return sh;
}

// First column (v0, v1, v2) of the double-shift polynomial at row m,
// scaled to unit 1-norm.
// Both scalings (which guard against over- and underflow; the reflector
// does not depend on them) multiply by one reciprocal: two divisions where
// xLAHQR has five, on the path from the shifts to the first reflector.
template <class M, class R>
BATCHEIG_HD void bulge_first_column(M h, index_t m, const DoubleShift<R> &sh, R &v0, R &v1, R &v2) {
    const R hmm = h(m, m), h21 = h(m + 1, m);
    const R rs = R(1) / (rabs(hmm - sh.rt2r) + rabs(sh.rt2i) + rabs(h21));
    const R h21s = h21 * rs;
    v0 = h21s * h(m, m + 1) + (hmm - sh.rt1r) * ((hmm - sh.rt2r) * rs) - sh.rt1i * (sh.rt2i * rs);
    v1 = h21s * (hmm + h(m + 1, m + 1) - sh.rt1r - sh.rt2r);
    v2 = h21s * h(m + 2, m + 1);
    const R rv = R(1) / (rabs(v0) + rabs(v1) + rabs(v2));
    v0 *= rv;
    v1 *= rv;
    v2 *= rv;
}

// Can the bulge start at row m (two consecutive small subdiagonals)? The
// test is invariant under scaling of (v0, v1, v2), so it uses the first
// column before its normalization to unit 1-norm, and one reciprocal for
// the scaling by s (which guards against overflow): one division where
// xLAHQR has five. Every iteration evaluates it at up to i - l - 1 rows.
template <class M, class R>
BATCHEIG_HD bool bulge_can_start(M h, index_t m, const DoubleShift<R> &sh, R ulp) {
    const R hmm = h(m, m), h21 = h(m + 1, m);
    const R s = rabs(hmm - sh.rt2r) + rabs(sh.rt2i) + rabs(h21);
    const R rs = R(1) / s;
    const R h21s = h21 * rs;
    const R v0 = h21s * h(m, m + 1) + (hmm - sh.rt1r) * ((hmm - sh.rt2r) * rs) - sh.rt1i * (sh.rt2i * rs);
    const R v1 = h21s * (hmm + h(m + 1, m + 1) - sh.rt1r - sh.rt2r);
    const R v2 = h21s * h(m + 2, m + 1);
    R h00 = rabs(h(m, m - 1)) * (rabs(v1) + rabs(v2));
    R h01 = rabs(v0) * (rabs(h(m - 1, m - 1)) + rabs(h(m, m)) + rabs(h(m + 1, m + 1)));
    return h00 <= ulp * h01;
}

// Apply the bulge reflector I - t1 (1, v2, v3)(1, v2, v3)^T (nr = 2 or 3;
// t2 = t1 v2, t3 = t1 v3) to the nr entries x[0], x[1], x[2] of a row or
// column of h. They are read once, before any store: a view's stride is a
// run-time value, so a compiler cannot tell that the stores do not alias
// the later reads, and would reload them (on the GPU, a shared-memory
// round trip on every QR step's critical path).
template <class E, class R>
BATCHEIG_HD void reflect3(index_t nr, E &x0, E &x1, E &x2, R v2, R v3, R t1, R t2, R t3) {
    if (nr == 3) {
        const R a0 = x0, a1 = x1, a2 = x2;
        const R sum = a0 + v2 * a1 + v3 * a2;
        x0 = a0 - sum * t1;
        x1 = a1 - sum * t2;
        x2 = a2 - sum * t3;
    } else if (nr == 2) {
        const R a0 = x0, a1 = x1;
        const R sum = a0 + v2 * a1;
        x0 = a0 - sum * t1;
        x1 = a1 - sum * t2;
    }
}

// ... from the left to column j of h, rows kk..kk+nr-1 ...
template <class M, class R>
BATCHEIG_HD void reflect_rows(M h, index_t kk, index_t j, index_t nr, R v2, R v3, R t1, R t2, R t3) {
    R unused = R(0);
    reflect3(nr, h(kk, j), h(kk + 1, j), nr == 3 ? h(kk + 2, j) : unused, v2, v3, t1, t2, t3);
}

// ... and from the right to row j, columns kk..kk+nr-1.
template <class M, class R>
BATCHEIG_HD void reflect_cols(M h, index_t j, index_t kk, index_t nr, R v2, R v3, R t1, R t2, R t3) {
    R unused = R(0);
    reflect3(nr, h(j, kk), h(j, kk + 1), nr == 3 ? h(j, kk + 2) : unused, v2, v3, t1, t2, t3);
}

// ... from the right to row j of h and of z at once, columns kk..kk+nr-1,
// storing only into the rows asked for (in_h, in_z). All six entries are
// read before any store: h and z are distinct arrays, which a compiler
// cannot tell, so it would otherwise wait for h's stores before loading z's
// entries. Both rows must exist (j < n, columns kk..kk+nr-1 < n).
template <class M>
inline constexpr bool kIsBand = false;
template <class T>
inline constexpr bool kIsBand<HessBandView<T>> = true;

// Row j of h reads in the pass over the rows of h and z: every row of a
// whole matrix can be read; a band has no row below its third subdiagonal
// (there its indexing reaches other columns' entries, which other members
// may be writing), so only the rows stored into (in_h) are read there.
template <class M>
BATCHEIG_HD bool read_h_row(bool in_h) {
    return !kIsBand<M> || in_h;
}

template <class M, class MZ, class R>
BATCHEIG_HD void reflect_cols_hz(M h, bool in_h, MZ z, bool in_z, index_t j, index_t kk, index_t nr, R v2, R v3,
                                 R t1, R t2, R t3) {
    R h0 = R(0), h1 = R(0), h2 = R(0);
    if (read_h_row<M>(in_h)) {
        h0 = h(j, kk);
        h1 = h(j, kk + 1);
        if (nr == 3) h2 = h(j, kk + 2);
    }
    R z0 = z(j, kk), z1 = z(j, kk + 1), z2 = nr == 3 ? z(j, kk + 2) : R(0);
    reflect3(nr, h0, h1, h2, v2, v3, t1, t2, t3);
    reflect3(nr, z0, z1, z2, v2, v3, t1, t2, t3);
    if (in_h) {
        h(j, kk) = h0;
        h(j, kk + 1) = h1;
        if (nr == 3) h(j, kk + 2) = h2;
    }
    if (in_z) {
        z(j, kk) = z0;
        z(j, kk + 1) = z1;
        if (nr == 3) z(j, kk + 2) = z2;
    }
}

// The complex single-shift step's reflector on two entries x0, x1 of a
// column of h (from the left: c = conj(t1), d = v2) or of a row of h or z
// (from the right: c = t1, d = conj(v2)); t2 = Re(t1 v2). Both entries are
// read before either is stored (see reflect3).
template <class E, class R>
BATCHEIG_HD void reflect2(E &x0, E &x1, E c, R t2, E d) {
    const E a0 = x0, a1 = x1;
    const E sum = c * a0 + t2 * a1;
    x0 = a0 - sum;
    x1 = a1 - sum * d;
}

// ... from the right to row j of h and of z at once (as reflect_cols_hz).
template <class M, class MZ, class E, class R>
BATCHEIG_HD void reflect2_cols_hz(M h, bool in_h, MZ z, bool in_z, index_t j, index_t kk, E t1, R t2, E cv2) {
    E h0 = E(0), h1 = E(0);
    if (read_h_row<M>(in_h)) {
        h0 = h(j, kk);
        h1 = h(j, kk + 1);
    }
    E z0 = z(j, kk), z1 = z(j, kk + 1);
    reflect2(h0, h1, t1, t2, cv2);
    reflect2(z0, z1, t1, t2, cv2);
    if (in_h) {
        h(j, kk) = h0;
        h(j, kk + 1) = h1;
    }
    if (in_z) {
        z(j, kk) = z0;
        z(j, kk + 1) = z1;
    }
}

// A plane rotation (as team_rot) of rows r and r+1 of h over columns
// [c0, c1], and of columns c and c+1 over rows [r0, r1]; through the view's
// indexing, so that any view type (HessBandView included) can run it.
// The rotation of one pair of entries (x, y): (c x + s y, c y - s x).
template <class R>
BATCHEIG_HD void rot_pair(R &x, R &y, R c, R s) {
    const R a = x, b = y;
    y = c * b - s * a;
    x = c * a + s * b;
}
template <class Team, class M, class R>
BATCHEIG_HD void rot_rows(const Team &tm, M h, index_t r, index_t c0, index_t c1, R c, R s) {
    for (index_t j = tm.first(c0); j <= c1; j += tm.size()) rot_pair(h(r, j), h(r + 1, j), c, s);
    tm.sync();
}
template <class Team, class M, class R>
BATCHEIG_HD void rot_cols(const Team &tm, M h, index_t c, index_t r0, index_t r1, R cs, R sn) {
    for (index_t j = tm.first(r0); j <= r1; j += tm.size()) rot_pair(h(j, c), h(j, c + 1), cs, sn);
    tm.sync();
}

}  // namespace detail

// Schur factorization of a real 2x2 nonsymmetric matrix in standardized
// form (xLANV2):  [a b; c d] = [cs -sn; sn cs] [aa bb; cc dd] [cs sn; -sn cs]
// where either cc = 0 (real eigenvalues) or aa = dd and bb*cc < 0 (complex
// conjugate pair). Comparisons are written so that contracting a*b+c into a
// fused multiply-add cannot change which branch is taken for exact inputs.
template <class R>
BATCHEIG_HD void lanv2(R &a, R &b, R &c, R &d, R &rt1r, R &rt1i, R &rt2r, R &rt2i, R &cs, R &sn) {
    const R multpl = R(4);
    const R eps = limits<R>::ulp();
    const R safmn2 = detail::lanv2_safmn2<R>();
    const R safmx2 = R(1) / safmn2;
    if (c == R(0)) {
        cs = R(1);
        sn = R(0);
    } else if (b == R(0)) {
        // Swap rows and columns.
        cs = R(0);
        sn = R(1);
        R temp = d;
        d = a;
        a = temp;
        b = -c;
        c = R(0);
    } else if ((a - d) == R(0) && sign(R(1), b) != sign(R(1), c)) {
        cs = R(1);
        sn = R(0);
    } else {
        R temp = a - d;
        R p = R(0.5) * temp;
        R bcmax = rmax(rabs(b), rabs(c));
        R bcmis = rmin(rabs(b), rabs(c)) * sign(R(1), b) * sign(R(1), c);
        R scale = rmax(rabs(p), bcmax);
        R z = (p / scale) * p + (bcmax / scale) * bcmis;
        // If z is of the order of the machine accuracy, postpone the
        // decision on the nature of the eigenvalues.
        if (z >= multpl * eps) {
            // Real eigenvalues: compute a and d.
            z = p + sign(rsqrt_(scale) * rsqrt_(z), p);
            a = d + z;
            d = d - (bcmax / z) * bcmis;
            R tau = lapy2(c, z);
            cs = z / tau;
            sn = c / tau;
            b = b - c;
            c = R(0);
        } else {
            // Complex eigenvalues, or real (almost) equal eigenvalues:
            // make the diagonal elements equal.
            int count = 0;
            R sigma = b + c;
            for (;;) {
                ++count;
                scale = rmax(rabs(temp), rabs(sigma));
                if (scale >= safmx2) {
                    sigma *= safmn2;
                    temp *= safmn2;
                    if (count <= 20) continue;
                }
                if (scale <= safmn2) {
                    sigma *= safmx2;
                    temp *= safmx2;
                    if (count <= 20) continue;
                }
                break;
            }
            p = R(0.5) * temp;
            R tau = lapy2(sigma, temp);
            cs = rsqrt_(R(0.5) * (R(1) + rabs(sigma) / tau));
            sn = -(p / (tau * cs)) * sign(R(1), sigma);
            // [aa bb; cc dd] = [a b; c d] [cs -sn; sn cs]
            R aa = a * cs + b * sn, bb = -a * sn + b * cs;
            R cc = c * cs + d * sn, dd = -c * sn + d * cs;
            // [a b; c d] = [cs sn; -sn cs] [aa bb; cc dd]
            a = aa * cs + cc * sn;
            b = bb * cs + dd * sn;
            c = -aa * sn + cc * cs;
            d = -bb * sn + dd * cs;
            temp = R(0.5) * (a + d);
            a = temp;
            d = temp;
            if (c != R(0)) {
                if (b != R(0)) {
                    if (sign(R(1), b) == sign(R(1), c)) {
                        // Real eigenvalues: reduce to upper triangular form.
                        R sab = rsqrt_(rabs(b)), sac = rsqrt_(rabs(c));
                        p = sign(sab * sac, c);
                        tau = R(1) / rsqrt_(rabs(b + c));
                        a = temp + p;
                        d = temp - p;
                        b = b - c;
                        c = R(0);
                        R cs1 = sab * tau, sn1 = sac * tau;
                        temp = cs * cs1 - sn * sn1;
                        sn = cs * sn1 + sn * cs1;
                        cs = temp;
                    }
                } else {
                    b = -c;
                    c = R(0);
                    temp = cs;
                    cs = -sn;
                    sn = temp;
                }
            }
        }
    }
    rt1r = a;
    rt2r = d;
    if (c == R(0)) {
        rt1i = R(0);
        rt2i = R(0);
    } else {
        rt1i = rsqrt_(rabs(b)) * rsqrt_(rabs(c));
        rt2i = -rt1i;
    }
}

// The record of an eigenvalues-only real QR iteration (lahqr_real without
// the Schur form or vectors) from which qr_replay (core/hqr_replay.hpp)
// makes what the iteration with the Schur form and vectors would have
// left: the rest of T, and Z. With the Schur form, xLAHQR also updates the
// rows right of the active block and the rows above it, and Z; none of
// that feeds back into the active block, whose arithmetic is the same
// either way. So the iteration runs on the active block alone, and the
// log keeps what the rest needs, in slots of the real type:
//   a sweep on the block [l, i] whose bulge starts at row m:
//     kQrLogSweep, l, i, m, then (v2, v3, t1) of each chase step
//     kk = m..i-1 (v3 = 0 at the last, two-row step);
//   a 2 x 2 block split off at rows i-1, i: kQrLogSplit, i, cs, sn (the
//     standardizing rotation; the block itself is stored in h either way).
// Every member of a team keeps the same position; the leader writes the
// records, members 0, 1, 2 a chase step's slots. A sweep's record takes
// the room of its steps too; a record that would not fit marks the log
// overflowed (pos = -1) and ends
// it; the iteration goes on without it (a caller then needs another way
// to the Schur form). A stage (QrStage) continues the log where the one
// before stopped.
inline constexpr int kQrLogSweep = 1;
inline constexpr int kQrLogSplit = 2;

struct NoQrLog {
    static constexpr bool enabled = false;
};

template <class R>
struct QrLog {
    static constexpr bool enabled = true;
    index_t pos;  // slots written or reserved; -1: overflowed
    index_t cap;  // slots available
    // Where this member writes its slot of the next chase step (member r
    // < 3 of a team of three or more writes slot r of each step; the
    // leader, at offset 0, writes the records). A pointer carried from
    // step to step: on the GPU the stage formed the slot's address anew
    // at every step from the kernel's parameters (the stages are held to
    // few registers), about 8 of the 25 instructions its store took.
    R *at;
    bool writes;  // this member writes a slot of each step

    template <class Team>
    BATCHEIG_HD QrLog(const Team &tm, R *slots, index_t pos_, index_t cap_)
        : pos(pos_), cap(cap_), at(slots + (pos_ < 0 ? 0 : pos_) + (tm.size() >= 3 && tm.rank() < 3 ? tm.rank() : 0)),
          writes(tm.size() < 3 || tm.rank() < 3) {}

    // Room for k more slots; if not, the log is marked overflowed.
    BATCHEIG_HD bool reserve(index_t k) {
        if (pos < 0) return false;
        if (pos + k > cap) {
            pos = -1;
            return false;
        }
        return true;
    }
    // A sweep's record of four slots and the room of its `steps` chase
    // steps, or nothing if they do not fit (then the log is overflowed,
    // and the steps write nothing).
    template <class Team>
    BATCHEIG_HD void sweep(const Team &tm, R l, R i, R m, index_t steps) {
        if (reserve(4 + 3 * steps)) {
            record(tm, R(kQrLogSweep), l, i, m);
            pos += 3 * steps;
        }
    }
    // A chase step's reflector (its room taken by sweep): members 0, 1,
    // 2 write one slot each (one store per step in a team of three or
    // more).
    template <class Team>
    BATCHEIG_HD void step(const Team &tm, R v2, R v3, R t1) {
        const bool on = pos >= 0;
        if (tm.size() >= 3) {
            const index_t r = tm.rank();
            const R x = r == 0 ? v2 : r == 1 ? v3 : t1;
            if (on && writes) *at = x;
        } else if (on) {
            for (index_t q = tm.rank(); q < 3; q += tm.size()) at[q] = q == 0 ? v2 : q == 1 ? v3 : t1;
        }
        at += 3;
    }
    // A record of four slots (the leader writes; every member advances),
    // its room reserved.
    template <class Team>
    BATCHEIG_HD void record(const Team &tm, R a, R b, R c, R d) {
        if (tm.leader()) {
            at[0] = a;
            at[1] = b;
            at[2] = c;
            at[3] = d;
        }
        pos += 4;
        at += 4;
    }
};

// Slots a log needs at most for an order-n matrix whose QR iteration takes
// `steps` chase steps in `sweeps` sweeps: three per step, four per sweep
// and four per 2 x 2 split (at most n / 2).
BATCHEIG_HD index_t qr_log_slots(index_t n, index_t steps, index_t sweeps) {
    return 3 * steps + 4 * sweeps + 4 * (n / 2);
}

namespace detail {
// Standardize the 2x2 block at rows i-1, i of h that has split off, store
// its eigenvalues in (wr, wi), and (wantt, wantz) apply the rotation to the
// rest of h and to z. Every member computes the rotation from its own copy
// of the block.
// log: the rotation goes to a QrLog (eigenvalues only), or none.
template <class Team, class M, class MZ, class V, class Log = NoQrLog>
BATCHEIG_HD void split_off_2x2(const Team &tm, bool wantt, bool wantz, M h, MZ z, index_t i, index_t i1, index_t i2,
                               index_t iloz, index_t ihiz, V wr, V wi, Log *log = nullptr) {
    using R = typename M::value_type;
    R a = h(i - 1, i - 1), b = h(i - 1, i), c = h(i, i - 1), d = h(i, i);
    R rt1r, rt1i, rt2r, rt2i, cs, sn;
    lanv2(a, b, c, d, rt1r, rt1i, rt2r, rt2i, cs, sn);
    if constexpr (Log::enabled) {
        if (log->reserve(4)) log->record(tm, R(kQrLogSplit), R(i), cs, sn);
    }
    tm.sync();  // every member has read the block
    if (tm.leader()) {
        h(i - 1, i - 1) = a;
        h(i - 1, i) = b;
        h(i, i - 1) = c;
        h(i, i) = d;
        wr[i - 1] = rt1r;
        wi[i - 1] = rt1i;
        wr[i] = rt2r;
        wi[i] = rt2i;
    }
    if (wantt) {
        // Apply the rotation to the rest of h.
        if (i2 > i) rot_rows(tm, h, i - 1, i + 1, i2, cs, sn);
        rot_cols(tm, h, i - 1, i1, i - 2, cs, sn);
    }
    if (wantz) rot_cols(tm, z, i - 1, iloz, ihiz, cs, sn);
    tm.sync();
}

// The same, called rather than inlined. lahqr_real calls it with the Schur
// form (wantt), where the GPU's Schur launch was faster so (double, right
// vectors, n = 30, 50 000 matrices on an H100: 36.7 ms against 37.7
// inlined); the eigenvalue launches, with no rotations, keep it inlined.
template <class Team, class M, class MZ, class V>
BATCHEIG_HD_OUTLINED void split_off_2x2_outlined(const Team &tm, bool wantt, bool wantz, M h, MZ z, index_t i,
                                                 index_t i1, index_t i2, index_t iloz, index_t ihiz, V wr, V wi) {
    split_off_2x2(tm, wantt, wantz, h, z, i, i1, i2, iloz, ihiz, wr, wi);
}

// Whether lahqr_real without the Schur form or vectors leaves the zeros
// behind each bulge unstored and reads them as zeros instead. Same results
// either way. On the GPU it saves the stores (double, 200 000 matrices on
// an H200: n = 12 / 20 / 30 0.9 / 1.5 / 2.5 % faster; docs/performance.md,
// session 43); on the host the selects in the pass over the columns cost
// more than the stores (double n = 20 / 30 about 8 % slower on two cores).
#if defined(__CUDA_ARCH__)
inline constexpr bool kImplicitBulgeZeros = true;
#else
inline constexpr bool kImplicitBulgeZeros = false;
#endif
}  // namespace detail

// The QR iteration in stages (eigenvalues only: the CUDA QR launches on the
// band, cuda/geev/geev_team.cuh). A stage starts on the unfinished block
// that ends at row `at` (ihi: from the start, with the preparation a fresh
// start makes) and pauses after the first deflation that leaves it ending
// below row `pause`. The sweep count, the exceptional-shift count and the
// block's top restart at every deflation, so at a pause the iteration's
// whole state is `at` and the band's columns 0..at; the next stage, which
// may hold no more than those, continues from there and computes bitwise
// what one stage would have. (A team that kept iterating past its pause
// while another team of its warp was above its own made the GPU's stages
// slower, double n = 30 by 10 %; docs/performance.md, session 77.)
struct QrStage {
    index_t at;     // in: the unfinished block ends at row at; out: where it ends now (< ilo: done)
    index_t pause;  // pause once at < pause (0: run to the end)

    // What lahqr_real and lahqr_complex ask of a stage s (null: the whole
    // iteration, one stage from ihi down to ilo):
    // whether the call starts fresh (and prepares the matrix first);
    BATCHEIG_HD static bool fresh(const QrStage *s, index_t ihi) { return !s || s->at == ihi; }
    // the row where the unfinished block ends at the start;
    BATCHEIG_HD static index_t start(const QrStage *s, index_t ihi) { return s ? s->at : ihi; }
    // the row below which a deflation ends the call;
    BATCHEIG_HD static index_t stop(const QrStage *s, index_t ilo) { return s && s->pause > ilo ? s->pause : ilo; }
    // and where the unfinished block ends at the return.
    BATCHEIG_HD static void end(QrStage *s, index_t i) {
        if (s) s->at = i;
    }
};

// Real double-shift QR (xLAHQR). h is n x n upper Hessenberg in rows and
// columns [ilo, ihi]; eigenvalues go to (wr, wi)[ilo..ihi].
// (Four shifts in one five-row bulge took 36-42 % fewer chase steps but
// ran slower on the GPU at n <= 30: docs/performance.md, "Session 19".)
// stage: run one stage of the eigenvalues-only iteration (QrStage; null:
// the whole iteration).
// log: the record for qr_replay (QrLog; eigenvalues only), or none.
template <class Team, class M, class V, class MZ, class Log = NoQrLog>
BATCHEIG_HD index_t lahqr_real(const Team &tm, bool wantt, bool wantz, index_t n, index_t ilo, index_t ihi, M h, V wr,
                               V wi, index_t iloz, index_t ihiz, MZ z, index_t itmax_user,
                               QrStage *stage = nullptr, Log *log = nullptr) {
    using R = typename M::value_type;
    if (n == 0) return 0;
    if (ilo == ihi) {
        if (tm.leader()) {
            wr[ilo] = h(ilo, ilo);
            wi[ilo] = R(0);
        }
        QrStage::end(stage, ilo - 1);
        return 0;
    }
    if (QrStage::fresh(stage, ihi)) {
        // Clear out the trash below the subdiagonal.
        for (index_t j = tm.first(ilo); j <= ihi - 3; j += tm.size()) {
            h(j + 2, j) = R(0);
            h(j + 3, j) = R(0);
        }
        if (tm.leader() && ilo <= ihi - 2) h(ihi, ihi - 2) = R(0);
        tm.sync();
    }

    const index_t nh = ihi - ilo + 1;
    const R safmin = limits<R>::safmin();
    const R ulp = limits<R>::ulp();
    const R smlnum = safmin * (R(nh) / ulp);
    index_t i1 = 0, i2 = n - 1;  // rows/columns that the transformations touch
    const index_t itmax = itmax_user > 0 ? itmax_user : detail::default_itmax(nh);
    index_t kdefl = 0;

    // One pass per QR sweep: first deflate what has converged at the bottom
    // of the active block [l, i] (any number of times), then the shifts, then
    // the sweep. (xLAHQR nests a loop over the iterations on one block inside
    // a loop over deflations. On the GPU the teams of a warp, each on its
    // own matrix, wait at the end of a loop for every team to leave it: a
    // team whose block split then idled until every other team's had split
    // too. With one loop they only wait for each other's sweeps. One loop
    // pass per chase step instead, so that teams at different rows would
    // run their middle steps together, was bitwise the same but 28 % slower
    // at double n = 30 on the GPU: teams that part at a branch do not meet
    // again; docs/performance.md, session 77.)
    // A stage (QrStage) stops where a deflation leaves the block ending
    // below row stop (i only falls at a deflation).
    index_t i = QrStage::start(stage, ihi), l = ilo, its = 0;
    const index_t stop = QrStage::stop(stage, ilo);
    for (;;) {
        bool sweep = false;
        index_t m = ilo;
        R v[3];
        while (i >= stop) {
            // its: the sweeps on this block since the last deflation.
            if (its > itmax) return i + 1;  // failure to converge
            // Look for a single small subdiagonal element: the largest k in
            // (l, i] where h(k, k-1) is negligible, else l.
            auto negligible = [&](index_t k) { return detail::subdiag_negligible(h, k, ilo, ihi, smlnum, ulp); };
            l = last_true(tm, l, i, negligible);
            if (l > ilo) {  // negligible
                tm.sync();  // every member has finished the search
                if (tm.leader()) h(l, l - 1) = R(0);
                tm.sync();
            }
            if (l >= i - 1) {
                // A 1x1 or 2x2 block has split off.
                if (l == i) {
                    if (tm.leader()) {
                        wr[i] = h(i, i);
                        wi[i] = R(0);
                    }
                } else if (wantt) {
                    detail::split_off_2x2_outlined(tm, wantt, wantz, h, z, i, i1, i2, iloz, ihiz, wr, wi);
                } else {
                    detail::split_off_2x2(tm, wantt, wantz, h, z, i, i1, i2, iloz, ihiz, wr, wi, log);
                }
                kdefl = 0;
                its = 0;
                i = l - 1;
                l = ilo;
                continue;
            }
            ++kdefl;
            if (!wantt) {
                i1 = l;
                i2 = i;
            }
            const detail::DoubleShift<R> sh = detail::francis_shifts(h, l, i, kdefl);
            // Look for two consecutive small subdiagonal elements: the
            // largest m in (l, i-2] where the bulge can start, else l.
            auto can_start = [&](index_t mm) { return detail::bulge_can_start(h, mm, sh, ulp); };
            m = last_true(tm, l, i - 2, can_start);
            detail::bulge_first_column(h, m, sh, v[0], v[1], v[2]);
            if constexpr (Log::enabled) {
                log->sweep(tm, R(l), R(i), R(m), i - m);
            }
            tm.sync();  // every member has read the shifts and the start of the bulge
            sweep = true;
            break;
        }
        if (!sweep) {
            QrStage::end(stage, i);
            return 0;
        }
        // first: the step at kk = m, which starts the bulge (its v is the
        // shifts' first column); the others take v from the previous bulge.
        auto chase_step = [&](auto nr_c, auto first_c, index_t kk) {
            constexpr index_t nr = decltype(nr_c)::value;
            constexpr bool first = decltype(first_c)::value;
            // Columns kk-1 (the previous bulge), kk and kk+1 of h. Column kk-1
            // is read and written only where it exists (kk > m, or kk = m > l);
            // its handle is formed on every step (taking it only there cost
            // 1.5 % at double n = 30 on an H100, same results).
            const auto c0 = h.col(kk), cp = prev_col(h, c0, kk), c1 = next_col(h, c0, kk);
            if constexpr (!first) {
                // (Constant indices keep v in registers on the GPU.)
                v[0] = cp[kk];
                v[1] = cp[kk + 1];
                if constexpr (nr == 3) v[2] = cp[kk + 2];
            }
            // Every member computes the same reflector from its own copy of v
            // (in registers).
            R t1;
            larfg_small(nr, v[0], v[1], v[2], t1);
            const R v2 = v[1], t2 = t1 * v2;
            const R v3 = nr == 3 ? v[2] : R(0), t3 = t1 * v3;
            if constexpr (Log::enabled) {
                // (The sweep's record reserved the room.) Members 0, 1, 2
                // write one slot each: one store per step in a team of three
                // or more.
                log->step(tm, v2, v3, t1);
            }
            // Rows kk..kk+nr-1, one column per member.
            // On the GPU, with the Schur form on the band, each member
            // carries its address from one of its columns to the next
            // (cols_apart: one multiply-add) instead of forming the band's
            // quadratic offset on each column; elsewhere h(kk, j) is formed.
            // Same results. The choice was measured in one process on an
            // H200 (docs/performance.md, session 61), ms, double, formed /
            // carried: with right vectors, batch 100 000, the band's Schur
            // launch n = 16 8.91 / 8.76, 24 25.82 / 25.09, 30 42.36 / 41.31,
            // 40 129.0 / 122.9, the whole matrix's n = 20 16.29 / 16.45;
            // eigenvalues only (the band), batch 200 000, n = 30 31.0 / 31.4.
            bool carried = false;
            if constexpr (detail::kImplicitBulgeZeros && detail::kIsBand<M>) carried = wantt;
            if (carried) {
                // In the first step h(kk+2, kk) is zero (see below).
                index_t j = tm.first(kk);
                if (j <= i2) {
                    using Off = decltype(cols_apart(h, 0, 1));
                    R *q = &h(kk, j);
                    const Off es = Off(&h(kk + 1, j) - q);
                    BATCHEIG_NO_UNROLL
                    for (;;) {
                        R x0 = q[0], x1 = q[es], x2 = (first && j == kk) || nr < 3 ? R(0) : q[2 * es];
                        detail::reflect3(nr, x0, x1, x2, v2, v3, t1, t2, t3);
                        q[0] = x0;
                        q[es] = x1;
                        if (nr == 3) q[2 * es] = x2;
                        q += cols_apart(h, j, tm.size());
                        j += tm.size();
                        if (j > i2) break;
                    }
                }
            } else if constexpr (first && detail::kImplicitBulgeZeros) {
                // h(kk+2, kk), two rows below the diagonal, is zero before the
                // sweep (in memory it may hold an earlier sweep's bulge: see
                // the previous bulge's column below).
                BATCHEIG_NO_UNROLL
                for (index_t j = tm.first(kk); j <= i2; j += tm.size()) {
                    R x0 = h(kk, j), x1 = h(kk + 1, j), x2 = j == kk ? R(0) : h(kk + 2, j);
                    detail::reflect3(nr, x0, x1, x2, v2, v3, t1, t2, t3);
                    h(kk, j) = x0;
                    h(kk + 1, j) = x1;
                    h(kk + 2, j) = x2;
                }
            } else {
                BATCHEIG_NO_UNROLL
                for (index_t j = tm.first(kk); j <= i2; j += tm.size())
                    detail::reflect_rows(h, kk, j, nr, v2, v3, t1, t2, t3);
            }
            tm.sync();
            // Columns kk..kk+nr-1 of h and z, one row per member. Column kk-1
            // (the previous bulge), which nobody reads in this phase, is written
            // by members 0..nr-1.
            const index_t jend = nr == 3 ? ((kk + 3 < i) ? kk + 3 : i) : i;
            if (!Team::serial && wantz) {
                // A team runs the rows of h and z in one pass, each member's two
                // rows as independent work (rows outside a range are read, not
                // written; z has n rows).
                const index_t lo = i1 < iloz ? i1 : iloz, hi = jend > ihiz ? jend : ihiz;
                BATCHEIG_NO_UNROLL
                for (index_t j = tm.first(lo); j <= hi; j += tm.size())
                    detail::reflect_cols_hz(h, j >= i1 && j <= jend, z, j >= iloz && j <= ihiz, j, kk, nr, v2, v3, t1,
                                            t2, t3);
            } else {
                if constexpr (nr == 3 && detail::kImplicitBulgeZeros) {
                    const auto c2 = next_col(h, c1, kk + 1);
                    BATCHEIG_NO_UNROLL
                    for (index_t j = tm.first(i1); j <= jend; j += tm.size()) {
                        // Row kk+3 is zero in columns kk and kk+1 (in memory it
                        // may hold an earlier sweep's bulge).
                        const bool below = j == kk + 3;
                        R x0 = below ? R(0) : c0[j], x1 = below ? R(0) : c1[j], x2 = c2[j];
                        detail::reflect3(nr, x0, x1, x2, v2, v3, t1, t2, t3);
                        c0[j] = x0;
                        c1[j] = x1;
                        c2[j] = x2;
                    }
                } else if constexpr (nr == 3) {
                    // (In place: the host compiles this form to faster code
                    // than the loads and stores above.)
                    const auto c2 = next_col(h, c1, kk + 1);
                    BATCHEIG_NO_UNROLL
                    for (index_t j = tm.first(i1); j <= jend; j += tm.size())
                        detail::reflect3(nr, c0[j], c1[j], c2[j], v2, v3, t1, t2, t3);
                } else {
                    R unused = R(0);
                    BATCHEIG_NO_UNROLL
                    for (index_t j = tm.first(i1); j <= jend; j += tm.size())
                        detail::reflect3(nr, c0[j], c1[j], unused, v2, v3, t1, t2, t3);
                }
                if (wantz)
                    for (index_t j = tm.first(iloz); j <= ihiz; j += tm.size())
                        detail::reflect_cols(z, j, kk, nr, v2, v3, t1, t2, t3);
            }
            if constexpr (!first) {
                // The previous bulge's column: beta into row kk, and zeros
                // into rows kk+1..kk+nr-1 (kk+2 < i when nr = 3), an entry
                // per member. On the GPU, without the Schur form or vectors,
                // the zeros are not stored (kImplicitBulgeZeros): the entries
                // two and three rows below the diagonal then keep old bulges,
                // and the two places that read them as zeros (the first
                // step's pass over the rows, and row kk+3 in the pass over
                // the columns) take them as zeros.
                if (wantt || wantz || !detail::kImplicitBulgeZeros) {
                    const index_t r = tm.rank();
                    if (r < nr) cp[kk + r] = r == 0 ? v[0] : R(0);
                    if (tm.size() < nr)  // teams of one or two
                        for (index_t rr = r + tm.size(); rr < nr; rr += tm.size()) cp[kk + rr] = R(0);
                } else if (tm.leader()) {
                    cp[kk] = v[0];
                }
            } else if (m > l && tm.leader()) {
                // Use the following instead of h(k,k-1) = -h(k,k-1) to avoid
                // a bug when v[1] and v[2] underflow.
                cp[kk] = cp[kk] * (R(1) - t1);
            }
            tm.sync();
        };
        // (Measured slower or even on the GPU's band, double n = 12-30: two
        // columns or rows per member per pass, pointer walks instead of the
        // band's offsets, and the previous bulge's column stored in the pass
        // over the rows; docs/performance.md, session 39.)
        // Double-shift QR step: chase the bulge from row m to i. Every step
        // but the last uses a 3-element reflector; the step is written once
        // for a compile-time length nr and first step, so that neither the
        // reflector nor the updates test them at run time. m <= i - 2: steps
        // m..i-2 have three rows below the bulge, the last one (i - 1) two.
        // (With the first step's test at run time the compiler predicated its
        // store into every step: 4 % of the instructions of the Schur launch
        // with vectors, double n = 30.)
        using three = std::integral_constant<index_t, 3>;
        chase_step(three{}, std::true_type{}, m);
        for (index_t kk = m + 1; kk <= i - 2; ++kk) chase_step(three{}, std::false_type{}, kk);
        chase_step(std::integral_constant<index_t, 2>{}, std::false_type{}, i - 1);
        ++its;
    }
}

// Complex single-shift QR (xLAHQR for complex types). Eigenvalues go to
// w[ilo..ihi].
template <class Team, class M, class V, class MZ>
BATCHEIG_HD index_t lahqr_complex(const Team &tm, bool wantt, bool wantz, index_t n, index_t ilo, index_t ihi, M h, V w,
                                  index_t iloz, index_t ihiz, MZ z, index_t itmax_user, QrStage *stage = nullptr) {
    using T = typename M::value_type;
    using R = real_t<T>;
    if (n == 0) return 0;
    if (ilo == ihi) {
        if (tm.leader()) w[ilo] = h(ilo, ilo);
        QrStage::end(stage, ilo - 1);
        return 0;
    }
    const bool fresh = QrStage::fresh(stage, ihi);
    for (index_t j = tm.first(ilo); fresh && j <= ihi - 3; j += tm.size()) {
        h(j + 2, j) = T(0);
        h(j + 3, j) = T(0);
    }
    if (fresh && tm.leader() && ilo <= ihi - 2) h(ihi, ihi - 2) = T(0);
    tm.sync();

    index_t jlo = ilo, jhi = ihi;
    if (wantt) {
        jlo = 0;
        jhi = n - 1;
    }
    // Make the subdiagonal entries real by a diagonal unitary similarity
    // (a later stage finds them real).
    for (index_t i = ilo + 1; fresh && i <= ihi; ++i) {
        if (imag(h(i, i - 1)) != R(0)) {
            // The redundant normalization avoids problems with both gradual
            // and sudden underflow in |h(i,i-1)|.
            const T hii1 = h(i, i - 1);
            T sc = hii1 / abs1(hii1);
            sc = conj(sc) / cabs(sc);
            tm.sync();  // every member has read h(i, i-1)
            if (tm.leader()) h(i, i - 1) = T(cabs(hii1));
            // h(i, i) is owned by the same member in both loops.
            for (index_t j = tm.first(i); j <= jhi; j += tm.size()) h(i, j) = sc * h(i, j);
            const index_t rend = jhi < i + 1 ? jhi : i + 1;
            for (index_t j = tm.first(jlo); j <= rend; j += tm.size()) h(j, i) = conj(sc) * h(j, i);
            if (wantz)
                for (index_t j = tm.first(iloz); j <= ihiz; j += tm.size()) z(j, i) = conj(sc) * z(j, i);
            tm.sync();
        }
    }

    const index_t nh = ihi - ilo + 1;
    const R safmin = limits<R>::safmin();
    const R ulp = limits<R>::ulp();
    const R smlnum = safmin * (R(nh) / ulp);
    index_t i1 = 0, i2 = n - 1;
    const index_t itmax = itmax_user > 0 ? itmax_user : detail::default_itmax(nh);
    index_t kdefl = 0;

    // One pass per QR step, as in lahqr_real (where the reason is).
    index_t i = QrStage::start(stage, ihi), l = ilo, m = ilo, its = 0;
    const index_t stop = QrStage::stop(stage, ilo);
    T t, v[2];
    for (;;) {
        bool sweep = false;
        while (i >= stop) {
            // its: the steps on this block since the last deflation.
            if (its > itmax) return i + 1;  // failure to converge
            // Look for a single small subdiagonal element (as in lahqr_real).
            auto negligible = [&](index_t k) { return detail::subdiag_negligible(h, k, ilo, ihi, smlnum, ulp); };
            l = last_true(tm, l, i, negligible);
            if (l > ilo) {
                tm.sync();  // every member has finished the search
                if (tm.leader()) h(l, l - 1) = T(0);
                tm.sync();
            }
            if (l >= i) {
                // One eigenvalue has converged.
                if (tm.leader()) w[i] = h(i, i);
                kdefl = 0;
                its = 0;
                i = l - 1;
                l = ilo;
                continue;
            }
            ++kdefl;
            if (!wantt) {
                i1 = l;
                i2 = i;
            }
            if (kdefl % (2 * detail::kexsh) == 0) {
                R s = detail::dat1<R>() * rabs(real(h(i, i - 1)));
                t = T(s) + h(i, i);
            } else if (kdefl % detail::kexsh == 0) {
                R s = detail::dat1<R>() * rabs(real(h(l + 1, l)));
                t = T(s) + h(l, l);
            } else {
                // Wilkinson's shift.
                t = h(i, i);
                T u = csqrt(h(i - 1, i)) * csqrt(h(i, i - 1));
                R s = abs1(u);
                if (s != R(0)) {
                    T x = (h(i - 1, i - 1) - t) * R(0.5);
                    R sx = abs1(x);
                    s = rmax(s, abs1(x));
                    T xs = x / s, us = u / s;
                    T y = csqrt(xs * xs + us * us) * s;
                    if (sx > R(0)) {
                        T xsx = x / sx;
                        if (real(xsx) * real(y) + imag(xsx) * imag(y) < R(0)) y = -y;
                    }
                    t = t - u * (u / (x + y));
                }
            }
            // Look for two consecutive small subdiagonal elements.
            auto first_column = [&](index_t mm) {
                T h11 = h(mm, mm), h11s = h11 - t;
                R h21 = real(h(mm + 1, mm));
                R s = abs1(h11s) + rabs(h21);
                h11s = h11s / s;
                h21 /= s;
                v[0] = h11s;
                v[1] = T(h21);
            };
            auto can_start = [&](index_t mm) -> bool {
                first_column(mm);
                const T h11 = h(mm, mm), h22 = h(mm + 1, mm + 1);
                R h10 = real(h(mm, mm - 1));
                return rabs(h10) * rabs(real(v[1])) <= ulp * (abs1(v[0]) * (abs1(h11) + abs1(h22)));
            };
            m = last_true(tm, l, i - 1, can_start);
            first_column(m);
            tm.sync();  // every member has read the shift and the start of the step
            sweep = true;
            break;
        }
        if (!sweep) {
            QrStage::end(stage, i);
            return 0;
        }
        // Single-shift QR step.
        for (index_t kk = m; kk <= i - 1; ++kk) {
            // Columns kk-1, kk and kk+1 of h (see lahqr_real).
            const auto c0 = h.col(kk), cp = prev_col(h, c0, kk), c1 = next_col(h, c0, kk);
            if (kk > m) {
                v[0] = cp[kk];
                v[1] = cp[kk + 1];
            }
            // Every member computes the same reflector from its own copy of v.
            T t1, unused = T(0);
            larfg_small(2, v[0], v[1], unused, t1);
            const T v2 = v[1];
            const R t2 = real(t1 * v2);
            // Rows kk, kk+1, one column per member.
            BATCHEIG_NO_UNROLL
            for (index_t j = tm.first(kk); j <= i2; j += tm.size())
                detail::reflect2(h(kk, j), h(kk + 1, j), conj(t1), t2, v2);
            tm.sync();
            // Columns kk, kk+1 of h and z, one row per member; column
            // kk-1 (read by nobody in this phase) by members 0 and 1.
            const index_t jend = (kk + 2 < i) ? kk + 2 : i;
            const T cv2 = conj(v2);
            if (!Team::serial && wantz) {
                // As in lahqr_real: h's and z's rows in one pass.
                const index_t lo = i1 < iloz ? i1 : iloz, hi = jend > ihiz ? jend : ihiz;
                BATCHEIG_NO_UNROLL
                for (index_t j = tm.first(lo); j <= hi; j += tm.size())
                    detail::reflect2_cols_hz(h, j >= i1 && j <= jend, z, j >= iloz && j <= ihiz, j, kk, t1, t2,
                                             cv2);
            } else {
                BATCHEIG_NO_UNROLL
                for (index_t j = tm.first(i1); j <= jend; j += tm.size())
                    detail::reflect2(c0[j], c1[j], t1, t2, cv2);
                if (wantz)
                    for (index_t j = tm.first(iloz); j <= ihiz; j += tm.size())
                        detail::reflect2(z(j, kk), z(j, kk + 1), t1, t2, cv2);
            }
            if (kk > m) {
                const index_t r = tm.rank();
                if (r < 2) cp[kk + r] = r == 0 ? v[0] : T(0);
                if (tm.size() < 2) cp[kk + 1] = T(0);  // a team of one
            }
            tm.sync();
            if (kk == m && m > l) {
                // The step started at row m > l: extra scaling keeps
                // h(m, m-1) real. Rows j and columns j for j in
                // S = [m, i] \ {m+1} are scaled; entry (r, c), r < c, is
                // scaled by its row first, as in the serial order, and
                // each member owns whole columns.
                T temp = T(R(1)) - t1;
                temp = temp / cabs(temp);
                if (tm.leader()) {
                    h(m + 1, m) = h(m + 1, m) * conj(temp);
                    if (m + 2 <= i) h(m + 2, m + 1) = h(m + 2, m + 1) * temp;
                }
                auto in_s = [&](index_t j) { return j >= m && j <= i && j != m + 1; };
                for (index_t c = tm.first(i1); c <= i2; c += tm.size()) {
                    const index_t rtop = c - 1 < i ? c - 1 : i;  // rows r < c that can be in S
                    for (index_t r = m; r <= rtop; ++r)
                        if (in_s(r)) h(r, c) = temp * h(r, c);
                    if (in_s(c))
                        for (index_t r = i1; r < c; ++r) h(r, c) = conj(temp) * h(r, c);
                    if (wantz && in_s(c))
                        for (index_t r = iloz; r <= ihiz; ++r) z(r, c) = conj(temp) * z(r, c);
                }
                tm.sync();
            }
        }
        // Ensure that h(i, i-1) is real.
        T temp = h(i, i - 1);
        if (imag(temp) != R(0)) {
            R rtemp = cabs(temp);
            temp = temp / rtemp;
            tm.sync();  // every member has read h(i, i-1)
            if (tm.leader()) h(i, i - 1) = T(rtemp);
            for (index_t c = tm.first(i + 1); c <= i2; c += tm.size()) h(i, c) = conj(temp) * h(i, c);
            for (index_t r = tm.first(i1); r < i; r += tm.size()) h(r, i) = temp * h(r, i);
            if (wantz)
                for (index_t r = tm.first(iloz); r <= ihiz; r += tm.size()) z(r, i) = temp * z(r, i);
            tm.sync();
        }
        ++its;
    }
}

}  // namespace batcheig::core
