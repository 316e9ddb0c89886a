// One-sided block Jacobi with the pairs of every matrix of the batch spread
// over the whole GPU (BATCHEIG_ALG_JACOBI_CUDA_GRID): the iteration of
// core/jacobi_block.hpp for orders too large for one SM, with U = A Q in the
// caller's A and Q in the workspace, in global memory.
//
//   NB columns per column block (plan::tuning::cuda_jacobi_grid_nb),
//   K = ceil(n / NB) column blocks, P = players(K) / 2 pairs per step.
// One cooperative launch per call (grid_kernel): as many blocks as can be
// resident, each taking the items of a phase in turn, with a grid barrier
// after every phase:
//   load      a matrix per item: the `uplo` triangle into the full Hermitian
//             matrix in A, checked and scaled as core::jacobi::load_scaled;
//             Q = I; the matrix's state.
//   while any matrix iterates:
//     step s  for s = 0 .. players(K) - 2, a (pair, matrix) per item:
//             G = Q_S^H U_S (rows staged through shared memory in chunks),
//             one sweep (opt.inner_max_sweeps at most) of the lane solver of
//             syevj_lane.cuh on the Hermitian part of G in one warp: W, the
//             product of its rotations; then U_S := U_S W, Q_S := Q_S W in
//             place, a chunk of rows at a time (skipped when W = I). The item
//             adds |g_ij|^2, i > j, to its pair's slot of the sweep sum.
//             A block takes the items four at a time: their G one after the
//             other, their inner solves at once (a warp each), then their
//             updates; the rows reach shared memory by asynchronous copies
//             into two stages (step_items).
//     exact   a (tile of 32 columns, matrix) per item, for the matrices that
//             need it: sum_{i > j} |q_i^H u_j|^2 over its columns j.
//     decide  a matrix per thread: the stopping rule of
//             core::sweep_to_tolerance (the sweep sum's square root against
//             sqrt(tol ||A||_F), then the exact off(Q^H U) against tol, or
//             max_sweeps).
//   finish    a matrix per item: the eigenvalues Re(q_j^H u_j) / ||q_j||^2,
//             sorted and unscaled, and with vectors the columns of Q to
//             their sorted columns of A; info, sweeps, residual.
// Every block reads the same states after a barrier, so all leave the loop
// together. Every sum is taken in a fixed order (no atomics), so a matrix
// gets bitwise the same results in any batch. A matrix that has converged
// costs one test of its state per item.
//
// State. Between the phases a matrix's scalars (||A||_F, the tolerance, the
// scale, the sweep count, the slots of the sweep and exact sums) live in its
// n entries of w, which receive the eigenvalues only at the end, and
// p.info[b] holds kIterating while the matrix iterates (a matrix that holds
// NaN/Inf or is zero gets its final results in the load). So the workspace
// is Q alone: n x n elements per matrix, at most the size of the input.
//
// Why not a launch per step: the launches of a call then need a loop whose
// length the device decides, i.e. a CUDA graph with a conditional node, and
// cudaGraphExecDestroy() waits for the graph's launch to finish (measured on
// an H100 with CUDA 13), so the call could not return before its work was
// done.
#pragma once

#include <cooperative_groups.h>
#include <cuda_pipeline.h>

#include <climits>
#include <cstdint>

#include "common/problem.hpp"
#include "core/jacobi_syevj.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/syevj/syevj_block.cuh"
#include "cuda/syevj/syevj_cuda.hpp"
#include "cuda/syevj/syevj_lane.cuh"
#include "cuda/team.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

