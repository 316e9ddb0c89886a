// Building blocks of the Jacobi eigenvalue method for real symmetric and
// complex Hermitian matrices (Huang, Liu and Zhao 2023, section 2; Golub and
// Van Loan, section 8.5): plane rotations with the phase of a_pq, the
// parallel round-robin (tournament) ordering, the two-sided "scalar" sweep,
// norms, and the sort of the eigenvalues with their vectors.
//
// Everything works on full (both triangles) Hermitian matrices held in
// MatViews, so the same routines serve the host backend (column-major views
// of a per-thread workspace) and GPU kernels (shared-memory or interleaved
// views). A sweep is m-1 round-robin steps of m/2 disjoint rotations
// (m = n rounded up to even). Two ways to run a step:
//  * in parallel, from the pieces a GPU kernel runs with one thread per item:
//      step_rotations  per pair: the rotations of the step, all computed from
//                      the matrix as it is before the step (the pairs are
//                      disjoint, so no rotation changes another's pivot);
//      apply_right     per (row, pair): A := A J (columns p, q);
//      apply_left      per (column, pair): A := J^H A (rows p, q);
//      step_finish     per pair: the exact 2x2 results.
//  * sequentially (rotate_hermitian, the host's form): one rotation at a
//    time, columns p, q updated and rows p, q copied from them as their
//    conjugates, which halves the flops.
// Both give J^H A J for the same block-diagonal J of the step: a rotation's
// pivot block is not touched by the other rotations of its step, so the
// sequential form computes the very rotations of the parallel one.
#pragma once

#include "core/blas.hpp"
#include "core/team.hpp"

