// One-sided Jacobi with a lane per column (BATCHEIG_ALG_JACOBI_CUDA_LANE),
// n <= 32: the iteration of core/jacobi_block.hpp with blocks of one column
// (nb = 1), every column in the registers of one lane.
//
//   N lanes per matrix (N = 4, 8, 16 or 32, the power of two >= n; a warp
//   holds 32 / N matrices); lane j holds column j of U = A Q and of Q
//   (Q in shared memory instead where the two columns would not fit in a
//   lane's registers: double complex, N = 32).
//   A sweep is the round-robin ordering of core::jacobi::round_robin_pair:
//   in step r lane j meets lane partner(j, r), takes the partner's column of
//   U by shuffles and forms the pair's 2x2 block of Q^H A Q,
//       g_jj (kept: the previous rotation's exact result),
//       x_j = q_j^H u_t  (and the partner's x_t = q_t^H u_j, swapped),
//       g_jt = (x_j + conj(x_t)) / 2 for the lower index j,
//   both lanes build the same rotation (core::jacobi::make_rotation) from
//   the same values, and each updates its own columns of U and Q.
// No row is ever touched and no lane waits for another beyond the shuffles
// of its pair, so a step costs 2n shuffles and 6n multiply-adds per lane.
//
// Convergence. During a sweep every lane sums |g_jt|^2 over its pairs; the
// sum over the lanes is off(Q^H A Q)^2 as the sweep met it. Once that is at
// most sqrt(tol ||A||_F) ||A||_F (quadratic convergence: the sweep has then
// usually taken off below tol ||A||_F), off(Q^H U) is computed exactly
// (every lane's x_j with every other column, one more pass of shuffles) and
// the matrix stops when it is met: so a matrix always runs at least one
// sweep, and the residual
// reported is the exact off(Q^H U) / ||A||_F, as the block variants. The
// tolerance has the block variants' floor (core::block_tol), since U is
// updated, not recomputed. A group of N lanes leaves as soon as its matrix
// has converged, whatever the other groups of the warp do.
//
// At the end each lane reads its eigenvalue Re(q_j^H u_j) / ||q_j||^2
// (core::jacobi::block_eigenvalues), finds its place in the ascending order
// by shuffles and writes w and, with vectors, column j of Q to its sorted
// column of A. Without vectors A is not written.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/problem.hpp"
#include "core/jacobi_syevj.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/syevj/syevj_cuda.hpp"
#include "cuda/team.cuh"

