// Team geev kernels: several threads cooperate on one matrix, running the
// core routines with a CUDA team (cuda/team.cuh):
//   BATCHEIG_ALG_GEEV_CUDA_WARP    p lanes of a warp per matrix (p from the
//                                  tuning table), matrix, Schur vectors and
//                                  scratch in shared memory;
//   BATCHEIG_ALG_GEEV_CUDA_BLOCK   one thread block per matrix, everything in
//                                  shared memory (medium n, up to what fits);
//   BATCHEIG_ALG_GEEV_CUDA_GLOBAL  one thread block per matrix working in
//                                  place in the caller's arrays in global
//                                  memory (any n).
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/problem.hpp"
#include "core/geev.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/team.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

namespace geev_team_detail {

// Leading dimension of a matrix in shared memory: odd, so that a team
// walking along a row (stride ld) hits distinct banks.
__host__ __device__ inline int shared_ld(int n) { return n | 1; }

// Shared-memory bytes of one matrix's problem: a, the vector matrices that
// are wanted, and the O(n) scratch; rounded to 16 bytes.
template <class T>
std::size_t shared_bytes(int n, bool want_vl, bool want_vr) {
    const std::size_t mats = 1 + (want_vl ? 1 : 0) + (want_vr ? 1 : 0);
    std::size_t b = mats * std::size_t(shared_ld(n)) * n * sizeof(T) +
                    core::GeevWork<T>::bytes(n, want_vl || want_vr);
    return round16(b);
}

// Solve matrix b of p with team tm, its data in shared memory at smem (the
// team's slice, shared_bytes<T>() long); copy the vectors out at the end.
// Vectors = false compiles the eigenvalue-only path alone (fewer registers);
// it is only used when neither VL nor VR is wanted.
template <bool Vectors, class T, class Team>
__device__ void solve_in_shared(const Team &tm, const GeevProblem<T> &p, std::int64_t b, unsigned char *smem) {
    using R = core::real_t<T>;
    using core::index_t;
    const int n = p.n, ld = shared_ld(n);
    const bool want_vl = Vectors && p.want_vl, want_vr = Vectors && p.want_vr;
    const bool want_v = want_vl || want_vr;
    T *sa = reinterpret_cast<T *>(smem);
    T *svl = sa + std::size_t(ld) * n;
    T *svr = want_vl ? svl + std::size_t(ld) * n : svl;
    T *sw = want_vr ? svr + std::size_t(ld) * n : svr;
    const T *A = p.A + b * std::int64_t(p.lda) * n;
    // (n*n fits in an int: the matrix fits in shared memory.)
    for (index_t e = tm.first(0); e < n * n; e += tm.size()) {
        const index_t i = e % n, j = e / n;
        sa[i + j * ld] = A[i + j * std::int64_t(p.lda)];
    }
    tm.sync();
    core::SharedView<T> a{sa, ld};
    core::SharedView<T> vl{want_vl ? svl : nullptr, ld};
    core::SharedView<T> vr{want_vr ? svr : nullptr, ld};
    core::VecView<T> w{p.w + b * n, 1};
    core::VecView<R> wi{p.wi ? p.wi + b * n : nullptr, 1};
    const core::GeevWork<T> ws = core::GeevWork<T>::carve(sw, n, want_v);
    const int info = core::geev<T>(tm, want_vl, want_vr, n, a, w, wi, vl, vr, ws, p.max_iterations);
    if (tm.leader()) p.info[b] = info;
    // geev ends with a sync: the vectors are complete.
    auto copy_out = [&](const T *s, T *g, int ldg) {
        for (index_t e = tm.first(0); e < n * n; e += tm.size()) {
            const index_t i = e % n, j = e / n;
            g[i + j * std::int64_t(ldg)] = s[i + j * ld];
        }
    };
    if (want_vl) copy_out(svl, p.VL + b * std::int64_t(p.ldvl) * n, p.ldvl);
    if (want_vr) copy_out(svr, p.VR + b * std::int64_t(p.ldvr) * n, p.ldvr);
}

// p lanes of a warp per matrix; blockDim.x / P matrices per block.
template <class T, int P, bool Vectors>
__global__ __launch_bounds__(256) void geev_warp_kernel(GeevProblem<T> p, std::int64_t b0, std::int64_t count,
                                                        unsigned slice) {
    extern __shared__ __align__(16) unsigned char smem[];
    const auto tm = WarpTeam<P>::make();
    const int team = threadIdx.x / P;
    const std::int64_t k = std::int64_t(blockIdx.x) * (blockDim.x / P) + team;
    if (k >= count) return;  // whole teams leave together
    solve_in_shared<Vectors>(tm, p, b0 + k, smem + std::size_t(team) * slice);
}

// One block per matrix, in shared memory.
template <class T>
__global__ __launch_bounds__(1024) void geev_block_kernel(GeevProblem<T> p, std::int64_t b0) {
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    solve_in_shared<true>(tm, p, b0 + blockIdx.x, smem);
}

// One block per matrix, in place in global memory: a is the caller's A,
// the vectors are accumulated in the caller's VL / VR, the O(n) scratch is
// this matrix's slice of the workspace.
template <class T>
__global__ __launch_bounds__(1024) void geev_global_kernel(GeevProblem<T> p, std::int64_t b0, unsigned char *work,
                                                          std::size_t slice) {
    using R = core::real_t<T>;
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    const std::int64_t b = b0 + blockIdx.x;
    const int n = p.n;
    core::MatView<T> a{p.A + b * std::int64_t(p.lda) * n, p.lda, 1};
    core::MatView<T> vl{p.want_vl ? p.VL + b * std::int64_t(p.ldvl) * n : nullptr, p.ldvl, 1};
    core::MatView<T> vr{p.want_vr ? p.VR + b * std::int64_t(p.ldvr) * n : nullptr, p.ldvr, 1};
    core::VecView<T> w{p.w + b * n, 1};
    core::VecView<R> wi{p.wi ? p.wi + b * n : nullptr, 1};
    const core::GeevWork<T> ws =
        core::GeevWork<T>::carve(work + std::size_t(blockIdx.x) * slice, n, p.want_vl || p.want_vr);
    const int info = core::geev<T>(tm, p.want_vl, p.want_vr, n, a, w, wi, vl, vr, ws, p.max_iterations);
    if (tm.leader()) p.info[b] = info;
}

template <class T, int P>
batcheigStatus_t launch_warp(cudaStream_t s, const GeevProblem<T> &p) {
    const std::size_t slice = shared_bytes<T>(p.n, p.want_vl, p.want_vr);
    if (slice + kTeamScratchBytes > std::size_t(shared_optin_bytes())) return BATCHEIG_STATUS_NOT_SUPPORTED;
    auto kernel = (p.want_vl || p.want_vr) ? geev_warp_kernel<T, P, true> : geev_warp_kernel<T, P, false>;
    // Teams per block: the most resident per SM (a block of 32 teams of
    // 3.7 KB, n = 20 with 8 lanes, fits once in an SM's 228 KB; blocks of
    // 8 teams fit seven times), see teams_per_block().
    const int teams = teams_per_block(kernel, P, slice, p.batch);
    if (teams == 0) return BATCHEIG_STATUS_NOT_SUPPORTED;
    const std::size_t bytes = std::size_t(teams) * slice;
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        const unsigned blocks = unsigned((count + teams - 1) / teams);
        kernel<<<blocks, teams * P, bytes, s>>>(p, b0, count, unsigned(slice));
    });
}

}  // namespace geev_team_detail

