// The lane solver: one-sided Jacobi with a lane per column, the iteration
// of core/jacobi_block.hpp with blocks of one column (nb = 1), every column
// in the registers of one lane (or of the L lanes that split its rows). The
// cluster variant (syevj_cluster.cuh) solves each 16 x 16 Gram block with
// one sweep of it; the LANE variant's kernel, which holds a pair of columns
// per lane, is syevj_pair.cuh and shares the helpers of this file
// (lane_rotation, shfl, shfl_xor).
//
//   N columns (a power of two), each held by L lanes that split its rows
//   (the slices): the lane of column j holds its rows of column j of
//   U = A Q and of Q in registers.
//   A sweep is the round-robin ordering of core::jacobi::round_robin_pair:
//   in step r column j meets column partner(j, r); its lanes take the
//   partner's rows of U and Q by shuffles and form the pair's 2x2 block of
//   Q^H A Q,
//       g_jj (kept: the previous rotation's exact result),
//       x_j = q_j^H u_t  (and the partner's x_t = q_t^H u_j, swapped),
//       g_jt = (x_j + conj(x_t)) / 2 for the lower index j,
//   both columns build the same rotation (lane_rotation) from the same
//   values, and each lane updates its own rows of U and Q.
// During a sweep every lane sums |g_jt|^2 over its pairs; the sum over the
// lanes is off(Q^H A Q)^2 as the sweep met it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "core/jacobi_syevj.hpp"
#include "cuda/syevj/syevj_cuda.hpp"
#include "cuda/team.cuh"