namespace syevj_grid_detail {

namespace cg = cooperative_groups;
using core::conj;
using core::index_t;
using core::jacobi::abs2;

inline constexpr int kThreads = 128;      // threads per block
// p.info[b] of a matrix that iterates (never a final info code).
inline constexpr int kIterating = INT_MIN;

// The state's slots in w (reals): the scalars, then one sweep-sum slot per
// pair, then one exact-sum slot per tile of 32 columns.
enum Slot : int { kNormF, kTol, kProbe, kExp, kActive, kSweeps, kOff, kHead };

struct Geometry {
    int k;      // column blocks
    int mp;     // round-robin players
    int pairs;  // pairs per step
    int tiles;  // tiles of 32 columns (exact sum)
};
__host__ __device__ inline Geometry geometry(int n, int nb) {
    Geometry g;
    g.k = (n + nb - 1) / nb;
    g.mp = g.k + (g.k & 1);
    g.pairs = g.mp / 2;
    g.tiles = (n + 31) / 32;
    return g;
}

// Columns per block: 16 in the real types, 8 in the complex ones.
template <class T>
inline constexpr int kNb = plan::tuning::cuda_jacobi_grid_nb(core::is_complex<T>);

// Rows of Q_S and U_S staged in shared memory per pass: 1024 entries of
// each in the real types, 512 in the complex ones (so that three blocks of
// complex double fit an SM with two stages).
template <class T, int S>
inline constexpr int kChunk = (core::is_complex<T> ? 512 : 1024) / S;

// Items (pairs of a step) a block takes together: their Gram blocks are
// formed one after the other by the whole block, their inner solves run at
// once, a warp each, and then their updates one after the other. (With one
// item at a time three of the four warps waited at a barrier while the
// fourth ran the inner solve.)
inline constexpr int kGroup = kThreads / 32;

// Shared memory of a step block: two stages of staged rows of Q_S and U_S
// (one filled by asynchronous copies while the other is used), then G of
// every item of a group (S x S+1), which its W overwrites.
template <class T, int S>
constexpr std::size_t step_bytes() {
    return (2 * 2 * std::size_t(S) * (kChunk<T, S> + 1) + kGroup * std::size_t(S) * (S + 1)) * sizeof(T);
}

// Smallest order the variant claims (two column blocks at least), and the
// state must fit in w.
inline constexpr int kMinN = plan::tuning::cuda_jacobi_grid_min_n;
template <class T>
bool claims(int n) {
    if (n < kMinN) return false;
    const Geometry g = geometry(n, kNb<T>);
    return kHead + g.pairs + g.tiles <= n;
}

// The state of matrix b while it iterates (else nullptr: converged, out
// of sweeps, or finished at the load).
template <class T>
__device__ core::real_t<T> *active_state(const SyevjProblem<T> &p, std::int64_t b) {
    if (p.info[b] != kIterating) return nullptr;
    core::real_t<T> *const st = p.w + b * p.n;
    return st[kActive] == core::real_t<T>(0) ? nullptr : st;
}

// The sweep sum of a matrix, its pair slots added in order, and whether the
// sweep just run ends it with the exact test (as core::sweep_to_tolerance:
// the sweep met off <= sqrt(tol ||A||_F), or max_sweeps is reached).
template <class R>
__device__ bool needs_exact(const R *st, int pairs, int max_sweeps, R &est) {
    R s = R(0);
    for (int k = 0; k < pairs; ++k) s += st[kHead + k];
    est = core::rsqrt_(s);
    return est <= st[kProbe] || int(st[kSweeps]) + 1 >= max_sweeps;
}

// Load matrix b: check, scale; Q = I; the state.
template <class T>
__device__ void load_matrix(const BlockTeam &tm, const SyevjProblem<T> &p, const core::JacobiOptions &opt,
                            std::int64_t b, T *qwork) {
    using R = core::real_t<T>;
    const int n = p.n;
    const core::MatView<T> a{p.A + b * std::int64_t(p.lda) * n, p.lda, 1};
    R *const st = p.w + b * n;
    int e = 0;
    const core::jacobi::Loaded ld = core::jacobi::load_scaled(tm, p.lower, n, a, a, e);
    if (ld != core::jacobi::Loaded::Ok) {
        core::JacobiStats js;
        const int info = core::jacobi::special_result(tm, ld, p.want_v, n, a, core::VecView<R>{st, 1}, js);
        if (tm.leader()) {
            p.info[b] = info;
            if (p.sweeps) p.sweeps[b] = 0;
            if (p.residual) p.residual[b] = js.residual;
        }
        return;
    }
    const R normf = core::jacobi::fro_norm(tm, n, a);
    T *q = qwork + b * std::int64_t(n) * n;
    for (std::int64_t k = threadIdx.x; k < std::int64_t(n) * n; k += blockDim.x) q[k] = T(k % n == k / n ? 1 : 0);
    const R tol = core::block_tol<R>(opt.tol, n) * normf;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        R v = R(0);
        if (i == kNormF) v = normf;
        if (i == kTol) v = tol;
        if (i == kProbe) v = core::rsqrt_(tol * normf);
        if (i == kExp) v = R(e);
        if (i == kActive) v = R(1);
        st[i] = v;  // sweeps, off and every sum slot start at 0
    }
    if (tm.leader()) p.info[b] = kIterating;
    tm.sync();  // the next matrix's load reuses the team's scratch
}