// Lanes per matrix of the warp variant.
inline int geev_warp_lanes(int n) { return plan::tuning::cuda_geev_warp_lanes(n); }

// Threads per block of the block and global variants.
inline int geev_block_threads(int n) { return plan::tuning::cuda_geev_block_threads(n); }

// True when one matrix's problem fits in the shared memory of one block.
template <class T>
bool geev_fits_shared(int n, bool want_vl, bool want_vr) {
    return geev_team_detail::shared_bytes<T>(n, want_vl, want_vr) + kTeamScratchBytes <=
           std::size_t(shared_optin_bytes());
}

template <class T>
batcheigStatus_t geev_warp(cudaStream_t s, const GeevProblem<T> &p) {
    using namespace geev_team_detail;
    switch (geev_warp_lanes(p.n)) {
        case 4:
        case 8: return launch_warp<T, 8>(s, p);
        case 16: return launch_warp<T, 16>(s, p);
        default: return launch_warp<T, 32>(s, p);
    }
}

template <class T>
batcheigStatus_t geev_block(cudaStream_t s, const GeevProblem<T> &p) {
    using namespace geev_team_detail;
    const std::size_t bytes = shared_bytes<T>(p.n, p.want_vl, p.want_vr);
    if (bytes + kTeamScratchBytes > std::size_t(shared_optin_bytes())) return BATCHEIG_STATUS_NOT_SUPPORTED;
    auto kernel = geev_block_kernel<T>;
    batcheigStatus_t st = allow_shared(kernel, bytes);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    const int threads = geev_block_threads(p.n);
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        kernel<<<unsigned(count), threads, bytes, s>>>(p, b0);
    });
}

// Workspace of the global variant: the O(n) scratch of every matrix of one
// launch.
template <class T>
std::size_t geev_global_workspace_bytes(int n, bool want_vl, bool want_vr, int batch) {
    const std::size_t slice = align256(core::GeevWork<T>::bytes(n, want_vl || want_vr));
    return slice * std::size_t(std::min<std::int64_t>(batch, plan::tuning::cuda_geev_global_chunk));
}

template <class T>
batcheigStatus_t geev_global(cudaStream_t s, const GeevProblem<T> &p, void *work) {
    using namespace geev_team_detail;
    const std::size_t slice = align256(core::GeevWork<T>::bytes(p.n, p.want_vl || p.want_vr));
    const int threads = geev_block_threads(p.n);
    const std::int64_t chunk = plan::tuning::cuda_geev_global_chunk;
    for (std::int64_t b0 = 0; b0 < p.batch; b0 += chunk) {
        const std::int64_t count = std::min<std::int64_t>(chunk, p.batch - b0);
        geev_global_kernel<T><<<unsigned(count), threads, 0, s>>>(p, b0, static_cast<unsigned char *>(work), slice);
        BATCHEIG_CUDA_CHECK_LAUNCH();
    }
    return BATCHEIG_STATUS_SUCCESS;
}

}  // namespace batcheig::cuda