namespace batcheig::cuda {

namespace syevj_lane_detail {

using core::conj;
using core::jacobi::abs2;

template <class R>
__device__ __forceinline__ R shfl(R v, int src, unsigned mask, int width) {
    return __shfl_sync(mask, v, src, width);
}
template <class R>
__device__ __forceinline__ core::complex<R> shfl(core::complex<R> v, int src, unsigned mask, int width) {
    return core::complex<R>(__shfl_sync(mask, v.re, src, width), __shfl_sync(mask, v.im, src, width));
}

// The rotation of core::jacobi::make_rotation (the same skip test, the
// same rotation) from two reciprocal square roots instead of three square
// roots and four divisions, which shortens a step's critical path. With
// tau = a_qq - a_pp, h = sqrt(tau^2 + 4|a_pq|^2) and y = (1 + |tau|/h)/2:
//     c = sqrt(y),   s = sign(tau) a_pq / (h c),   t |a_pq| = sign(tau) |a_pq|^2 / (h c^2),
// (cos 2phi = |tau| / h, so c >= 1/sqrt(2): the inner rotation, |t| <= 1;
// sign(0) = +1 as there). y is a sum of positive terms, so nothing cancels,
// and c^2 + |s|^2 = y + (1 - y) = 1 to a few ulps (CUDA's rsqrt is within
// 1 ulp), all the iteration needs. Returns false when a_pq is negligible
// (no rotation); delta = t |a_pq| (the new diagonal: a_pp - delta,
// a_qq + delta). In double the reciprocal square roots are
// core::detail::rsqrt_normal, CUDA's rsqrt without its branch for zero,
// subnormal and non-finite operands, and bitwise the same for the normal
// ones it gets here: tau^2 + 4|a_pq|^2 >= 4 safmin, y in [1/2, 1] and
// |a_pq|^2 >= safmin (so y^2 stays below 2^1021 in its Newton step).
__device__ __forceinline__ float fast_rsqrt(float x) { return rsqrtf(x); }
__device__ __forceinline__ double fast_rsqrt(double x) {
#if defined(__CUDA_ARCH__)
    return core::detail::rsqrt_normal(x);
#else
    return rsqrt(x);  // the host pass of a device function, never run
#endif
}

// With Phase, also |s| and the phase e = conj(s) / |s| of s (e = 1 when
// s = 0, as for real T), from one more reciprocal square root that runs
// beside the others (the pair kernel rotates complex columns with them).
// With Branchless the rotation is computed whatever the skip test says and
// the outputs are then selected (c = 1, s = 0, delta = 0, |s| = 0, e = 1
// where there is no rotation, or where `on` is false): no branch, so a warp
// whose lanes disagree does not diverge there and the compiler keeps the
// warp converged through the shuffles that follow (the pair kernel uses it
// at every slot count: fewer register copies per step, e.g. 263 -> 234
// instructions at 8 slots in double). The values are bitwise those of the
// branching form.
template <class T, bool Phase = false, bool Branchless = false>
__device__ __forceinline__ bool lane_rotation(core::real_t<T> app, core::real_t<T> aqq, T apq, core::real_t<T> &c,
                                              T &s, core::real_t<T> &delta, core::real_t<T> *s_abs = nullptr,
                                              T *phase = nullptr, bool on = true) {
    using R = core::real_t<T>;
    const R u = core::limits<R>::eps();
    const R r2 = abs2(apq);
    const bool ok = on & (r2 >= core::limits<R>::safmin()) & !(r2 <= (u * u) * core::rabs(app * aqq));
    if constexpr (!Branchless) {
        if (!ok) return false;
    }
    const R tau = aqq - app;
    // The callers scale A to max |a_ij| in [1, 2), so tau^2 + 4|a_pq|^2
    // cannot overflow.
    const R rh = fast_rsqrt(tau * tau + R(4) * r2);  // 1 / h
    const R y = (R(1) + core::rabs(tau) * rh) * R(0.5);
    const R rc = fast_rsqrt(y);  // 1 / c
    const R sg = tau < R(0) ? R(-1) : R(1);
    c = y * rc;
    s = apq * (sg * rh * rc);
    delta = sg * r2 * rh * (rc * rc);
    if constexpr (Branchless) {
        c = ok ? c : R(1);
        s = ok ? s : T(0);
        delta = ok ? delta : R(0);
    }
    if constexpr (Phase) {
        const R ra = fast_rsqrt(r2);  // 1 / |a_pq|
        *s_abs = r2 * ra * (rh * rc);
        *phase = conj(apq) * (sg * ra);
        if constexpr (Branchless) {
            *s_abs = ok ? *s_abs : R(0);
            *phase = ok ? *phase : T(1);
        }
    }
    return ok;
}

template <class R>
__device__ __forceinline__ R shfl_xor(R v, int o, unsigned mask) {
    return __shfl_xor_sync(mask, v, o);
}
template <class R>
__device__ __forceinline__ core::complex<R> shfl_xor(core::complex<R> v, int o, unsigned mask) {
    return core::complex<R>(__shfl_xor_sync(mask, v.re, o), __shfl_xor_sync(mask, v.im, o));
}

// Lane j's partner in step r of the round-robin ordering of m players
// (core::jacobi::round_robin_pair: player m-1 meets r; players i, k < m-1
// meet when i + k = 2r mod m-1). Lanes >= m (beyond the dummy index of odd
// n) meet themselves.
__device__ __forceinline__ int partner(int j, int r, int m) {
    if (j >= m) return j;
    const int m1 = m - 1;
    if (j == m1) return r;
    int k = 2 * r - j;
    if (k < 0) k += m1;
    else if (k >= m1) k -= m1;
    return k == j ? m1 : k;
}

// The team of one matrix: L slices of N lanes of one warp (lane = slice * N
// + column, N * L <= 32); the lane of column j in slice k holds rows
// [k R, (k + 1) R) of column j (R = N / L rows). Shuffles of a column's
// data stay within a slice (width N); sums over the slices of a column are
// butterflies over lanes N, 2N, ... apart, so every slice gets the bitwise
// same sums and all make the same decisions.
template <class T, int N, int L>
struct LaneColumns {
    using R = core::real_t<T>;
    static constexpr int kRows = N / L;
    static_assert(kRows * L == N && N * L <= 32, "slices of one warp");
    // A lane's rows of U and Q (and of the partner's U) in registers: at
    // most 32 rows of a real or 16 of a complex double column.
    static_assert(sizeof(T) * kRows <= 256, "a lane's columns must fit in its registers");

    WarpTeam<N * L> tm;
    int n, m;     // order, round-robin players
    int j, row0;  // the lane's column and first row
    bool col;     // j < n: the lane holds a column
    bool first;   // slice 0: the lane that counts and writes its column's scalars
    T u[kRows];   // rows row0.. of column j of U = A Q
    T q[kRows];   // the same rows of Q
    R d;          // g_jj

    template <class S>
    __device__ __forceinline__ S sh(S v, int src) const { return shfl(v, src, tm.mask, N); }
    // Sum over the L slices of a column.
    template <class S>
    __device__ __forceinline__ S col_sum(S v) {
#pragma unroll
        for (int o = N; o < N * L; o <<= 1) v += shfl_xor(v, o, tm.mask);
        return v;
    }
    // Sum over every lane of the team.
    template <class S>
    __device__ __forceinline__ S team_sum(S v) {
        return tm.sum(v);
    }