// Resident blocks per SM the registers must allow: the lane solver's 32
// rows of a pair of 32 columns need 255 registers in double (2 blocks; at
// 168 registers it spilled 1.1 KB and took 107 ms instead of 84 at n = 256,
// batch 200, H100) and fit 168 in float (3 blocks: 42.5 ms instead of 52.9
// at n = 256, 9.4 instead of 10.1 at n = 160, no spills); 16 columns need
// fewer (4; 3 in complex double, whose lane rows are 16 bytes wide).
template <class T, int S>
inline constexpr int kStepMinBlocks = S == 32 ? (sizeof(T) == 4 ? 3 : 2) : sizeof(T) >= 16 ? 3 : 4;

// One item of a step: pair `pair` of matrix b, column blocks bp and bq.
template <class T>
struct StepItem {
    std::int64_t b;
    int pair;
    index_t bp, bq;
};

// The staged rows of a pair (shared memory) and the global columns behind
// them.
template <class T, int NB>
struct PairRows {
    static constexpr int S = 2 * NB;  // columns of a pair
    static constexpr int CH = kChunk<T, S>;
    static constexpr int CL = CH + 1;
    static constexpr int kLoads = S * CH / kThreads;  // entries of each array a thread stages per chunk
    int n, bp, bq;
    // Column of pair column c (n or more: padding, read as zero).
    __device__ int column(int c) const { return c < NB ? bp * NB + c : bq * NB + (c - NB); }
    // Rows [r0, r0 + CH) of X_S and Y_S into xs and ys (zero beyond n and
    // for padding columns) by asynchronous copies (cp.async, in units of
    // the real type: a user's complex array need only be aligned to it);
    // the caller commits them and waits.
    __device__ void stage_async(const T *x, std::int64_t ldx, const T *y, std::int64_t ldy, int r0, T *xs,
                                T *ys) const {
        using R = core::real_t<T>;
        constexpr int kParts = int(sizeof(T) / sizeof(R));
        const int t = threadIdx.x;
#pragma unroll
        for (int l = 0; l < kLoads; ++l) {
            const int idx = t + l * kThreads, c = idx / CH, rr = idx % CH, r = r0 + rr, col = column(c);
            T *const dx = xs + c * CL + rr, *const dy = ys + c * CL + rr;
            if (r < n && col < n) {
                const R *const sx = reinterpret_cast<const R *>(x + col * ldx + r);
                const R *const sy = reinterpret_cast<const R *>(y + col * ldy + r);
#pragma unroll
                for (int k = 0; k < kParts; ++k) {
                    __pipeline_memcpy_async(reinterpret_cast<R *>(dx) + k, sx + k, sizeof(R));
                    __pipeline_memcpy_async(reinterpret_cast<R *>(dy) + k, sy + k, sizeof(R));
                }
            } else {
                *dx = T(0);
                *dy = T(0);
            }
        }
    }
    // The chunks of rows [0, n) through the two stages st[0], st[1] (each
    // an X_S and a Y_S part, xs then ys): body(xs, ys, r0) runs on chunk r0
    // while the copies of the next one are in flight (a block; a barrier
    // before and after each body, so the stages are free when it returns).
    template <class Body>
    __device__ void pipelined(const T *x, std::int64_t ldx, const T *y, std::int64_t ldy, T *st0, T *st1,
                              Body &&body) const {
        constexpr int kPart = S * CL;  // one array of a stage
        stage_async(x, ldx, y, ldy, 0, st0, st0 + kPart);
        __pipeline_commit();
        for (int r0 = 0, c = 0; r0 < n; r0 += CH, ++c) {
            T *const cur = (c & 1) ? st1 : st0;
            if (r0 + CH < n) {
                T *const nxt = (c & 1) ? st0 : st1;
                stage_async(x, ldx, y, ldy, r0 + CH, nxt, nxt + kPart);
                __pipeline_commit();
                __pipeline_wait_prior(1);
            } else {
                __pipeline_wait_prior(0);
            }
            __syncthreads();
            body(cur, cur + kPart, r0);
            __syncthreads();
        }
    }
};

