// One-sided Jacobi with a lane per column (BATCHEIG_ALG_JACOBI_CUDA_LANE),
// n <= 32: the iteration of core/jacobi_block.hpp with blocks of one column
// (nb = 1), every column in the registers of one lane.
//
//   N columns (N = 4, 8, 16 or 32, the power of two >= n), each held by L
//   lanes that split its rows (the slices of LaneColumns; L from
//   plan::tuning::cuda_jacobi_lane_slices): the lane of column j holds its
//   rows of column j of U = A Q and of Q in registers.
//   A sweep is the round-robin ordering of core::jacobi::round_robin_pair:
//   in step r column j meets column partner(j, r); its lanes take the
//   partner's rows of U and Q by shuffles and form the pair's 2x2 block of
//   Q^H A Q,
//       g_jj (kept: the previous rotation's exact result),
//       x_j = q_j^H u_t  (and the partner's x_t = q_t^H u_j, swapped),
//       g_jt = (x_j + conj(x_t)) / 2 for the lower index j,
//   both columns build the same rotation (lane_rotation) from the same
//   values, and each lane updates its own rows of U and Q.
// No lane waits for another beyond the shuffles of its pair (and the sums
// over a column's slices), so a step costs 2 n / L shuffles and about
// 6 n / L multiply-adds per lane.
//
// Convergence. During a sweep every lane sums |g_jt|^2 over its pairs; the
// sum over the lanes is off(Q^H A Q)^2 as the sweep met it. Once that is at
// most sqrt(tol ||A||_F) ||A||_F (quadratic convergence: the sweep has then
// usually taken off below tol ||A||_F), off(Q^H U) is computed exactly
// (every lane's x_j with every other column, one more pass of shuffles) and
// the matrix stops when it is met: so a matrix always runs at least one
// sweep, and the residual reported is the exact off(Q^H U) / ||A||_F, as
// for the block variants. The tolerance has the block variants' floor
// (core::block_tol), since U is updated, not recomputed. A matrix's team
// leaves as soon as its matrix has converged, whatever the other teams of
// the warp or block do.
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
#include "plan/tuning.hpp"

