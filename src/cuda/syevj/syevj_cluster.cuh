// One-sided block Jacobi on a thread-block cluster
// (BATCHEIG_ALG_JACOBI_CUDA_CLUSTER, sm_90 and later): the iteration of
// core/jacobi_block.hpp with the whole problem in the shared memory of one
// cluster of thread blocks per matrix.
//
//   NB columns per column block (plan::tuning::cuda_jacobi_cluster_nb),
//   K = ceil(n / NB) column blocks, P = players(K) / 2 pairs per round-robin
//   step and P blocks per cluster (P <= 16): block k of the cluster takes
//   pair k of every step (core::jacobi::round_robin_pair).
//   Each block holds its pair's S = 2 NB columns of U = A Q and of Q in
//   its shared memory (column-major, odd leading dimension), padded with
//   zero columns past n (the last block, and the dummy block of odd K):
//   a zero column has a zero Gram row, so no rotation ever touches it.
// A step, in every block at once:
//   G = Q_S^H U_S (S x S, from shared memory), made Hermitian;
//   one sweep (opt.inner_max_sweeps at most) of the lane solver of
//   syevj_lane.cuh on G in one warp: W, the product of its rotations;
//   U_S := U_S W, Q_S := Q_S W in place (skipped when W = I);
//   a cluster barrier.
// Between steps every column block moves to the block of its next pair,
// read from the other block's shared memory (distributed shared memory)
// into the second of two buffers, so that one cluster barrier per step
// orders all reads and writes. Only the load of A and the results touch
// global memory; there is no workspace.
//
// Convergence (as the lane variant). Each block sums |g_ij|^2 (i > j) of
// its Gram blocks over a sweep; the cluster adds the sums in rank order, so
// every block gets the bitwise same value and takes the same decisions.
// Once the sweep met off <= sqrt(tol ||A||_F), off(Q^H U) is computed
// exactly (each block: its columns j against every column i > j, staged
// from the other blocks) and the matrix stops when it is at most tol
// (tolerance floor core::block_tol). A matrix always runs at least one
// sweep; its cluster leaves when it has converged. The eigenvalues are
// Re(q_j^H u_j) / ||q_j||^2; the sorted positions come from every block's
// eigenvalues; with vectors column j of Q goes to its sorted column of A,
// without vectors A is not written.
#pragma once

#include <cooperative_groups.h>

#include <algorithm>
#include <cstdint>

#include "common/problem.hpp"
#include "core/jacobi_syevj.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/syevj/syevj_cuda.hpp"
#include "cuda/syevj/syevj_lane.cuh"
#include "cuda/team.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

namespace syevj_cluster_detail {

namespace cg = cooperative_groups;
using core::conj;
using core::jacobi::abs2;

inline constexpr int kThreads = 128;
// Resident blocks per SM the registers must allow: 4 (128 registers a
// thread), 2 for double complex (whose rows of S entries need more).
template <class T>
inline constexpr int kMinBlocks = sizeof(T) >= 16 ? 2 : 4;
// Largest cluster (sm_90's non-portable size; 8 is portable).
inline constexpr int kMaxCluster = 16;
inline constexpr int kPortableCluster = 8;
// Bound on the kernel's static shared memory (reduction slots, the block's
// eigenvalues and positions: 480 bytes for double complex).
inline constexpr std::size_t kStaticBytes = 512;
static_assert(kStaticBytes <= kStaticSharedMax, "launched through allow_shared()");

// Shape of an order-n problem with column blocks of nb columns.
struct Geometry {
    int k;      // column blocks
    int mp;     // round-robin players (k rounded up to even)
    int pairs;  // blocks per cluster
    int ld;     // leading dimension of a column in shared memory (odd)
};
__host__ __device__ inline Geometry geometry(int n, int nb) {
    Geometry g;
    g.k = (n + nb - 1) / nb;
    g.mp = g.k + (g.k & 1);
    g.pairs = g.mp / 2;
    g.ld = n | 1;
    return g;
}

// Dynamic shared memory of one block: two buffers of the pair's U and Q
// (4 parts of NB columns each), then the Gram block and W (S x S+1 each).
template <class T, int NB>
std::size_t shared_bytes(int n) {
    constexpr int S = 2 * NB;
    return 8 * std::size_t(NB) * std::size_t(geometry(n, NB).ld) * sizeof(T) + 2 * std::size_t(S) * (S + 1) * sizeof(T);
}

// Column block of pair `pair`, slot 0 (the lower index) or 1, in step `step`.
__device__ __forceinline__ int slot_block(int mp, int step, int pair, int slot) {
    index_t p, q;
    core::jacobi::round_robin_pair(mp, step, pair, p, q);
    return int(slot ? q : p);
}

// The four parts (U slot 0, 1, Q slot 0, 1) of the next layout, from the
// blocks that hold them, into dst (the four parts, contiguous): 16-byte
// words (every part is a multiple of 16 bytes), kUnroll loads in flight per
// thread before their stores.
__device__ __forceinline__ void copy_parts(const uint4 *const (&from)[4], uint4 *dst, std::size_t words, int t) {
    constexpr int kUnroll = 4;
    const int total = int(4 * words);
    for (int base = t; base < total; base += kThreads * kUnroll) {
        uint4 v[kUnroll];
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) {
            const int idx = base + k * kThreads;
            if (idx < total) {
                const int pt = idx / int(words);
                v[k] = from[pt][idx - pt * int(words)];
            }
        }
#pragma unroll
        for (int k = 0; k < kUnroll; ++k) {
            const int idx = base + k * kThreads;
            if (idx < total) dst[idx] = v[k];
        }
    }
}