// G = Q_S^H U_S of an item into graw (S x S, leading dimension S + 1; a
// block; st0, st1: the two stages).
template <class T, int NB>
__device__ void gram_item(const SyevjProblem<T> &p, const StepItem<T> &item, const T *qwork, T *st0, T *st1,
                          T *graw) {
    using Rows = PairRows<T, NB>;
    constexpr int S = Rows::S, SL = S + 1, CH = Rows::CH, CL = Rows::CL;
    const int n = p.n;
    const Rows rows{n, int(item.bp), int(item.bq)};
    const T *const u = p.A + item.b * std::int64_t(p.lda) * n;
    const T *const q = qwork + item.b * std::int64_t(n) * n;
    const int t = threadIdx.x;
    // A thread sums a TI x TJ tile of G, entries (gi + a S/TI, gj + b S/TJ),
    // so that each staged value it loads serves TJ (TI) products.
    constexpr int TI = S == 32 ? 2 : 1, TJ = S * S / kThreads / TI;
    constexpr int SI = S / TI, SJ = S / TJ;
    static_assert(SI * SJ == kThreads, "one tile per thread");
    const int gi = t % SI, gj = t / SI;
    T acc[TI][TJ];
#pragma unroll
    for (int x = 0; x < TI; ++x)
#pragma unroll
        for (int y = 0; y < TJ; ++y) acc[x][y] = T(0);
    rows.pipelined(q, n, u, p.lda, st0, st1, [&](const T *qs, const T *us, int) {
#pragma unroll 4
        for (int rr = 0; rr < CH; ++rr) {
            T qv[TI], uv[TJ];
#pragma unroll
            for (int x = 0; x < TI; ++x) qv[x] = conj(qs[(gi + x * SI) * CL + rr]);
#pragma unroll
            for (int y = 0; y < TJ; ++y) uv[y] = us[(gj + y * SJ) * CL + rr];
#pragma unroll
            for (int x = 0; x < TI; ++x)
#pragma unroll
                for (int y = 0; y < TJ; ++y) acc[x][y] += qv[x] * uv[y];
        }
    });
#pragma unroll
    for (int x = 0; x < TI; ++x)
#pragma unroll
        for (int y = 0; y < TJ; ++y) graw[(gj + y * SJ) * SL + gi + x * SI] = acc[x][y];
}