namespace batcheig::core {

// x * 2^e and the binary exponent of x (floor(log2|x|)), exact; used to scale
// a matrix by a power of two before iterating.
BATCHEIG_HD float rldexp(float x, int e) { return ldexpf(x, e); }
BATCHEIG_HD double rldexp(double x, int e) { return ldexp(x, e); }
BATCHEIG_HD int rilogb(float x) { return ilogbf(x); }
BATCHEIG_HD int rilogb(double x) { return ilogb(x); }
template <class R> BATCHEIG_HD complex<R> rldexp(complex<R> x, int e) {
    return complex<R>(rldexp(x.re, e), rldexp(x.im, e));
}

namespace jacobi {

// |x|^2 for real and complex x.
template <class T>
BATCHEIG_HD real_t<T> abs2(T x) {
    return real(x) * real(x) + imag(x) * imag(x);
}

// ---------------------------------------------------------------------------
// Round-robin ordering (the "circle method"): m players (m even) meet each
// other exactly once in m-1 steps of m/2 disjoint pairs. Player m-1 stays in
// place; the others rotate by one position per step. Returns pair k
// (0 <= k < m/2) of step `step` (0 <= step < m-1) as p < q. With an odd
// number of indices, the caller uses m = n+1 and skips pairs with q == n.
BATCHEIG_HD void round_robin_pair(index_t m, index_t step, index_t k, index_t &p, index_t &q) {
    const index_t m1 = m - 1;
    index_t a, b;
    if (k == 0) {
        a = m1;
        b = step;
    } else {
        a = (step + k) % m1;
        b = (step + m1 - k) % m1;
    }
    p = a < b ? a : b;
    q = a < b ? b : a;
}

// Number of round-robin players for n indices (n rounded up to even).
BATCHEIG_HD index_t players(index_t n) { return n + (n & 1); }

// ---------------------------------------------------------------------------
// One Jacobi rotation. J acts on the index pair (p, q) as
//     J = [ c        s ]     c real, s = sin(phi) * a_pq / |a_pq|,
//         [ -conj(s) c ]
// and makes (J^H A J)_pq = 0. For the Hermitian 2x2 pivot block
// [a b; conj(b) d] with b = |b| e, J = D^H R D where D = diag(1, e) and
// R = [c s; -s c] is the real rotation that diagonalizes [a |b|; |b| d]
// (Rutishauser's formulas, which never lose accuracy to cancellation):
//     theta = (d - a) / (2|b|),  t = sign(theta) / (|theta| + sqrt(1 + theta^2)),
//     c = 1 / sqrt(1 + t^2),     s = t c e,
//     new diagonal: a - t|b|, d + t|b|.
// |t| <= 1, so nothing overflows; theta = +-Inf gives t = 0 (no rotation).
template <class T>
struct Rotation {
    using R = real_t<T>;
    index_t p, q;  // the pair, p < q
    int on;        // parallel steps: 1 when the pair rotates
    R c;
    T s;
    R lp, lq;  // the new diagonal entries a_pp, a_qq
    R delta;   // t |a_pq| = a_pp - lp = lq - a_qq
};

// Build the rotation of pivot (app, aqq, apq). Returns false when a_pq is
// negligible and is to be set to zero instead of rotated:
//   |a_pq| <= u sqrt(|a_pp| |a_qq|)  (Demmel-Veselic: changes no eigenvalue
//     by more than u times its size), or
//   |a_pq| < sqrt(safmin)  (only reached for matrices the callers have scaled
//     to max|a_ij| ~ 1: such an entry is far below u ||A||).
// Both tests are made on |a_pq|^2, which saves two square roots per rotation
// (the scaling keeps |a_pp a_qq| far from overflow).
template <class T>
BATCHEIG_HD bool make_rotation(real_t<T> app, real_t<T> aqq, T apq, Rotation<T> &rot) {
    using R = real_t<T>;
    const R u = limits<R>::eps();
    const R r2 = abs2(apq);
    rot.c = R(1);
    rot.s = T(0);
    rot.lp = app;
    rot.lq = aqq;
    rot.delta = R(0);
    if (!(r2 >= limits<R>::safmin()) || r2 <= (u * u) * rabs(app * aqq)) return false;
    const R r = rsqrt_(r2);
    const R theta = (aqq - app) / (R(2) * r);
    // theta^2 may overflow to Inf for a tiny a_pq: t is then 0, its limit.
    R t = R(1) / (rabs(theta) + rsqrt_(R(1) + theta * theta));
    if (theta < R(0)) t = -t;
    const R c = R(1) / rsqrt_(R(1) + t * t);
    rot.c = c;
    // s = sin(phi) e with the phase e = a_pq / |a_pq| (a sign for real types).
    if constexpr (is_complex<T>) rot.s = apq * ((t * c) / r);
    else rot.s = apq < R(0) ? -(t * c) : t * c;
    rot.delta = t * r;
    rot.lp = app - rot.delta;
    rot.lq = aqq + rot.delta;
    return true;
}

// (x, y) := (c x - conj(s) y, s x + c y): columns p, q of X times J.
template <class T>
BATCHEIG_HD void rotate_right(T &x, T &y, real_t<T> c, T s) {
    const T xo = x;
    x = c * xo - conj(s) * y;
    y = s * xo + c * y;
}
// (x, y) := (c x - s y, conj(s) x + c y): rows p, q of J^H X.
template <class T>
BATCHEIG_HD void rotate_left(T &x, T &y, real_t<T> c, T s) {
    const T xo = x;
    x = c * xo - s * y;
    y = conj(s) * xo + c * y;
}

// ---------------------------------------------------------------------------
// Norms of a full n x n Hermitian matrix. The callers scale the matrix so
// that max |a_ij| is about 1: plain sums of squares then neither overflow
// (n^2 * 8 stays far below the overflow threshold) nor lose anything that
// matters (squares below the underflow threshold are below u^2 ||A||^2).
// Team routines (core/team.hpp): members sum their own columns, the team
// sum gives every member the same result; the leading sync lets the caller
// come straight from a phase that wrote a.

// sqrt(sum_{i != j} |a_ij|^2).
template <class Team, class M>
BATCHEIG_HD real_t<typename M::value_type> off_norm(const Team &tm, index_t n, M a) {
    using R = real_t<typename M::value_type>;
    tm.sync();
    R s = R(0);
    for (index_t j = tm.first(0); j < n; j += tm.size())
        for (index_t i = 0; i < n; ++i)
            if (i != j) s += abs2(a(i, j));
    return rsqrt_(tm.sum(s));
}

// sqrt(sum_{i,j} |a_ij|^2), with only the real part of the diagonal.
template <class Team, class M>
BATCHEIG_HD real_t<typename M::value_type> fro_norm(const Team &tm, index_t n, M a) {
    using R = real_t<typename M::value_type>;
    tm.sync();
    R s = R(0);
    for (index_t j = tm.first(0); j < n; j += tm.size())
        for (index_t i = 0; i < n; ++i) s += i == j ? real(a(i, i)) * real(a(i, i)) : abs2(a(i, j));
    return rsqrt_(tm.sum(s));
}

// Serial forms (the one-sided block iteration's small problems).
template <class M>
BATCHEIG_HD real_t<typename M::value_type> off_norm(index_t n, M a) {
    return off_norm(SerialTeam{}, n, a);
}
template <class M>
BATCHEIG_HD real_t<typename M::value_type> fro_norm(index_t n, M a) {
    return fro_norm(SerialTeam{}, n, a);
}

template <class Team, class M>
BATCHEIG_HD void set_identity(const Team &tm, index_t n, M a) {
    using T = typename M::value_type;
    for (index_t j = tm.first(0); j < n; j += tm.size())
        for (index_t i = 0; i < n; ++i) a(i, j) = T(i == j ? 1 : 0);
}
template <class M>
BATCHEIG_HD void set_identity(index_t n, M a) {
    set_identity(SerialTeam{}, n, a);
}

// ---------------------------------------------------------------------------
// One parallel step of the two-sided method (the team's form). rot holds one
// slot per round-robin pair (players(n)/2 slots).

// Slot k of step `step`: the rotation of pair k, computed from the matrix as
// it is before the step (the pairs are disjoint, so no rotation changes
// another's pivot). A negligible a_pq is set to zero here (no other rotation
// of the step reads it) and its slot is marked off, as is the pair of the
// dummy player of odd n (q == n). Each member fills the slots it owns; the
// caller syncs before the slots are read.
template <class Team, class M>
BATCHEIG_HD void step_rotations(const Team &tm, index_t n, index_t step, M a, Rotation<typename M::value_type> *rot) {
    using T = typename M::value_type;
    const index_t m = players(n);
    for (index_t k = tm.first(0); k < m / 2; k += tm.size()) {
        Rotation<T> r;
        round_robin_pair(m, step, k, r.p, r.q);
        r.on = 0;
        if (r.q < n) {
            if (make_rotation<T>(real(a(r.p, r.p)), real(a(r.q, r.q)), a(r.p, r.q), r)) {
                r.on = 1;
            } else {
                a(r.p, r.q) = T(0);
                a(r.q, r.p) = T(0);
            }
        } else {
            r.c = real_t<T>(1);
            r.s = T(0);
        }
        rot[k] = r;
    }
}

// Walks the items of a loop split across a team without divisions: the
// pairs (k, l), k <= l < h, in the order l(l+1)/2 + k (TriangleWalk), and
// the (row i, slot l) items of an n x h grid in the order l n + i
// (GridWalk); next() advances by `stride` items.
struct TriangleWalk {
    index_t k, l;
    BATCHEIG_HD TriangleWalk(index_t t, index_t stride) : k(t), l(0), stride_(stride) { settle(); }
    BATCHEIG_HD void next() {
        k += stride_;
        settle();
    }