template <class T, int NB>
__global__ __launch_bounds__(kThreads, kMinBlocks<T>) void syevj_cluster_kernel(SyevjProblem<T> p, core::JacobiOptions opt,
                                                                 std::int64_t b0) {
    using R = core::real_t<T>;
    constexpr int S = 2 * NB;      // columns of a pair
    constexpr int SL = S + 1;      // leading dimension of G and W
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned long long scratch[32];
    __shared__ R red[2];        // this block's part of a cluster sum, two alternating slots
    __shared__ R lam[S];        // eigenvalues of the block's columns
    __shared__ int pos[S];      // their sorted positions
    __shared__ int moved;       // the step's W differs from I

    const cg::cluster_group cl = cg::this_cluster();
    const BlockTeam tm{scratch};
    const int t = threadIdx.x;
    const int n = p.n;
    const Geometry ge = geometry(n, NB);
    const int P = ge.pairs, mp = ge.mp, ld = ge.ld, steps = mp - 1;
    const int rank = int(cl.block_rank());
    const std::int64_t b = b0 + blockIdx.x / P;
    const std::int64_t lda = p.lda;
    T *const a = p.A + b * lda * n;
    R *const w = p.w + b * n;
    const std::size_t part = std::size_t(NB) * ld;
    T *const buf = reinterpret_cast<T *>(smem);
    T *const graw = buf + 8 * part;
    T *const wmat = graw + S * SL;
    // Part pt of buffer par: 0, 1 the U columns of slots 0, 1; 2, 3 the Q
    // columns (so U_S and Q_S are S contiguous columns each).
    auto X = [&](int par, int pt) { return buf + (par * 4 + pt) * part; };
    // Column of slot column c in the layout of step `step`.
    auto column = [&](int step, int c) { return slot_block(mp, step, rank, c / NB) * NB + c % NB; };

    // Sum (max) over the cluster of a value every thread of each block
    // holds: each block's value is read from every block in rank order.
    int xs = 0;
    auto cluster_reduce = [&](R v, bool is_max) {
        if (t == 0) red[xs] = v;
        cl.sync();
        R r = R(0);
        for (int k = 0; k < P; ++k) {
            const R x = *cl.map_shared_rank(&red[xs], k);
            r = is_max ? (x > r ? x : r) : r + x;
        }
        xs ^= 1;
        return r;
    };

    // Load the columns of step 0 from the `uplo` triangle, checked and
    // scaled as core::jacobi::load_scaled; Q = I.
    const core::MatView<T> av{a, lda, 1};
    R amax = R(0);
    int bad = 0;
    for (int idx = t; idx < S * n; idx += kThreads) {
        const int c = idx / n, i = idx % n, j = column(0, c);
        T x = T(0);
        if (j < n) {
            x = core::jacobi::hermitian_entry(p.lower, av, i, j);
            core::jacobi::check_entry(x, amax, bad);
        }
        X(0, 0)[c * ld + i] = x;
        X(0, 2)[c * ld + i] = T(j < n && i == j ? 1 : 0);
    }
    bad = tm.max(bad);
    amax = tm.max(amax);
    const bool any_bad = cluster_reduce(R(bad), true) != R(0);
    amax = cluster_reduce(amax, true);
    if (any_bad || amax == R(0)) {
        // NaN/Inf: w and vectors NaN; zero matrix: w = 0, vectors I.
        for (int idx = t; idx < S * n; idx += kThreads) {
            const int c = idx / n, i = idx % n, j = column(0, c);
            if (j >= n) continue;
            if (i == 0) w[j] = any_bad ? R(NAN) : R(0);
            if (p.want_v) a[i + j * lda] = any_bad ? core::make_nan<T>() : T(i == j ? 1 : 0);
        }
        if (rank == 0 && t == 0) {
            p.info[b] = any_bad ? BATCHEIG_INFO_NONFINITE : 0;
            if (p.sweeps) p.sweeps[b] = 0;
            if (p.residual) p.residual[b] = any_bad ? double(NAN) : 0.0;
        }
        cl.sync();  // no block leaves while another may read its shared memory
        return;
    }
    const int e = core::rilogb(amax);
    R fro = R(0);
    {
        const core::jacobi::Pow2Scale<R> scale(e);
        T *u = X(0, 0);
        for (int idx = t; idx < S * n; idx += kThreads) {
            const int c = idx / n, i = idx % n;
            T &x = u[c * ld + i];
            if (e != 0) x = scale(x);
            fro += abs2(x);
        }
    }
    const R normf = core::rsqrt_(cluster_reduce(tm.sum(fro), false));
    const R tol = core::block_tol<R>(opt.tol, n) * normf;
    const R inner_tol2 = (tol / R(mp)) * (tol / R(mp));

    int par = 0, step = 0;  // buffer and round-robin step of the current layout

    // off(Q^H U) = sqrt(2 sum_{i > j} |q_i^H u_j|^2) over the cluster: the
    // Q columns of every block pass through this block's spare buffer.
    auto exact_off = [&]() {
        R s = R(0);
        const T *u = X(par, 0);
        T *stage = X(par ^ 1, 2);
        for (int k = 0; k < P; ++k) {
            for (int sl = 0; sl < 2; ++sl) {
                const int cb = slot_block(mp, step, k, sl);
                if (cb * NB >= n) continue;  // padding only
                const T *src = cl.map_shared_rank(X(par, 2 + sl), k);
                __syncthreads();
                for (std::size_t idx = t; idx < part; idx += kThreads) stage[idx] = src[idx];
                __syncthreads();
                for (int item = t; item < NB * S; item += kThreads) {
                    const int ic = item % NB, jc = item / NB;
                    const int i = cb * NB + ic, j = column(step, jc);
                    if (i < n && j < n && i > j) {
                        T d = T(0);
                        for (int r = 0; r < n; ++r) d += conj(stage[ic * ld + r]) * u[jc * ld + r];
                        s += abs2(d);
                    }
                }
            }
        }
        return core::rsqrt_(R(2) * cluster_reduce(tm.sum(s), false));
    };

    int sweeps = 0;
    // One sweep; returns the cluster sum of the |g_ij|^2, i > j, it met.
    auto sweep = [&]() {
        R off2 = R(0);  // thread 0: this block's |g_ij|^2, i > j, over the sweep
        for (int st = 0; st < steps; ++st) {
            if (sweeps > 0 || st > 0) {
                // Move to the next step's layout: each of this block's two
                // column blocks comes from the slot that held it.
                const int next = (step + 1) % steps;
                const uint4 *from[4];
                for (int sl = 0; sl < 2; ++sl) {
                    const int cb = slot_block(mp, next, rank, sl);
                    int src = 0, ss = 0;
                    for (int k = 0; k < P; ++k) {
                        index_t x, y;
                        core::jacobi::round_robin_pair(mp, step, k, x, y);
                        if (x == cb) src = k, ss = 0;
                        if (y == cb) src = k, ss = 1;
                    }
                    from[sl] = reinterpret_cast<const uint4 *>(cl.map_shared_rank(X(par, ss), src));
                    from[2 + sl] = reinterpret_cast<const uint4 *>(cl.map_shared_rank(X(par, 2 + ss), src));
                }
                copy_parts(from, reinterpret_cast<uint4 *>(X(par ^ 1, 0)), part * sizeof(T) / 16, t);
                par ^= 1;
                step = next;
                __syncthreads();
            }
            const T *u = X(par, 0), *q = X(par, 2);
            // G = Q_S^H U_S, raw (column-major, ld SL); entries split over
            // kSplit adjacent lanes (interleaved rows) when they are fewer
            // than the threads.
            {
                // Each item: entries (i, j) and (i, j + NB), sharing the
                // loads of q_i, over every kSplit-th row.
                constexpr int kItems = S * NB;
                constexpr int kSplit = kItems >= kThreads ? 1 : kThreads / kItems;
                const int h = t % kSplit;
                for (int it = t / kSplit; it < kItems; it += kThreads / kSplit) {
                    const int i = it % S, j = it / S;
                    const T *qi = q + i * ld, *u0 = u + j * ld, *u1 = u + (j + NB) * ld;
                    T a0 = T(0), a1 = T(0), c0 = T(0), c1 = T(0);
                    int r = h;
                    for (; r + kSplit < n; r += 2 * kSplit) {
                        const T x0 = conj(qi[r]), x1 = conj(qi[r + kSplit]);
                        a0 += x0 * u0[r];
                        c0 += x0 * u1[r];
                        a1 += x1 * u0[r + kSplit];
                        c1 += x1 * u1[r + kSplit];
                    }
                    if (r < n) {
                        const T x0 = conj(qi[r]);
                        a0 += x0 * u0[r];
                        c0 += x0 * u1[r];
                    }
                    T g0 = a0 + a1, g1 = c0 + c1;
                    if constexpr (kSplit > 1) {
#pragma unroll
                        for (int o = 1; o < kSplit; o <<= 1) {
                            g0 += syevj_lane_detail::shfl_xor(g0, o, 0xffffffffu);
                            g1 += syevj_lane_detail::shfl_xor(g1, o, 0xffffffffu);
                        }
                    }
                    if (h == 0) {
                        graw[j * SL + i] = g0;
                        graw[(j + NB) * SL + i] = g1;
                    }
                }
            }
            __syncthreads();
            if (t < 32) {
                // The lane solver on the Hermitian part of G.
                bool mv = false;
                const R lo2 = syevj_lane_detail::solve_gram_block<T, S>(t, graw, wmat, SL, inner_tol2,
                                                                      int(opt.inner_max_sweeps), mv);
                if (t == 0) {
                    moved = mv ? 1 : 0;
                    off2 += lo2;
                }
            }
            __syncthreads();
            if (moved) {
                // X_S := X_S W for X = U, Q: one row per task, in
                // registers (one array at a time keeps a thread's registers
                // for more resident blocks).
                T *xu = X(par, 0), *xq = X(par, 2);
                for (int task = t; task < 2 * n; task += kThreads) {
                    T *x = task < n ? xu : xq;
                    const int r = task < n ? task : task - n;
                    T row[S];
#pragma unroll
                    for (int k = 0; k < S; ++k) row[k] = x[k * ld + r];
#pragma unroll
                    for (int j = 0; j < S; ++j) {
                        T sum = T(0);
#pragma unroll
                        for (int k = 0; k < S; ++k) sum += row[k] * wmat[j * SL + k];
                        x[j * ld + r] = sum;
                    }
                }
            }
            cl.sync();
        }
        return cluster_reduce(off2, false);
    };
    const R off = core::sweep_to_tolerance(opt.max_sweeps, tol, normf, sweep, exact_off, sweeps);

    // Eigenvalues of this block's columns, their sorted positions, outputs.
    const T *u = X(par, 0), *q = X(par, 2);
    if (t < S) {
        T x = T(0);
        R qq = R(0);
        for (int r = 0; r < n; ++r) {
            x += conj(q[t * ld + r]) * u[t * ld + r];
            qq += abs2(q[t * ld + r]);
        }
        lam[t] = column(step, t) < n ? core::real(x) / qq : R(0);
    }
    cl.sync();
    if (t < S) {
        const int j = column(step, t);
        const R lj = lam[t];
        int ps = j;
        if (opt.sort) {
            ps = 0;
            for (int k = 0; k < P; ++k) {
                const R *lk = cl.map_shared_rank(lam, k);
                for (int c = 0; c < S; ++c) {
                    const int i = slot_block(mp, step, k, c / NB) * NB + c % NB;
                    if (i >= n) continue;
                    const R li = lk[c];
                    ps += (li < lj || (li == lj && i < j)) ? 1 : 0;
                }
            }
        }
        pos[t] = ps;
        if (j < n) w[ps] = e != 0 ? core::rldexp(lj, e) : lj;
    }
    __syncthreads();
    if (p.want_v) {
        for (int idx = t; idx < S * n; idx += kThreads) {
            const int c = idx / n, r = idx % n;
            if (column(step, c) < n) a[r + pos[c] * lda] = q[c * ld + r];
        }
    }
    if (rank == 0 && t == 0) {
        p.info[b] = off <= tol ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
        if (p.sweeps) p.sweeps[b] = sweeps;
        if (p.residual) p.residual[b] = double(off) / double(normf);
    }
    cl.sync();  // the other blocks' reads of lam are done
}