// U_S := U_S W and Q_S := Q_S W of an item together, in chunks of CH rows
// staged in shared memory (U first, then Q); a thread computes rows
// gr + 16 a (a < CH / 16) of columns gc + 8 y (y < S / 8) of both, so each
// W entry it loads serves 2 CH / 16 products (a block; st0, st1: the two
// stages).
template <class T, int NB>
__device__ void update_item(const SyevjProblem<T> &p, const StepItem<T> &item, T *qwork, T *st0, T *st1,
                            const T *wmat) {
    using Rows = PairRows<T, NB>;
    constexpr int S = Rows::S, SL = S + 1, CH = Rows::CH, CL = Rows::CL;
    const int n = p.n;
    const std::int64_t lda = p.lda;
    const Rows rows{n, int(item.bp), int(item.bq)};
    T *const u = p.A + item.b * lda * n;
    T *const q = qwork + item.b * std::int64_t(n) * n;
    constexpr int UR = CH / 16, UC = S / 8;
    static_assert(16 * 8 == kThreads, "16 x 8 threads per chunk");
    const int t = threadIdx.x, gr = t % 16, gc = t / 16;
    rows.pipelined(u, lda, q, n, st0, st1, [&](const T *qs, const T *us, int r0) {
        T ou[UR][UC], oq[UR][UC];
#pragma unroll
        for (int a = 0; a < UR; ++a)
#pragma unroll
            for (int y = 0; y < UC; ++y) ou[a][y] = oq[a][y] = T(0);
#pragma unroll 2
        for (int k = 0; k < S; ++k) {
            T wv[UC];
#pragma unroll
            for (int y = 0; y < UC; ++y) wv[y] = wmat[(gc + 8 * y) * SL + k];
#pragma unroll
            for (int a = 0; a < UR; ++a) {
                const T xu = qs[k * CL + gr + 16 * a], xq = us[k * CL + gr + 16 * a];
#pragma unroll
                for (int y = 0; y < UC; ++y) {
                    ou[a][y] += xu * wv[y];
                    oq[a][y] += xq * wv[y];
                }
            }
        }
#pragma unroll
        for (int a = 0; a < UR; ++a) {
            const int r = r0 + gr + 16 * a;
#pragma unroll
            for (int y = 0; y < UC; ++y) {
                const int col = rows.column(gc + 8 * y);
                if (r < n && col < n) {
                    u[col * lda + r] = ou[a][y];
                    q[std::int64_t(col) * n + r] = oq[a][y];
                }
            }
        }
    });
}