namespace batcheig::cuda {

namespace syevj_lane_detail {

using core::conj;
using core::jacobi::abs2;

// Threads per block (kThreads / N matrices).
inline constexpr int kThreads = 128;

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
// a_qq + delta).
__device__ __forceinline__ float fast_rsqrt(float x) { return rsqrtf(x); }
__device__ __forceinline__ double fast_rsqrt(double x) { return rsqrt(x); }

template <class T>
__device__ __forceinline__ bool lane_rotation(core::real_t<T> app, core::real_t<T> aqq, T apq, core::real_t<T> &c,
                                              T &s, core::real_t<T> &delta) {
    using R = core::real_t<T>;
    const R u = core::limits<R>::eps();
    const R r2 = abs2(apq);
    if (!(r2 >= core::limits<R>::safmin()) || r2 <= (u * u) * core::rabs(app * aqq)) return false;
    const R tau = aqq - app;
    // The callers scale A to max |a_ij| in [1, 2), so tau^2 + 4|a_pq|^2
    // cannot overflow.
    const R rh = fast_rsqrt(tau * tau + R(4) * r2);  // 1 / h
    const R y = (R(1) + core::rabs(tau) * rh) * R(0.5);
    const R rc = fast_rsqrt(y);  // 1 / c
    c = y * rc;
    const R sg = tau < R(0) ? R(-1) : R(1);
    s = apq * (sg * rh * rc);
    delta = sg * r2 * rh * (rc * rc);
    return true;
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

// The team of one matrix: L slices of N lanes each; the lane of column j in
// slice k holds rows [k R, (k + 1) R) of column j (R = N / L rows).
// Shuffles of a column's data stay within a slice (width N). Either
//   XW = false: the slices share a warp (lane = slice * N + column,
//     N * L <= 32); sums over the slices of a column are butterflies over
//     lanes N, 2N, ... apart;
//   XW = true: each slice is a warp of the block (N = 32, the block is the
//     matrix's team); sums over the slices go through shared memory (two
//     alternating buffers, one barrier per sum) and are added in slice order.
// Either way every slice gets the bitwise same sums, so all make the same
// decisions.
template <class T, int N, int L, bool XW>
struct LaneColumns {
    using R = core::real_t<T>;
    static constexpr int kRows = N / L;
    static_assert(kRows * L == N && (XW ? N == 32 : N * L <= 32), "slices of one warp, or warps of one block");
    // A lane's rows of U and Q (and of the partner's U) in registers: at
    // most 32 rows of a real or 16 of a complex double column.
    static_assert(sizeof(T) * kRows <= 256, "a lane's columns must fit in its registers");
    // Bytes of the cross-warp buffers (2 x L x 32 slots of the widest type).
    static constexpr std::size_t kXBytes = XW ? 2 * std::size_t(L) * 32 * sizeof(T) : 0;

    WarpTeam<XW ? 32 : N * L> tm;
    unsigned char *xbuf;  // XW: the buffers
    int parity = 0;       // XW: the buffer of the next sum
    int n, m;     // order, round-robin players
    int j, row0;  // the lane's column and first row
    bool col;     // j < n: the lane holds a column
    bool first;   // slice 0: the lane that counts and writes its column's scalars
    T u[kRows];   // rows row0.. of column j of U = A Q
    T q[kRows];   // the same rows of Q
    R d;          // g_jj

    template <class S>
    __device__ __forceinline__ S sh(S v, int src) const { return shfl(v, src, tm.mask, N); }
    // Sum (max) over the L slices of a column.
    template <class S, class Op>
    __device__ __forceinline__ S col_reduce(S v, Op op) {
        if constexpr (XW) {
            // Slots of sizeof(T) bytes whatever S is, so that the two
            // buffers never overlap.
            static_assert(sizeof(S) <= sizeof(T), "slot too narrow");
            auto slot = [&](int k) { return reinterpret_cast<S *>(xbuf + ((parity * L + k) * 32 + j) * sizeof(T)); };
            *slot(threadIdx.x / 32) = v;
            __syncthreads();
            S r = *slot(0);
#pragma unroll
            for (int k = 1; k < L; ++k) r = op(r, *slot(k));
            parity ^= 1;
            return r;
        } else {
#pragma unroll
            for (int o = N; o < N * L; o <<= 1) v = op(v, shfl_xor(v, o, tm.mask));
            return v;
        }
    }
    template <class S>
    __device__ __forceinline__ S col_sum(S v) {
        return col_reduce(v, [](S a, S b) { return a + b; });
    }
    // Sum (max) over every lane of the team.
    template <class S>
    __device__ __forceinline__ S team_sum(S v) {
        v = tm.sum(v);
        if constexpr (XW) v = col_sum(v);
        return v;
    }
    template <class S>
    __device__ __forceinline__ S team_max(S v) {
        v = tm.max(v);
        if constexpr (XW) v = col_reduce(v, [](S a, S b) { return b > a ? b : a; });
        return v;
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

    // off(Q^H U) = sqrt(sum over j != k of |q_j^H u_k|^2), exactly.
    __device__ R exact_off() {
        R s = R(0);
        for (int r = 0; r < m - 1; ++r) {
            const int t = partner(j, r, m);
            T pu[kRows];
            const T x = cross(t, pu);
            if (col && first && t < n) s += abs2(x);
        }
        return core::rsqrt_(team_sum(s));
    }
};

// Threads of a block: kThreads (teams of one warp at most), or the L warps
// of one cross-warp team.
template <int N, int L, bool XW>
inline constexpr int kBlockThreads = XW ? 32 * L : kThreads;

template <class T, int N, int L, bool XW>
__global__ __launch_bounds__(kBlockThreads<N, L, XW>) void syevj_lane_kernel(SyevjProblem<T> p,
                                                                            core::JacobiOptions opt,
                                                                            std::int64_t b0, std::int64_t count) {
    using R = core::real_t<T>;
    using Cols = LaneColumns<T, N, L, XW>;
    constexpr int kRows = Cols::kRows;
    constexpr int kTeam = XW ? 32 * L : N * L;  // threads of a team
    extern __shared__ __align__(16) unsigned char smem[];
    Cols c;
    c.tm = WarpTeam<XW ? 32 : N * L>::make();
    const int group = threadIdx.x / kTeam;
    const std::int64_t k = std::int64_t(blockIdx.x) * (kBlockThreads<N, L, XW> / kTeam) + group;
    if (k >= count) return;  // whole teams leave together
    const std::int64_t b = b0 + k;
    const int n = p.n, l = int(threadIdx.x) % kTeam;  // lane within the team
    const std::int64_t lda = p.lda;
    c.n = n;
    c.m = core::jacobi::players(n);
    c.j = l % N;
    c.row0 = (l / N) * kRows;
    c.col = c.j < n;
    c.first = l < N;
    c.xbuf = smem;
    const int j = c.j, row0 = c.row0;
    T *a = p.A + b * lda * n;
    R *w = p.w + b * n;

    // Rows row0.. of column j of the Hermitian matrix from the `uplo`
    // triangle, checked and scaled by 2^-e exactly as
    // core::jacobi::load_scaled.
    const core::MatView<T> av{a, lda, 1};
    R amax = R(0);
    int bad = 0;
#pragma unroll
    for (int k = 0; k < kRows; ++k) {
        const int i = row0 + k;
        T x = T(0);
        if (c.col && i < n) {
            x = core::jacobi::hermitian_entry(p.lower, av, i, j);
            core::jacobi::check_entry(x, amax, bad);
        }
        c.u[k] = x;
    }
    bad = c.team_max(bad);
    amax = c.team_max(amax);
    if (bad || amax == R(0)) {
        // NaN/Inf: w and vectors NaN; zero matrix: w = 0, vectors I.
        if (c.col) {
            if (c.first) w[j] = bad ? R(NAN) : R(0);
            if (p.want_v)
                for (int i = row0; i < row0 + kRows && i < n; ++i)
                    a[i + j * lda] = bad ? core::make_nan<T>() : T(i == j ? 1 : 0);
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
        const core::jacobi::Pow2Scale<R> scale(e);
#pragma unroll
        for (int k = 0; k < kRows; ++k) c.u[k] = scale(c.u[k]);
    }
    R fro = R(0), dj = R(0);
#pragma unroll
    for (int k = 0; k < kRows; ++k) {
        fro += abs2(c.u[k]);
        if (row0 + k == j) dj = core::real(c.u[k]);
    }
    c.d = c.col_sum(dj);  // one slice holds the diagonal entry, the others add zeros
    const R normf = core::rsqrt_(c.team_sum(fro));
    const R tol = core::block_tol<R>(opt.tol, n) * normf;
    // Jacobi converges quadratically: once a sweep met off <= sqrt(tol
    // ||A||_F), the off left after it is usually below tol ||A||_F, and the
    // exact test (a third of a sweep) saves the next sweep.
    const R probe = core::rsqrt_(tol * normf);
#pragma unroll
    for (int k = 0; k < kRows; ++k) {
        c.q[k] = T(c.col && row0 + k == j ? 1 : 0);
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

    // Eigenvalue of column j, its place in the ascending order, the outputs.
    T x = T(0);
    R qq = R(0);
#pragma unroll
    for (int k = 0; k < kRows; ++k) {
        const T qk = c.q[k];
        x += conj(qk) * c.u[k];
        qq += abs2(qk);
    }
    x = c.col_sum(x);
    qq = c.col_sum(qq);
    const R lam = c.col ? core::real(x) / qq : R(0);
    int pos = j;
    if (opt.sort) {
        pos = 0;
        for (int i = 0; i < n; ++i) {
            const R li = c.sh(lam, i);
            pos += (li < lam || (li == lam && i < j)) ? 1 : 0;
        }
    }
    if (c.col) {
        if (c.first) w[pos] = e != 0 ? core::rldexp(lam, e) : lam;
        if (p.want_v) {
            T *dst = a + pos * lda;
#pragma unroll
            for (int k = 0; k < kRows; ++k)
                if (row0 + k < n) dst[row0 + k] = c.q[k];
        }
    }
    if (l == 0) {
        p.info[b] = off <= tol ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
        if (p.sweeps) p.sweeps[b] = sweeps;
        if (p.residual) p.residual[b] = double(off) / double(normf);
    }
}

template <class T, int N, int L, bool XW = false>
batcheigStatus_t launch(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    using Cols = LaneColumns<T, N, L, XW>;
    constexpr int threads = kBlockThreads<N, L, XW>;
    constexpr int teams = XW ? 1 : threads / (N * L);
    const std::size_t bytes = Cols::kXBytes;
    auto kernel = syevj_lane_kernel<T, N, L, XW>;
    const batcheigStatus_t st = allow_shared(kernel, bytes);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    for (std::int64_t b0 = 0; b0 < p.batch; b0 += kLaunchMatrices) {
        const std::int64_t count = std::min<std::int64_t>(kLaunchMatrices, p.batch - b0);
        kernel<<<unsigned((count + teams - 1) / teams), threads, bytes, s>>>(p, opt, b0, count);
        BATCHEIG_CUDA_CHECK_LAUNCH();
    }
    return BATCHEIG_STATUS_SUCCESS;
}

// N lanes per slice; plan::tuning::cuda_jacobi_lane_slices() slices.
template <class T, int N>
batcheigStatus_t launch_slices(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    constexpr int slices = plan::tuning::cuda_jacobi_lane_slices(sizeof(T), core::is_complex<T>, N);
    static_assert(slices == 1 || slices == 2, "one or two slices");
    if constexpr (slices == 1) return launch<T, N, 1>(s, p, opt);
    else return launch<T, N, 2, N == 32>(s, p, opt);
}

}  // namespace syevj_lane_detail

template <class T>
batcheigStatus_t syevj_lane(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    using namespace syevj_lane_detail;
    if (p.n <= 4) return launch_slices<T, 4>(s, p, opt);
    if (p.n <= 8) return launch_slices<T, 8>(s, p, opt);
    if (p.n <= 16) return launch_slices<T, 16>(s, p, opt);
    if (p.n <= kSyevjLaneMaxN) return launch_slices<T, 32>(s, p, opt);
    return BATCHEIG_STATUS_NOT_SUPPORTED;
}

}  // namespace batcheig::cuda