// The launch configuration of `count` matrices (the attributes live in *attr).
inline cudaLaunchConfig_t config(cudaStream_t s, int pairs, std::int64_t count, std::size_t bytes,
                                 cudaLaunchAttribute *attr) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(unsigned(count * pairs), 1, 1);
    cfg.blockDim = dim3(kThreads, 1, 1);
    cfg.dynamicSmemBytes = bytes;
    cfg.stream = s;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = unsigned(pairs);
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    return cfg;
}

// Opts the kernel of order n in to its shared memory and cluster size;
// false when the device has no clusters or order n exceeds the limits.
template <class T, int NB>
bool opt_in(int n) {
    const Geometry ge = geometry(n, NB);
    if (ge.pairs > kMaxCluster || device_attribute(cudaDevAttrClusterLaunch) == 0) return false;
    auto kernel = syevj_cluster_kernel<T, NB>;
    const std::size_t bytes = shared_bytes<T, NB>(n);
    // Dynamic plus at most kStaticBytes of static shared memory within the
    // opt-in limit, tested before the opt-in so that a problem too large
    // makes no failing API call.
    if (bytes + kStaticBytes > std::size_t(shared_optin_bytes())) return false;
    if (allow_shared(kernel, bytes) != BATCHEIG_STATUS_SUCCESS) return false;
    if (ge.pairs > kPortableCluster &&
        cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return true;
}

// opt_in(), and one cluster of order n can be resident on the current
// device (the occupancy query: once per plan, not per launch).
template <class T, int NB>
bool resident(int n) {
    if (!opt_in<T, NB>(n)) return false;
    const Geometry ge = geometry(n, NB);
    cudaLaunchAttribute attr[1];
    const cudaLaunchConfig_t cfg = config(nullptr, ge.pairs, 1, shared_bytes<T, NB>(n), attr);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, syevj_cluster_kernel<T, NB>, &cfg) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return clusters > 0;
}