// The items of step `step` this block takes, kGroup active ones at a time
// (items it0, it0 + stride, ... below nitems; item it is pair it % pairs of
// matrix b0 + it / pairs). Per group: G of each item, then their inner
// solves at once (warp g: item g), then the updates of the items whose W
// is not I (a block; smem: step_bytes()).
template <class T, int NB>
__device__ void step_items(const SyevjProblem<T> &p, const core::JacobiOptions &opt, std::int64_t b0,
                           std::int64_t it0, std::int64_t stride, std::int64_t nitems, T *qwork, int step,
                           unsigned char *smem) {
    using R = core::real_t<T>;
    constexpr int S = 2 * NB, SL = S + 1, CL = PairRows<T, NB>::CL;
    constexpr std::size_t kBlock = std::size_t(S) * SL;  // one item's G, then its W
    __shared__ std::int64_t group[kGroup], next;
    __shared__ int ngroup, moved[kGroup];
    // (Raw bytes: a complex element type has constructors, which shared
    // arrays must not run.)
    T *const st0 = reinterpret_cast<T *>(smem), *const st1 = st0 + 2 * S * CL;  // the two stages
    T *const gw = st1 + 2 * S * CL;  // G of item g at gw + g kBlock, then its W
    const Geometry ge = geometry(p.n, NB);
    const int t = threadIdx.x, warp = t / 32, lane = t % 32;
    for (std::int64_t it = it0; it < nitems;) {
        __syncthreads();  // the previous group's reads of group[] are done
        if (warp == 0) {
            // The next kGroup active items in order, warp 0 testing 32 at
            // a time (a lane each: two dependent loads), the ballot's set
            // bits taken lowest first.
            int ng = 0;
            while (ng < kGroup && it < nitems) {
                const std::int64_t mine = it + std::int64_t(lane) * stride;
                unsigned act = __ballot_sync(0xffffffffu, mine < nitems && active_state(p, b0 + mine / ge.pairs));
                int last = 31;
                for (; act != 0u && ng < kGroup; act &= act - 1u) {
                    last = __ffs(act) - 1;
                    if (lane == 0) group[ng] = it + std::int64_t(last) * stride;
                    ++ng;
                }
                it += std::int64_t(ng == kGroup ? last + 1 : 32) * stride;
            }
            if (lane == 0) {
                ngroup = ng;
                next = it;
            }
        }
        __syncthreads();
        it = next;
        const int ng = ngroup;
        auto item_of = [&](int g) {
            StepItem<T> item;
            item.b = b0 + group[g] / ge.pairs;
            item.pair = int(group[g] % ge.pairs);
            core::jacobi::round_robin_pair(ge.mp, step, item.pair, item.bp, item.bq);
            return item;
        };
        for (int g = 0; g < ng; ++g) gram_item<T, NB>(p, item_of(g), qwork, st0, st1, gw + g * kBlock);
        __syncthreads();
        if (warp < ng) {
            // The lane solver on the Hermitian part of G (as the cluster variant).
            const StepItem<T> item = item_of(warp);
            R *const st = p.w + item.b * p.n;
            const R tol = st[kTol];
            const R inner_tol2 = (tol / R(ge.mp)) * (tol / R(ge.mp));
            bool mv = false;
            const R lo2 = syevj_lane_detail::solve_gram_block<T, S>(
                lane, gw + warp * kBlock, gw + warp * kBlock, SL, inner_tol2,
                int(opt.inner_max_sweeps), mv);
            if (lane == 0) {
                moved[warp] = mv ? 1 : 0;
                st[kHead + item.pair] += lo2;  // this pair's slot: one writer per step, steps in order
            }
        }
        __syncthreads();
        for (int g = 0; g < ng; ++g)
            if (moved[g]) update_item<T, NB>(p, item_of(g), qwork, st0, st1, gw + g * kBlock);
    }
}

// Rows of q staged per pass of the exact sum (syevj_block_detail::dot_tile).
inline constexpr int kExactLs = 16;
// Shared memory of the exact sum: a 32 x kExactLs+1 stage per warp.
template <class T>
constexpr std::size_t exact_bytes() {
    return std::size_t(kThreads / 32) * 32 * (kExactLs + 1) * sizeof(T);
}

// The exact sum of matrix b, if it needs it, over the columns j of tile
// `tile` (32 columns): the sum of |q_i^H u_j|^2, i > j, into the tile's
// slot (a block; smem: exact_bytes()).
template <class T>
__device__ void exact_item(const BlockTeam &tm, const SyevjProblem<T> &p, const core::JacobiOptions &opt,
                           std::int64_t b, int tile, T *qwork, int nb, unsigned char *smem) {
    using R = core::real_t<T>;
    constexpr int LD = kExactLs + 1;
    T *const stage = reinterpret_cast<T *>(smem);
    const int n = p.n;
    const Geometry ge = geometry(n, nb);
    R *const st = active_state(p, b);
    if (!st) return;
    R est;
    if (!needs_exact(st, ge.pairs, int(opt.max_sweeps), est)) return;
    const core::MatView<T> q{qwork + b * std::int64_t(n) * n, n, 1};
    const core::MatView<T> u{p.A + b * std::int64_t(p.lda) * n, p.lda, 1};
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = kThreads / 32;
    T *stg = stage + warp * 32 * LD;
    R s = R(0);
    const int j0 = tile * 32, j1 = j0 + 32 < n ? j0 + 32 : n;
    for (int j = j0 + warp; j < j1; j += warps)
        for (int i0 = (j + 1) / 32 * 32; i0 < n; i0 += 32)
            s += abs2(syevj_block_detail::dot_tile<kExactLs>(lane, n, q, i0, j + 1, u, j, stg));
    s = tm.sum(s);
    if (tm.leader()) st[kHead + ge.pairs + tile] = s;
    tm.sync();  // the stage is free for the next item
}