namespace batcheig::cuda {

namespace syevj_lane_detail {

using core::conj;
using core::jacobi::abs2;

// Threads per block (kThreads / N matrices).
inline constexpr int kThreads = 128;

// Q in shared memory when a lane's two columns would take more than 128
// registers (double complex, N = 32).
template <class T, int N>
inline constexpr bool kQShared = sizeof(T) * N > 256;

// Rows of Q a lane moves through registers at a time when Q is in shared
// memory.
inline constexpr int kQChunk = 8;

template <class R>
__device__ __forceinline__ R shfl(R v, int src, unsigned mask, int width) {
    return __shfl_sync(mask, v, src, width);
}
template <class R>
__device__ __forceinline__ core::complex<R> shfl(core::complex<R> v, int src, unsigned mask, int width) {
    return core::complex<R>(__shfl_sync(mask, v.re, src, width), __shfl_sync(mask, v.im, src, width));
}

// The rotation of core::jacobi::make_rotation (the same skip test and
// formulas) with rsqrt and a reciprocal in place of square roots and
// divisions: four long-latency operations on a step's critical path
// instead of seven. CUDA's rsqrt is within 1 ulp and __drcp_rn / __frcp_rn
// round correctly, so c^2 + |s|^2 = 1 to a few ulps, all the iteration
// needs. Returns false when a_pq is negligible (no rotation); delta is
// t |a_pq| (the new diagonal: a_pp - delta, a_qq + delta).
__device__ __forceinline__ float fast_rsqrt(float x) { return rsqrtf(x); }
__device__ __forceinline__ double fast_rsqrt(double x) { return rsqrt(x); }
__device__ __forceinline__ float fast_rcp(float x) { return __frcp_rn(x); }
__device__ __forceinline__ double fast_rcp(double x) { return __drcp_rn(x); }

template <class T>
__device__ __forceinline__ bool lane_rotation(core::real_t<T> app, core::real_t<T> aqq, T apq, core::real_t<T> &c,
                                              T &s, core::real_t<T> &delta) {
    using R = core::real_t<T>;
    const R u = core::limits<R>::eps();
    const R r2 = abs2(apq);
    if (!(r2 >= core::limits<R>::safmin()) || r2 <= (u * u) * core::rabs(app * aqq)) return false;
    const R ri = fast_rsqrt(r2);  // 1 / |a_pq|
    const R theta = (aqq - app) * (R(0.5) * ri);
    // theta^2 may overflow to Inf for a tiny a_pq: t is then 0, its limit.
    R t = fast_rcp(core::rabs(theta) + core::rsqrt_(R(1) + theta * theta));
    if (theta < R(0)) t = -t;
    c = fast_rsqrt(R(1) + t * t);
    const R tc = t * c;
    if constexpr (core::is_complex<T>) s = apq * (tc * ri);
    else s = apq < R(0) ? -tc : tc;
    delta = t * (r2 * ri);
    return true;
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

// The columns of one matrix held by one lane, and the iteration on them.
template <class T, int N>
struct LaneColumns {
    using R = core::real_t<T>;
    static constexpr bool kShared = kQShared<T, N>;

    WarpTeam<N> tm;
    int n, m;    // order, round-robin players
    bool col;    // lane < n: the lane holds a column
    T u[N];      // column of U = A Q
    T qr[kShared ? 1 : N];  // column of Q (registers)
    T *qs;       // Q in shared memory: entry (i, j) at qs[i * N + j]
    R d;         // g_jj

    __device__ __forceinline__ T q(int i) const {
        if constexpr (kShared) return qs[i * N + tm.lane];
        else return qr[i];
    }
    template <class S>
    __device__ __forceinline__ S sh(S v, int src) const { return shfl(v, src, tm.mask, N); }

    // Products of length N are summed in kAcc interleaved partial sums
    // (shorter dependency chains), then added pairwise in a fixed order.
    static constexpr int kAcc = N >= 16 ? 4 : 2;
    __device__ __forceinline__ static T dot_sum(const T (&acc)[kAcc]) {
        if constexpr (kAcc == 4) return (acc[0] + acc[1]) + (acc[2] + acc[3]);
        else return acc[0] + acc[1];
    }

    // One sweep; returns the sum over the group of |g_jt|^2 as met
    // (off(Q^H A Q)^2 of the sweep).
    __device__ R sweep() {
        const int l = tm.lane;
        R off2 = R(0);
        for (int r = 0; r < m - 1; ++r) {
            const int t = partner(l, r, m);
            const bool on = col && t < n;
            constexpr bool keep = !kShared;  // the partner's column of U, from the product to the update
            T pu[keep ? N : 1];
            T acc[kAcc];
#pragma unroll
            for (int k = 0; k < kAcc; ++k) acc[k] = T(0);
#pragma unroll
            for (int i = 0; i < N; ++i) {
                const T v = sh(u[i], t);
                if constexpr (keep) pu[i] = v;
                acc[i % kAcc] += conj(q(i)) * v;
            }
            const T x = dot_sum(acc);
            const R dt = sh(d, t);
            const T xt = sh(x, t);
            const bool low = l < t;
            const R app = low ? d : dt, aqq = low ? dt : d;
            const T apq = (low ? x + conj(xt) : xt + conj(x)) * R(0.5);
            R c = R(1), delta = R(0);
            T s = T(0);
            const bool rotate = on && lane_rotation<T>(app, aqq, apq, c, s, delta);
            if (on) off2 += abs2(apq);
            // Own column: c x - conj(s) y as the lower index of the pair
            // (x own, y the partner's), s x + c y as the higher (y own).
            const T sl = low ? -conj(s) : s;
#pragma unroll
            for (int i = 0; i < N; ++i) {
                T v;
                if constexpr (keep) v = pu[i];
                else v = sh(u[i], t);
                if (rotate) u[i] = c * u[i] + sl * v;
            }
            if constexpr (kShared) {
#pragma unroll
                for (int i0 = 0; i0 < N; i0 += kQChunk) {
                    T own[kQChunk], par[kQChunk];
                    tm.sync();  // the partner's previous writes of these rows are visible
#pragma unroll
                    for (int i = 0; i < kQChunk; ++i) {
                        own[i] = qs[(i0 + i) * N + l];
                        par[i] = qs[(i0 + i) * N + t];
                    }
                    tm.sync();  // every lane has read the rows before any writes them
                    if (rotate)
#pragma unroll
                        for (int i = 0; i < kQChunk; ++i) qs[(i0 + i) * N + l] = c * own[i] + sl * par[i];
                }
            } else {
#pragma unroll
                for (int i = 0; i < N; ++i) {
                    const T v = sh(qr[i], t);
                    if (rotate) qr[i] = c * qr[i] + sl * v;
                }
            }
            if (rotate) d = low ? app - delta : aqq + delta;
        }
        return tm.sum(off2);
    }

    // off(Q^H U) = sqrt(sum over j != k of |q_j^H u_k|^2), exactly.
    __device__ R exact_off() const {
        const int l = tm.lane;
        R s = R(0);
        for (int r = 0; r < m - 1; ++r) {
            const int t = partner(l, r, m);
            T acc[kAcc];
#pragma unroll
            for (int k = 0; k < kAcc; ++k) acc[k] = T(0);
#pragma unroll
            for (int i = 0; i < N; ++i) acc[i % kAcc] += conj(q(i)) * sh(u[i], t);
            if (col && t < n) s += abs2(dot_sum(acc));
        }
        return core::rsqrt_(tm.sum(s));
    }
};

template <class T, int N>
__global__ __launch_bounds__(kThreads) void syevj_lane_kernel(SyevjProblem<T> p, core::JacobiOptions opt,
                                                             std::int64_t b0, std::int64_t count) {
    using R = core::real_t<T>;
    extern __shared__ __align__(16) unsigned char smem[];
    LaneColumns<T, N> c;
    c.tm = WarpTeam<N>::make();
    const int group = threadIdx.x / N;
    const std::int64_t k = std::int64_t(blockIdx.x) * (kThreads / N) + group;
    if (k >= count) return;  // whole groups leave together
    const std::int64_t b = b0 + k;
    const int n = p.n, l = c.tm.lane;
    const std::int64_t lda = p.lda;
    c.n = n;
    c.m = core::jacobi::players(n);
    c.col = l < n;
    c.qs = reinterpret_cast<T *>(smem) + std::size_t(group) * N * N;
    T *a = p.A + b * lda * n;
    R *w = p.w + b * n;

    // Column l of the Hermitian matrix from the `uplo` triangle, checked and
    // scaled by 2^-e exactly as core::jacobi::load_scaled.
    R amax = R(0);
    int bad = 0;
#pragma unroll
    for (int i = 0; i < N; ++i) {
        T x = T(0);
        if (c.col && i < n) {
            if (i == l) x = T(core::real(a[i + l * lda]));
            else if (p.lower == (i > l)) x = a[i + l * lda];
            else x = conj(a[l + i * lda]);
            const R re = core::rabs(core::real(x)), im = core::rabs(core::imag(x));
            if (!core::is_finite(re) || !core::is_finite(im)) bad = 1;
            else amax = core::rmax(amax, core::rmax(re, im));
        }
        c.u[i] = x;
    }
    bad = c.tm.max(bad);
    amax = c.tm.max(amax);
    if (bad || amax == R(0)) {
        // NaN/Inf: w and vectors NaN; zero matrix: w = 0, vectors I.
        if (c.col) {
            w[l] = bad ? R(NAN) : R(0);
            if (p.want_v)
                for (int i = 0; i < n; ++i) a[i + l * lda] = bad ? core::make_nan<T>() : T(i == l ? 1 : 0);
        }
        if (l == 0) {
            p.info[b] = bad ? BATCHEIG_INFO_NONFINITE : 0;
            if (p.sweeps) p.sweeps[b] = 0;
            if (p.residual) p.residual[b] = bad ? double(NAN) : 0.0;
        }
        return;
    }
    const int e = core::rilogb(amax);
    if (e != 0) {
        const R f = core::rldexp(R(1), -e);
        const bool direct = f > R(0) && core::is_finite(f);
#pragma unroll
        for (int i = 0; i < N; ++i) c.u[i] = direct ? c.u[i] * f : core::rldexp(c.u[i], -e);
    }
    R fro = R(0);
    c.d = R(0);
#pragma unroll
    for (int i = 0; i < N; ++i) {
        fro += abs2(c.u[i]);
        if (i == l) c.d = core::real(c.u[i]);
    }
    const R normf = core::rsqrt_(c.tm.sum(fro));
    const R tol = core::block_tol<R>(opt.tol, n) * normf;
    // Jacobi converges quadratically: once a sweep met off <= sqrt(tol
    // ||A||_F), the off left after it is usually below tol ||A||_F, and the
    // exact test (a third of a sweep) saves the next sweep.
    const R probe = core::rsqrt_(tol * normf);
#pragma unroll
    for (int i = 0; i < N; ++i) {
        const T v = T(c.col && i == l ? 1 : 0);
        if constexpr (LaneColumns<T, N>::kShared) c.qs[i * N + l] = v;
        else c.qr[i] = v;
    }

    int sweeps = 0;
    R off = R(0);
    bool have_off = false;
    for (;;) {
        if (sweeps >= opt.max_sweeps) {
            if (!have_off) off = c.exact_off();
            break;
        }
        const R est = core::rsqrt_(c.sweep());
        ++sweeps;
        have_off = false;
        if (est <= probe) {
            off = c.exact_off();
            have_off = true;
            if (off <= tol) break;
        }
    }

    // Eigenvalue of column l, its place in the ascending order, the outputs.
    T x = T(0);
    R qq = R(0);
#pragma unroll
    for (int i = 0; i < N; ++i) {
        const T qi = c.q(i);
        x += conj(qi) * c.u[i];
        qq += abs2(qi);
    }
    const R lam = c.col ? core::real(x) / qq : R(0);
    int pos = l;
    if (opt.sort) {
        pos = 0;
        for (int j = 0; j < n; ++j) {
            const R lj = c.sh(lam, j);
            pos += (lj < lam || (lj == lam && j < l)) ? 1 : 0;
        }
    }
    if (c.col) {
        w[pos] = e != 0 ? core::rldexp(lam, e) : lam;
        if (p.want_v) {
            T *dst = a + pos * lda;
#pragma unroll
            for (int i = 0; i < N; ++i)
                if (i < n) dst[i] = c.q(i);
        }
    }
    if (l == 0) {
        p.info[b] = off <= tol ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
        if (p.sweeps) p.sweeps[b] = sweeps;
        if (p.residual) p.residual[b] = double(off) / double(normf);
    }
}

template <class T, int N>
batcheigStatus_t launch(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    constexpr int groups = kThreads / N;
    const std::size_t bytes = kQShared<T, N> ? std::size_t(groups) * N * N * sizeof(T) : 0;
    auto kernel = syevj_lane_kernel<T, N>;
    const batcheigStatus_t st = allow_shared(kernel, bytes);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    for (std::int64_t b0 = 0; b0 < p.batch; b0 += kLaunchMatrices) {
        const std::int64_t count = std::min<std::int64_t>(kLaunchMatrices, p.batch - b0);
        kernel<<<unsigned((count + groups - 1) / groups), kThreads, bytes, s>>>(p, opt, b0, count);
        BATCHEIG_CUDA_CHECK_LAUNCH();
    }
    return BATCHEIG_STATUS_SUCCESS;
}

}  // namespace syevj_lane_detail

template <class T>
batcheigStatus_t syevj_lane(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    using namespace syevj_lane_detail;
    if (p.n <= 4) return launch<T, 4>(s, p, opt);
    if (p.n <= 8) return launch<T, 8>(s, p, opt);
    if (p.n <= 16) return launch<T, 16>(s, p, opt);
    if (p.n <= kSyevjLaneMaxN) return launch<T, 32>(s, p, opt);
    return BATCHEIG_STATUS_NOT_SUPPORTED;
}

}  // namespace batcheig::cuda
