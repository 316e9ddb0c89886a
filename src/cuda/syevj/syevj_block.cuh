// One-sided block Jacobi on the GPU (BATCHEIG_ALG_JACOBI_CUDA_BLOCK): the
// iteration of core/jacobi_block.hpp (core::jacobi::syevj_block is its
// serial form, the host's block variant), one thread block per matrix.
//
//   U = A Q    lives in the caller's A (scaled, both triangles), updated in
//              place column block by column block;
//   Q          one n x n slice of the workspace per matrix (the workspace is
//              at most the size of the input batch);
//   each warp  owns one pair of column blocks of a round-robin step (pairs
//              beyond the warp count are taken in turn); its shared-memory
//              region holds the pair's Gram block G = Q_S^H U_S, the
//              eigenvectors W and the correction F (LS x LS+1 each, LS = the
//              largest 2nb), the inner solve's diagonal sums and rotations.
// A step: each warp forms G (rows of Q_S and U_S staged through W and F,
// lane j summing column j of G in row order, as the host), runs
// core::jacobi::pair_rotation on it with the warp as team (the scalar
// two-sided Jacobi, then one Newton-Schulz step on W), and applies the
// result to the rows of U_S and Q_S (lane = row, the row in registers).
// The block syncs between steps. Before each sweep the block tests
// off(Q^H U); a matrix that has converged leaves the kernel. Then
// block_eigenvalues(), and with vectors the refinement of Q (F in A, Q
// corrected row by row in place) and the sorted copy of Q to A.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/problem.hpp"
#include "core/jacobi_syevj.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/team.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