// The stopping rule of core::sweep_to_tolerance for matrix b after a
// sweep (one thread).
template <class T>
__device__ void decide_matrix(const SyevjProblem<T> &p, const core::JacobiOptions &opt, std::int64_t b, int nb) {
    using R = core::real_t<T>;
    const int n = p.n;
    const Geometry ge = geometry(n, nb);
    R *const st = active_state(p, b);
    if (!st) return;
    R est;
    const bool exact = needs_exact(st, ge.pairs, int(opt.max_sweeps), est);
    const int sweeps = int(st[kSweeps]) + 1;
    bool done = sweeps >= int(opt.max_sweeps);
    if (exact) {
        R s = R(0);
        for (int k = 0; k < ge.tiles; ++k) s += st[kHead + ge.pairs + k];
        const R off = core::rsqrt_(R(2) * s);
        st[kOff] = off;
        if (est <= st[kProbe] && off <= st[kTol]) done = true;
    }
    st[kSweeps] = R(sweeps);
    for (int k = 0; k < ge.pairs; ++k) st[kHead + k] = R(0);
    if (done) st[kActive] = R(0);
}

// Matrix b: eigenvalues, sorted and unscaled; vectors; info (a block;
// smem: n reals).
template <class T>
__device__ void finish_matrix(const BlockTeam &tm, const SyevjProblem<T> &p, const core::JacobiOptions &opt,
                              std::int64_t b, T *qwork, unsigned char *smem) {
    using R = core::real_t<T>;
    const int n = p.n;
    if (p.info[b] != kIterating) return;
    R *const st = p.w + b * n;
    const R normf = st[kNormF], tol = st[kTol], off = st[kOff];
    const int e = int(st[kExp]), sweeps = int(st[kSweeps]);
    const core::MatView<T> q{qwork + b * std::int64_t(n) * n, n, 1};
    const core::MatView<T> a{p.A + b * std::int64_t(p.lda) * n, p.lda, 1};
    R *wv = reinterpret_cast<R *>(smem);
    const core::VecView<R> wvv{wv, 1};
    core::jacobi::block_eigenvalues(tm, n, q, a, wvv);  // syncs before and after: the state is read
    for (index_t i = tm.first(0); i < n; i += tm.size())
        st[opt.sort ? core::jacobi::sorted_position(n, wvv, i) : i] = e != 0 ? core::rldexp(wv[i], e) : wv[i];
    if (p.want_v) {
        const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
        for (int j = warp; j < n; j += warps) {
            const index_t to = opt.sort ? core::jacobi::sorted_position(n, wvv, j) : j;
            for (int r = lane; r < n; r += 32) a(r, to) = q(r, j);
        }
    }
    if (tm.leader()) {
        p.info[b] = off <= tol ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
        if (p.sweeps) p.sweeps[b] = sweeps;
        if (p.residual) p.residual[b] = double(off) / double(normf);
    }
    tm.sync();  // wv and the scratch are free for the next matrix
}

// Dynamic shared memory of the kernel: the largest of the step's staging
// (step_bytes), the exact sum's stage and the finish's n eigenvalues.
template <class T, int NB>
std::size_t kernel_bytes(int n) {
    const std::size_t step = step_bytes<T, 2 * NB>(), exact = exact_bytes<T>();
    const std::size_t fin = std::size_t(n) * sizeof(core::real_t<T>);
    const std::size_t m = step > exact ? step : exact;
    return round16(m > fin ? m : fin);
}