template <class T, int NB>
batcheigStatus_t launch(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    // The plan has tested residency (syevj_cluster_fits); only the opt-in
    // is needed here.
    if (!opt_in<T, NB>(p.n)) return BATCHEIG_STATUS_NOT_SUPPORTED;
    const Geometry ge = geometry(p.n, NB);
    const std::size_t bytes = shared_bytes<T, NB>(p.n);
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        cudaLaunchAttribute attr[1];
        const cudaLaunchConfig_t cfg = config(s, ge.pairs, count, bytes, attr);
        return cudaLaunchKernelEx(&cfg, syevj_cluster_kernel<T, NB>, p, opt, b0);
    });
}

inline constexpr int kNb = plan::tuning::cuda_jacobi_cluster_nb;

}  // namespace syevj_cluster_detail

// Whether the cluster variant can run order n on the current device.
template <class T>
bool syevj_cluster_fits(int n) {
    using namespace syevj_cluster_detail;
    return n >= 1 && resident<T, kNb>(n);
}

template <class T>
batcheigStatus_t syevj_cluster(cudaStream_t s, const SyevjProblem<T> &p, core::JacobiOptions opt) {
    using namespace syevj_cluster_detail;
    return launch<T, kNb>(s, p, opt);
}

}  // namespace batcheig::cuda