  private:
    index_t stride_;
    BATCHEIG_HD void settle() {
        while (k > l) {  // row l holds k = 0..l
            k -= l + 1;
            ++l;
        }
    }
};
struct GridWalk {
    index_t i, l;
    BATCHEIG_HD GridWalk(index_t t, index_t n, index_t stride) : i(t), l(0), n_(n), stride_(stride) { settle(); }
    BATCHEIG_HD void next() {
        i += stride_;
        settle();
    }

  private:
    index_t n_, stride_;
    BATCHEIG_HD void settle() {
        while (i >= n_) {
            i -= n_;
            ++l;
        }
    }
};

// A := J^H A J and V := V J for the rotations in rot (h = players(n)/2
// slots), as independent 2x2 blocks: block (k, l) of J^H A J, rows
// {p_k, q_k} and columns {p_l, q_l}, is J_k^H A_kl J_l, which reads and
// writes only those four entries. The blocks k < l are computed once and
// stored with their conjugate transposes (the iterate stays exactly
// Hermitian); the diagonal blocks k = l get the exact 2x2 results
// (diag(lp, lq)) and their diagonal changes are summed into z (see
// solve_scalar). Entries of the dummy index n of odd n are absent (its
// slot never rotates). Each member takes the blocks and the (row, pair)
// items of V it owns; the caller syncs afterwards.
template <class Team, class M, class MV>
BATCHEIG_HD void step_update(const Team &tm, index_t n, M a, bool want_v, MV v,
                             const Rotation<typename M::value_type> *rot, VecView<real_t<typename M::value_type>> z) {
    using T = typename M::value_type;
    const index_t h = players(n) / 2;
    for (TriangleWalk it(tm.first(0), tm.size()); it.l < h; it.next()) {
        const index_t k = it.k, l = it.l;
        const Rotation<T> rk = rot[k];
        if (k == l) {
            if (!rk.on) continue;
            a(rk.p, rk.p) = T(rk.lp);
            a(rk.q, rk.q) = T(rk.lq);
            a(rk.p, rk.q) = T(0);
            a(rk.q, rk.p) = T(0);
            z[rk.p] -= rk.delta;
            z[rk.q] += rk.delta;
            continue;
        }
        const Rotation<T> rl = rot[l];
        if (!rk.on && !rl.on) continue;
        const bool qk = rk.q < n, ql = rl.q < n;  // false: the dummy index
        T x00 = a(rk.p, rl.p);
        T x01 = ql ? a(rk.p, rl.q) : T(0);
        T x10 = qk ? a(rk.q, rl.p) : T(0);
        T x11 = qk && ql ? a(rk.q, rl.q) : T(0);
        if (rl.on) {
            rotate_right(x00, x01, rl.c, rl.s);
            rotate_right(x10, x11, rl.c, rl.s);
        }
        if (rk.on) {
            rotate_left(x00, x10, rk.c, rk.s);
            rotate_left(x01, x11, rk.c, rk.s);
        }
        a(rk.p, rl.p) = x00;
        a(rl.p, rk.p) = conj(x00);
        if (ql) {
            a(rk.p, rl.q) = x01;
            a(rl.q, rk.p) = conj(x01);
        }
        if (qk) {
            a(rk.q, rl.p) = x10;
            a(rl.p, rk.q) = conj(x10);
        }
        if (qk && ql) {
            a(rk.q, rl.q) = x11;
            a(rl.q, rk.q) = conj(x11);
        }
    }
    // V := V J, one (row, pair) item at a time: consecutive members take
    // consecutive rows of the same pair.
    if (want_v)
        for (GridWalk it(tm.first(0), n, tm.size()); it.l < h; it.next()) {
            const Rotation<T> &r = rot[it.l];
            if (r.on) rotate_right(v(it.i, r.p), v(it.i, r.q), r.c, r.s);
        }
}

// ---------------------------------------------------------------------------
// The sequential form of a step (the host's): one rotation at a time.

// (x_i, y_i) := (c x_i - conj(s) y_i, s x_i + c y_i) for i < rows: columns
// p, q (held at xp, yp with element stride es) times J. The stride-1 branch
// lets the compiler vectorize the host's column-major case.
template <class T>
BATCHEIG_HD void rotate_columns(index_t rows, T *xp, T *xq, std::int64_t es, real_t<T> c, T s) {
    if (es == 1) {
        for (index_t i = 0; i < rows; ++i) rotate_right(xp[i], xq[i], c, s);
    } else {
        for (index_t i = 0; i < rows; ++i) rotate_right(xp[i * es], xq[i * es], c, s);
    }
}

// A := J^H A J for one rotation of the full Hermitian n x n matrix a:
// columns p and q are rotated, rows p and q are then their conjugates, and
// the pivot block gets its exact values.
template <class M>
BATCHEIG_HD void rotate_hermitian(index_t n, M a, const Rotation<typename M::value_type> &r) {
    using T = typename M::value_type;
    rotate_columns(n, &a(0, r.p), &a(0, r.q), a.es, r.c, r.s);
    for (index_t i = 0; i < n; ++i) {
        a(r.p, i) = conj(a(i, r.p));
        a(r.q, i) = conj(a(i, r.q));
    }
    a(r.p, r.p) = T(r.lp);
    a(r.q, r.q) = T(r.lq);
    a(r.p, r.q) = T(0);
    a(r.q, r.p) = T(0);
}

// One sequential step: the same rotations as the parallel step, each
// applied as soon as it is computed.
template <class M, class MV>
BATCHEIG_HD void step_sequential(index_t n, index_t step, M a, bool want_v, MV v,
                                 VecView<real_t<typename M::value_type>> z) {
    using T = typename M::value_type;
    const index_t m = players(n);
    for (index_t k = 0; k < m / 2; ++k) {
        Rotation<T> r;
        round_robin_pair(m, step, k, r.p, r.q);
        if (r.q >= n) continue;  // the dummy player of odd n
        if (!make_rotation<T>(real(a(r.p, r.p)), real(a(r.q, r.q)), a(r.p, r.q), r)) {
            a(r.p, r.q) = T(0);
            a(r.q, r.p) = T(0);
            continue;
        }
        rotate_hermitian(n, a, r);
        z[r.p] -= r.delta;
        z[r.q] += r.delta;
        if (want_v) rotate_columns(n, &v(0, r.p), &v(0, r.q), v.es, r.c, r.s);
    }
}

// One two-sided sweep (m-1 round-robin steps) over the full n x n Hermitian
// matrix a; the rotations are accumulated into v when want_v and the changes
// of the diagonal summed into z. `parallel` selects the parallel steps (rot:
// players(n)/2 slots; every team that is not serial must use them) or the
// sequential ones. Both give J^H A J for the same block-diagonal J of each
// step: a rotation's pivot block is not touched by the other rotations of
// its step, so the sequential form computes the very rotations of the
// parallel one (rounded differently). Ends with a sync.
template <class Team, class M, class MV>
BATCHEIG_HD void sweep(const Team &tm, index_t n, M a, bool want_v, MV v, VecView<real_t<typename M::value_type>> z,
                       bool parallel, Rotation<typename M::value_type> *rot) {
    const index_t steps = players(n) - 1;
    for (index_t step = 0; step < steps; ++step) {
        if (Team::serial && !parallel) {
            step_sequential(n, step, a, want_v, v, z);
            continue;
        }
        step_rotations(tm, n, step, a, rot);
        tm.sync();
        step_update(tm, n, a, want_v, v, rot, z);
        tm.sync();
    }
}

// Result of an iteration: sweeps executed and the final off-diagonal norm.
template <class R>
struct SolveResult {
    index_t sweeps = 0;
    R off = R(0);
};

// Two-sided cyclic Jacobi on the full Hermitian n x n matrix a until
// off(a) <= tol_abs or max_sweeps sweeps ran. The off-diagonal norm is
// tested before every sweep and after the last one, so `off` is the norm of
// the matrix returned and off > tol_abs means "not converged". See sweep()
// for `parallel` and rot.
//
// The diagonal is kept as Rutishauser does: rotations update a_pp (which
// the next rotations read) and also sum their changes into z; after each
// sweep the diagonal becomes b + z, where b is the diagonal at the start of
// the sweep. Each eigenvalue is then rounded once per sweep instead of once
// per rotation, which keeps its error from growing like sqrt(n sweeps) u.
// b and z are n-vectors of scratch; on return b holds the diagonal of a.
template <class Team, class M, class MV>
BATCHEIG_HD SolveResult<real_t<typename M::value_type>> solve_scalar(
    const Team &tm, index_t n, M a, bool want_v, MV v, VecView<real_t<typename M::value_type>> b,
    VecView<real_t<typename M::value_type>> z, real_t<typename M::value_type> tol_abs, index_t max_sweeps,
    bool parallel, Rotation<typename M::value_type> *rot) {
    using T = typename M::value_type;
    using R = real_t<T>;
    SolveResult<R> res;
    for (index_t i = tm.first(0); i < n; i += tm.size()) {
        b[i] = real(a(i, i));
        z[i] = R(0);
    }
    for (;;) {
        res.off = off_norm(tm, n, a);
        if (res.off <= tol_abs || res.sweeps >= max_sweeps) break;
        sweep(tm, n, a, want_v, v, z, parallel, rot);
        ++res.sweeps;
        for (index_t i = tm.first(0); i < n; i += tm.size()) {
            b[i] += z[i];
            z[i] = R(0);
            a(i, i) = T(b[i]);
        }
    }
    tm.sync();
    return res;
}

// ---------------------------------------------------------------------------
// Sorting: position of w[j] in the ascending order of w[0..n), ties kept in
// index order (a stable sort). Each member places the entries it owns.
template <class R>
BATCHEIG_HD index_t sorted_position(index_t n, VecView<R> w, index_t j) {
    const R x = w[j];
    index_t pos = 0;
    for (index_t i = 0; i < n; ++i) pos += (w[i] < x || (w[i] == x && i < j)) ? 1 : 0;
    return pos;
}

// ---------------------------------------------------------------------------
// Restore the orthonormality of accumulated eigenvectors: one Newton-Schulz
// step towards the polar factor of v,
//     F = V^H V - I,   V := V (I - F/2) = V (3I - V^H V) / 2,
// which takes ||V^H V - I|| from eps to O(eps^2) plus the rounding of the two
// products (a few u sqrt(n)). Jacobi applies n-1 rotations per sweep to every
// column of V, each rotation orthogonal only to about u, so without this step
// ||I - V^H V|| grows like sqrt(n * sweeps) u (about 50 n u for n = 256 in
// single precision); the step costs 3n^3 flops, a few per cent of the
// iteration. f is n x n scratch; the result goes to out (not v), column j of
// the result to column sorted_position(n, w, j) of out when sort (else j).
// Ends with a sync.
template <class Team, class MV, class MF, class MO>
BATCHEIG_HD void refine_orthonormal(const Team &tm, index_t n, MV v, MF f, MO out, bool sort,
                                    VecView<real_t<typename MV::value_type>> w) {
    using T = typename MV::value_type;
    using R = real_t<T>;
    for (index_t j = tm.first(0); j < n; j += tm.size()) {
        const auto vj = v.col(j);
        for (index_t i = j; i < n; ++i) {
            const auto vi = v.col(i);
            T acc = T(0);
            for (index_t r = 0; r < n; ++r) acc += conj(vi[r]) * vj[r];
            if (i == j) acc = T(real(acc) - R(1));
            f(i, j) = acc * R(-0.5);
            f(j, i) = conj(acc) * R(-0.5);
        }
    }
    tm.sync();
    // out(:, pos(j)) = V (I + f)(:, j) with f = -F/2, column by column:
    // out(r, pos(j)) = v(r, j) + sum_k v(r, k) f(k, j), summed in k order.
    // The serial team runs it as column updates (unit stride on the host);
    // other teams sum each entry in a register and store it once (out may
    // be the caller's array in global memory), which adds the same terms in
    // the same order.
    for (index_t j = tm.first(0); j < n; j += tm.size()) {
        const auto tj = out.col(sort ? sorted_position(n, w, j) : j);
        const auto vj = v.col(j);
        if constexpr (Team::serial) {
            for (index_t r = 0; r < n; ++r) tj[r] = vj[r];
            for (index_t k = 0; k < n; ++k) {
                const T fkj = f(k, j);
                if (fkj == T(0)) continue;
                const auto vk = v.col(k);
                for (index_t r = 0; r < n; ++r) tj[r] += vk[r] * fkj;
            }
        } else {
            for (index_t r = 0; r < n; ++r) {
                T acc = vj[r];
                for (index_t k = 0; k < n; ++k) {
                    const T fkj = f(k, j);
                    if (fkj != T(0)) acc += v(r, k) * fkj;
                }
                tj[r] = acc;
            }
        }
    }
    tm.sync();
}

template <class T>
BATCHEIG_HD void refine_orthonormal(index_t n, MatView<T> v, MatView<T> f, MatView<T> tmp) {
    refine_orthonormal(SerialTeam{}, n, v, f, tmp, false, VecView<real_t<T>>{nullptr, 1});
    for (index_t j = 0; j < n; ++j)
        for (index_t r = 0; r < n; ++r) v(r, j) = tmp(r, j);
}

}  // namespace jacobi
}  // namespace batcheig::core