// The whole iteration of matrices [b0, b0 + count) in one cooperative
// launch: each phase's items (a matrix, a (pair, matrix) or a (tile,
// matrix)) are spread over the resident blocks, and the grid synchronizes
// between phases. Every block reads the same states after a grid barrier,
// so all take the same decision to stop.
template <class T, int NB>
__global__ __launch_bounds__(kThreads, kStepMinBlocks<T, 2 * NB>) void grid_kernel(SyevjProblem<T> p,
                                                                                  core::JacobiOptions opt,
                                                                                  std::int64_t b0, int count,
                                                                                  T *qwork) {
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    const cg::grid_group grid = cg::this_grid();
    const Geometry ge = geometry(p.n, NB);
    for (int i = blockIdx.x; i < count; i += gridDim.x) load_matrix<T>(tm, p, opt, b0 + i, qwork);
    grid.sync();
    for (;;) {
        int any = 0;
        for (int i = threadIdx.x; i < count && !any; i += blockDim.x) any = active_state(p, b0 + i) != nullptr;
        if (!__syncthreads_or(any)) break;
        for (int step = 0; step < ge.mp - 1; ++step) {
            step_items<T, NB>(p, opt, b0, blockIdx.x, gridDim.x, std::int64_t(count) * ge.pairs, qwork, step, smem);
            grid.sync();
        }
        for (std::int64_t it = blockIdx.x; it < std::int64_t(count) * ge.tiles; it += gridDim.x)
            exact_item<T>(tm, p, opt, b0 + it / ge.tiles, int(it % ge.tiles), qwork, NB, smem);
        grid.sync();
        for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
             i += std::int64_t(gridDim.x) * blockDim.x)
            decide_matrix<T>(p, opt, b0 + i, NB);
        grid.sync();
    }
    for (int i = blockIdx.x; i < count; i += gridDim.x) finish_matrix<T>(tm, p, opt, b0 + i, qwork, smem);
}

template <class T, int NB>
batcheigStatus_t launch(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt, std::int64_t b0,
                        int count, T *qwork) {
    auto kernel = grid_kernel<T, NB>;
    const std::size_t bytes = kernel_bytes<T, NB>(p.n);
    const batcheigStatus_t st = allow_shared(kernel, bytes);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    int per_sm = 0;
    BATCHEIG_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, kThreads, bytes));
    if (per_sm < 1) return BATCHEIG_STATUS_NOT_SUPPORTED;
    const Geometry ge = geometry(p.n, NB);
    const std::int64_t items = std::int64_t(count) * (ge.pairs > ge.tiles ? ge.pairs : ge.tiles);
    const std::int64_t resident = std::int64_t(per_sm) * multiprocessors();
    const unsigned blocks = unsigned(items < resident ? items : resident);
    SyevjProblem<T> pp = p;
    core::JacobiOptions oo = opt;
    std::int64_t bb = b0;
    int cc = count;
    T *qq = qwork;
    void *args[] = {&pp, &oo, &bb, &cc, &qq};
    BATCHEIG_CUDA_TRY(cudaLaunchCooperativeKernel(reinterpret_cast<const void *>(kernel), dim3(blocks), dim3(kThreads),
                                                  args, bytes, s));
    return BATCHEIG_STATUS_SUCCESS;
}

}  // namespace syevj_grid_detail

// Whether the grid variant claims order n (on a device with cooperative
// launch).
template <class T>
bool syevj_grid_fits(int n) {
    return syevj_grid_detail::claims<T>(n) && device_attribute(cudaDevAttrCooperativeLaunch) != 0;
}

// Workspace: Q, n x n per matrix.
template <class T>
std::size_t syevj_grid_workspace(int n, std::int64_t batch) {
    return sizeof(T) * std::size_t(n) * std::size_t(n) * std::size_t(batch);
}

template <class T>
batcheigStatus_t syevj_grid(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt, void *work) {
    using namespace syevj_grid_detail;
    constexpr int NB = kNb<T>;
    if (!claims<T>(p.n)) return BATCHEIG_STATUS_NOT_SUPPORTED;
    // One launch for the whole batch: the blocks step through the items
    // (64-bit counts), however many matrices there are.
    return launch<T, NB>(s, p, opt, 0, p.batch, static_cast<T *>(work));
}

}  // namespace batcheig::cuda