namespace syevj_block_detail {

using core::index_t;
using core::jacobi::BlockPair;
using core::jacobi::Rotation;

// Warps per block at most: the launch bound that leaves a lane the
// registers for a pair's column of G (LS accumulators) without spilling.
inline constexpr int kMaxWarps = 8;

// One warp's shared-memory region for blocks of at most LS / 2 columns.
template <class T, int LS>
struct Region {
    using R = core::real_t<T>;
    static constexpr int LD = LS + 1;  // odd: lanes walking a row hit distinct banks
    static constexpr std::size_t mat_bytes = round16(3 * std::size_t(LS) * LD * sizeof(T));
    static constexpr std::size_t real_bytes = round16(2 * std::size_t(LS) * sizeof(R));
    static constexpr std::size_t rot_bytes = round16(std::size_t(LS / 2) * sizeof(Rotation<T>));
    // Also the row buffer (n entries) of the final refinement.
    static std::size_t bytes(int n) {
        const std::size_t pair = mat_bytes + real_bytes + rot_bytes, row = round16(std::size_t(n) * sizeof(T));
        return pair > row ? pair : row;
    }
    __device__ static T *g(unsigned char *base) { return reinterpret_cast<T *>(base); }
    __device__ static T *w(unsigned char *base) { return g(base) + std::size_t(LS) * LD; }
    __device__ static T *f(unsigned char *base) { return g(base) + 2 * std::size_t(LS) * LD; }
    __device__ static R *b(unsigned char *base) { return reinterpret_cast<R *>(base + mat_bytes); }
    __device__ static Rotation<T> *rot(unsigned char *base) {
        return reinterpret_cast<Rotation<T> *>(base + mat_bytes + real_bytes);
    }
};

// Dynamic shared memory of a block of `warps` warps: the unsorted
// eigenvalues (n reals), then one region per warp.
template <class T, int LS>
std::size_t block_bytes(int n, int warps) {
    return round16(std::size_t(n) * sizeof(core::real_t<T>)) + std::size_t(warps) * Region<T, LS>::bytes(n);
}

// Lane i - i0 of the warp gets q_i^H u_j for the columns i in
// [max(i0, ilo), min(i0 + 32, n)) (else 0), each summed in row order; the
// rows of those 32 columns of q pass through `stage` (32 x LS+1) in chunks
// of LS rows, loaded coalesced. Begins and ends with a warp sync.
template <int LS, class T, class MQ, class MU>
__device__ T dot_tile(int lane, int n, MQ q, int i0, int ilo, MU u, int j, T *stage) {
    constexpr int LD = LS + 1;
    const int i = i0 + lane;
    T acc = T(0);
    for (int r0 = 0; r0 < n; r0 += LS) {
        const int rows = min(LS, n - r0);
        __syncwarp();
        for (int idx = lane; idx < 32 * LS; idx += 32) {
            const int rr = idx % LS, c = idx / LS;
            if (rr < rows && i0 + c < n && i0 + c >= ilo) stage[c * LD + rr] = q(r0 + rr, i0 + c);
        }
        __syncwarp();
        if (i >= ilo && i < n)
            for (int rr = 0; rr < rows; ++rr) acc += core::conj(stage[lane * LD + rr]) * u(r0 + rr, j);
    }
    __syncwarp();
    return acc;
}

// off(Q^H U) = sqrt(2 sum_{i > j} |q_i^H u_j|^2), as core::jacobi::gram_off,
// with the block's warps over (column j, tile of 32 columns i) items.
template <int LS, class T, class MQ, class MU>
__device__ core::real_t<T> gram_off(const BlockTeam &tm, int n, MQ q, MU u, T *stage) {
    using R = core::real_t<T>;
    tm.sync();
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const int tiles = (n + 31) / 32;
    R s = R(0);
    for (int it = warp; it < n * tiles; it += warps) {
        const int j = it / tiles, i0 = (it % tiles) * 32;
        if (i0 + 31 <= j) continue;  // no i > j in the tile
        s += core::jacobi::abs2(dot_tile<LS>(lane, n, q, i0, j + 1, u, j, stage));
    }
    return core::rsqrt_(R(2) * tm.sum(s));
}

// One pair of column blocks s with warp wt: G = Q_S^H U_S, its rotation,
// U_S := U_S W, Q_S := Q_S W.
template <class T, int LS, class MQ, class MU>
__device__ void pair_step(const WarpTeam<32> &wt, int n, const BlockPair &s, MQ q, MU u, unsigned char *region,
                          core::real_t<T> inner_tol, index_t inner_max_sweeps) {
    using R = core::real_t<T>;
    using Rg = Region<T, LS>;
    constexpr int LD = Rg::LD;
    T *g = Rg::g(region), *w = Rg::w(region), *f = Rg::f(region);
    const int ls = int(s.size()), lane = wt.lane;
    // G: lane j sums column j over row chunks of Q_S (staged in w) and U_S (in f).
    T acc[LS];
#pragma unroll
    for (int i = 0; i < LS; ++i) acc[i] = T(0);
    for (int r0 = 0; r0 < n; r0 += LS) {
        const int rows = min(LS, n - r0);
        __syncwarp();
        for (int idx = lane; idx < LS * ls; idx += 32) {
            const int rr = idx % LS, c = idx / LS;
            if (rr < rows) {
                const index_t col = s.col(c);
                w[c * LD + rr] = q(r0 + rr, col);
                f[c * LD + rr] = u(r0 + rr, col);
            }
        }
        __syncwarp();
        if (lane < ls) {
            for (int rr = 0; rr < rows; ++rr) {
                const T x = f[lane * LD + rr];
#pragma unroll
                for (int i = 0; i < LS; ++i)
                    if (i < ls) acc[i] += core::conj(w[i * LD + rr]) * x;
            }
        }
    }
    __syncwarp();
    if (lane < ls) {
#pragma unroll
        for (int i = 0; i < LS; ++i)
            if (i < ls) g[lane * LD + i] = acc[i];
    }
    __syncwarp();
    const core::SharedView<T> G{g, LD}, W{w, LD}, F{f, LD};
    R *bz = Rg::b(region);
    if (!core::jacobi::pair_rotation(wt, ls, G, W, F, core::VecView<R>{bz, 1}, core::VecView<R>{bz + LS, 1},
                                     Rg::rot(region), inner_tol, inner_max_sweeps))
        return;
    // X_S := X_S G (G now holds the orthonormalized eigenvectors), row by
    // row in registers; entries of G that are zero are skipped, as the host.
    auto update = [&](auto x) {
        for (int r = lane; r < n; r += 32) {
            T row[LS];
#pragma unroll
            for (int k = 0; k < LS; ++k)
                if (k < ls) row[k] = x(r, s.col(k));
            for (int j = 0; j < ls; ++j) {
                T sum = T(0);
#pragma unroll
                for (int k = 0; k < LS; ++k) {
                    if (k < ls) {
                        const T gkj = g[j * LD + k];
                        if (!(gkj == T(0))) sum += row[k] * gkj;
                    }
                }
                x(r, s.col(j)) = sum;
            }
        }
    };
    update(u);
    update(q);
    __syncwarp();
}

// Matrix b0 + blockIdx.x of p; Q in its slice of qwork (n x n, ld n).
template <class T, int LS>
__global__ __launch_bounds__(kMaxWarps * 32) void syevj_block_kernel(SyevjProblem<T> p, core::JacobiOptions opt, int nb,
                                                           std::int64_t b0, T *qwork, unsigned region_bytes) {
    using R = core::real_t<T>;
    using core::jacobi::Loaded;
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    const auto wt = WarpTeam<32>::make();
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
    const int n = p.n;
    const std::int64_t b = b0 + blockIdx.x;
    const core::MatView<T> a{p.A + b * std::int64_t(p.lda) * n, p.lda, 1};
    const core::MatView<T> q{qwork + std::int64_t(blockIdx.x) * n * n, n, 1};
    const core::VecView<R> w{p.w + b * n, 1};
    R *wv = reinterpret_cast<R *>(smem);
    unsigned char *region = smem + round16(std::size_t(n) * sizeof(R)) + std::size_t(warp) * region_bytes;
    T *stage = Region<T, LS>::w(region);  // 32 x LS+1 entries: W and F of the region

    core::JacobiStats st;
    int info = 0, e = 0;
    const Loaded ld = core::jacobi::load_scaled(tm, p.lower, n, a, a, e);
    if (ld != Loaded::Ok) {
        info = core::jacobi::special_result(tm, ld, p.want_v, n, a, w, st);
    } else {
        const R normf = core::jacobi::fro_norm(tm, n, a);
        const R tol_abs = core::block_tol<R>(opt.tol, n) * normf;
        for (std::int64_t k = threadIdx.x; k < std::int64_t(n) * n; k += blockDim.x)
            q.p[k] = T(k % n == k / n ? 1 : 0);
        const index_t kb = core::jacobi::block_count(n, nb);
        const index_t mp = core::jacobi::players(kb);
        const R inner_tol = tol_abs / R(mp);
        core::jacobi::SolveResult<R> res;
        for (;;) {
            res.off = gram_off<LS>(tm, n, q, a, stage);
            if (res.off <= tol_abs || res.sweeps >= opt.max_sweeps) break;
            for (index_t step = 0; step < mp - 1; ++step) {
                for (index_t k = warp; k < mp / 2; k += warps) {
                    index_t bp, bq;
                    core::jacobi::round_robin_pair(mp, step, k, bp, bq);
                    if (bq >= kb) continue;  // the dummy block of odd K
                    pair_step<T, LS>(wt, n, core::jacobi::block_pair(n, nb, bp, bq), q, a, region, inner_tol,
                                     opt.inner_max_sweeps);
                }
                tm.sync();
            }
            ++res.sweeps;
        }
        const core::VecView<R> wvv{wv, 1};
        core::jacobi::block_eigenvalues(tm, n, q, a, wvv);
        for (index_t i = tm.first(0); i < n; i += tm.size())
            w[opt.sort ? core::jacobi::sorted_position(n, wvv, i) : i] = e != 0 ? core::rldexp(wv[i], e) : wv[i];
        if (p.want_v) {
            // F = -(Q^H Q - I) / 2 into A (both triangles, exact conjugates),
            // as the first half of core::jacobi::refine_orthonormal.
            const int tiles = (n + 31) / 32;
            for (int it = warp; it < n * tiles; it += warps) {
                const int j = it / tiles, i0 = (it % tiles) * 32;
                if (i0 + 31 < j) continue;
                T d = dot_tile<LS>(lane, n, q, i0, j, q, j, stage);
                const int i = i0 + lane;
                if (i >= j && i < n) {
                    if (i == j) d = T(core::real(d) - R(1));
                    a(i, j) = d * R(-0.5);
                    a(j, i) = core::conj(d) * R(-0.5);
                }
            }
            tm.sync();
            // Q := Q (I + F) row by row in place (the row in the warp's
            // region), each entry summed in k order as the host.
            T *row = reinterpret_cast<T *>(region);
            for (int r = warp; r < n; r += warps) {
                for (int k = lane; k < n; k += 32) row[k] = q(r, k);
                __syncwarp();
                for (int j = lane; j < n; j += 32) {
                    T sum = row[j];
                    for (int k = 0; k < n; ++k) {
                        const T fkj = core::conj(a(j, k));  // = F(k, j), read along a column
                        if (!(fkj == T(0))) sum += row[k] * fkj;
                    }
                    q(r, j) = sum;
                }
                __syncwarp();
            }
            tm.sync();
            for (int j = warp; j < n; j += warps) {
                const index_t to = opt.sort ? core::jacobi::sorted_position(n, wvv, j) : j;
                for (int r = lane; r < n; r += 32) a(r, to) = q(r, j);
            }
        }
        st.sweeps = int(res.sweeps);
        st.residual = double(res.off) / double(normf);
        info = res.off <= tol_abs ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
    }
    if (tm.leader()) {
        p.info[b] = info;
        if (p.sweeps) p.sweeps[b] = st.sweeps;
        if (p.residual) p.residual[b] = st.residual;
    }
}

// Columns per block of an order-n problem, and the region size LS it needs.
template <class T>
int block_width(int n) {
    return int(core::jacobi_block_width(n, plan::tuning::cuda_jacobi_block_nb(sizeof(T))));
}

// Warps per block: one per pair of a step (a power of two, at most kMaxWarps),
// fewer while the shared memory does not fit. 0: no block fits.
template <class T, int LS>
int block_warps(int n, int nb) {
    const int pairs = int(core::jacobi::players(core::jacobi::block_count(n, nb)) / 2);
    int warps = 1;
    while (warps < pairs && warps < kMaxWarps) warps *= 2;
    const std::size_t cap = std::size_t(shared_optin_bytes());
    while (warps >= 1 && block_bytes<T, LS>(n, warps) + kTeamScratchBytes > cap) warps /= 2;
    return warps;
}

// f(std::integral_constant<int, LS>{}) with the region size LS for blocks
// of nb columns: 16 when 2nb <= 16, else 32 (nb <= 16).
template <class F>
auto with_region(int nb, F &&f) {
    return 2 * nb <= 16 ? f(std::integral_constant<int, 16>{}) : f(std::integral_constant<int, 32>{});
}

template <class T, int LS>
batcheigStatus_t launch_block(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt, int nb,
                              void *work) {
    const int warps = block_warps<T, LS>(p.n, nb);
    if (warps == 0) return BATCHEIG_STATUS_NOT_SUPPORTED;
    const std::size_t bytes = block_bytes<T, LS>(p.n, warps);
    auto kernel = syevj_block_kernel<T, LS>;
    const batcheigStatus_t st = allow_shared(kernel, bytes);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        kernel<<<unsigned(count), warps * 32, bytes, s>>>(p, opt, nb, b0, static_cast<T *>(work),
                                                          unsigned(Region<T, LS>::bytes(p.n)));
    });
}

}  // namespace syevj_block_detail

// Whether the block variant can run order n on the current device.
template <class T>
bool syevj_block_fits(int n) {
    using namespace syevj_block_detail;
    const int nb = block_width<T>(n);
    return with_region(nb, [&](auto ls) { return block_warps<T, decltype(ls)::value>(n, nb) > 0; });
}

// Workspace: Q, n x n per matrix of a launch.
template <class T>
std::size_t syevj_block_workspace(int n, std::int64_t batch) {
    return sizeof(T) * std::size_t(n) * std::size_t(n) *
           std::size_t(std::min<std::int64_t>(batch, kLaunchMatrices));
}

template <class T>
batcheigStatus_t syevj_block(cudaStream_t s, const SyevjProblem<T> &p, core::JacobiOptions opt, void *work) {
    using namespace syevj_block_detail;
    const int nb = block_width<T>(p.n);
    opt.variant = core::JacobiVariant::Block;
    opt.nb = nb;
    return with_region(nb, [&](auto ls) { return launch_block<T, decltype(ls)::value>(s, p, opt, nb, work); });
}

}  // namespace batcheig::cuda