    // x_j = q_j^H u_t over the whole column: the partner's rows of U come
    // by shuffle (left in pu for the update), the lane's products are
    // summed in kAcc interleaved partial sums (shorter dependency chains)
    // added pairwise in a fixed order, then over the slices.
    static constexpr int kAcc = kRows >= 16 ? 4 : kRows >= 4 ? 2 : 1;
    __device__ __forceinline__ T cross(int t, T (&pu)[kRows]) {
        T acc[kAcc];
#pragma unroll
        for (int k = 0; k < kAcc; ++k) acc[k] = T(0);
#pragma unroll
        for (int i = 0; i < kRows; ++i) {
            pu[i] = sh(u[i], t);
            acc[i % kAcc] += conj(q[i]) * pu[i];
        }
        T x;
        if constexpr (kAcc == 4) x = (acc[0] + acc[1]) + (acc[2] + acc[3]);
        else if constexpr (kAcc == 2) x = acc[0] + acc[1];
        else x = acc[0];
        return col_sum(x);
    }

    // One sweep; returns the sum over the matrix of |g_jt|^2 as met
    // (off(Q^H A Q)^2 of the sweep).
    __device__ R sweep() {
        R off2 = R(0);
        for (int r = 0; r < m - 1; ++r) {
            const int t = partner(j, r, m);
            const bool on = col && t < n;
            T pu[kRows];  // the partner's rows of U, from the product to the update
            const T x = cross(t, pu);
            const R dt = sh(d, t);
            const T xt = sh(x, t);
            const bool low = j < t;
            const R app = low ? d : dt, aqq = low ? dt : d;
            const T apq = (low ? x + conj(xt) : xt + conj(x)) * R(0.5);
            R c = R(1), delta = R(0);
            T s = T(0);
            const bool rotate = on && lane_rotation<T>(app, aqq, apq, c, s, delta);
            if (on && first) off2 += abs2(apq);
            // Own column: c x - conj(s) y as the lower index of the pair
            // (x own, y the partner's), s x + c y as the higher (y own).
            const T sl = low ? -conj(s) : s;
#pragma unroll
            for (int i = 0; i < kRows; ++i) {
                const T v = sh(q[i], t);
                if (rotate) {
                    u[i] = c * u[i] + sl * pu[i];
                    q[i] = c * q[i] + sl * v;
                }
            }
            if (rotate) d = low ? app - delta : aqq + delta;
        }
        return team_sum(off2);
    }
};

// The inner solve of the block variants (cluster, grid): one sweep at most
// (max_sweeps) of the lane solver, by the warp of lanes 0..31, on the
// Hermitian part of a pair's S x S Gram block g (column-major, leading
// dimension ld, in shared memory); W, the product of its rotations (I when
// the block's off-diagonal sum is at most inner_tol2), goes to w with the
// same layout. Returns to every lane the sum of |g_ij|^2, i > j, of g's
// Hermitian part, and sets moved (every lane) when W differs from I. w may
// be g: the warp reads all of g before it writes w.
template <class T, int S>
__device__ core::real_t<T> solve_gram_block(int lane, const T *g, T *w, int ld, core::real_t<T> inner_tol2,
                                            int max_sweeps, bool &moved) {
    using R = core::real_t<T>;
    using Inner = LaneColumns<T, S, 32 / S>;
    constexpr int kRows = Inner::kRows;
    // Lane (slice, column j) holds rows row0.. of column j; W starts at I.
    Inner c;
    c.tm = WarpTeam<32>::make();
    c.n = S;
    c.m = S;
    c.j = lane % S;
    c.row0 = (lane / S) * kRows;
    c.col = true;
    c.first = lane < S;
    const int j = c.j;
    R lo2 = R(0);
#pragma unroll
    for (int k = 0; k < kRows; ++k) {
        const int i = c.row0 + k;
        T x = (g[j * ld + i] + conj(g[i * ld + j])) * R(0.5);
        if (i == j) x = T(core::real(x));
        if (i > j) lo2 += core::jacobi::abs2(x);
        c.u[k] = x;
        c.q[k] = T(i == j ? 1 : 0);
    }
    c.d = core::real(g[j * ld + j]);
    __syncwarp();  // every lane has read g (w may be g)
    lo2 = c.tm.sum(lo2);
    if (lo2 > inner_tol2) {
        for (int it = 0; it < max_sweeps; ++it)
            if (c.sweep() <= inner_tol2) break;
    }
    bool mv = false;
#pragma unroll
    for (int k = 0; k < kRows; ++k) {
        const int i = c.row0 + k;
        mv |= !(c.q[k] == T(i == j ? 1 : 0));
        w[j * ld + i] = c.q[k];
    }
    moved = __any_sync(0xffffffffu, mv);
    return lo2;
}

}  // namespace syevj_lane_detail

}  // namespace batcheig::cuda
