// Jacobi kernels of syevjBatched / heevjBatched: a team of threads (cuda/team.cuh)
// per matrix runs core::jacobi::syevj_scalar in its parallel-step form:
//   syevj_warp_kernel    P lanes of a warp per matrix, shared memory;
//   syevj_shared_kernel  one block per matrix, shared memory;
//   syevj_global_kernel  one block per matrix, iterate and vectors in global
//                        memory (the workspace), every n.
// The vectors are accumulated in scratch and the refined, sorted vectors
// written straight to the caller's A.
#pragma once

#include <algorithm>
#include <cstdint>

#include "common/problem.hpp"
#include "core/jacobi_syevj.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/team.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

namespace syevj_detail {

using core::jacobi::Rotation;

// The rotation slots the tests' claims formula assumes.
template <class T>
constexpr std::size_t rotation_bytes() {
    using R = core::real_t<T>;
    return (12 + 4 * sizeof(R) + sizeof(T) + alignof(R) - 1) / alignof(R) * alignof(R);
}
static_assert(sizeof(Rotation<float>) == rotation_bytes<float>(), "rotation layout");
static_assert(sizeof(Rotation<double>) == rotation_bytes<double>(), "rotation layout");
static_assert(sizeof(Rotation<core::complex<float>>) == rotation_bytes<core::complex<float>>(), "rotation layout");
static_assert(sizeof(Rotation<core::complex<double>>) == rotation_bytes<core::complex<double>>(), "rotation layout");

// Layout of one problem's scratch (shared memory, or a workspace slice):
// the iterate (leading dimension n|1, odd so that a team walking a row hits
// distinct banks), the vectors when wanted (same leading dimension), the
// diagonal sums b, z (n reals each), the rotation slots (players(n)/2).
template <class T>
struct Layout {
    using R = core::real_t<T>;
    int n, ld;
    std::size_t mats_b, reals_b, rot_b;
    __host__ __device__ Layout(int n_, bool want_v) : n(n_), ld(n_ | 1) {
        mats_b = round16(std::size_t(want_v ? 2 : 1) * std::size_t(ld) * std::size_t(n) * sizeof(T));
        reals_b = round16(2 * std::size_t(n) * sizeof(R));
        rot_b = round16(std::size_t(core::jacobi::players(n) / 2) * sizeof(Rotation<T>));
    }
    __host__ __device__ std::size_t bytes() const { return mats_b + reals_b + rot_b; }
    __device__ T *it(unsigned char *base) const { return reinterpret_cast<T *>(base); }
    __device__ T *v(unsigned char *base) const { return reinterpret_cast<T *>(base) + std::size_t(ld) * n; }
    __device__ R *b(unsigned char *base) const { return reinterpret_cast<R *>(base + mats_b); }
    __device__ Rotation<T> *rot(unsigned char *base) const {
        return reinterpret_cast<Rotation<T> *>(base + mats_b + reals_b);
    }
};

// Solve matrix b of p with team tm, the scratch at base laid out as Layout;
// View is core::SharedView (shared memory) or core::MatView (global).
template <class View, class T, class Team>
__device__ void solve(const Team &tm, const SyevjProblem<T> &p, const core::JacobiOptions &opt, std::int64_t b,
                      unsigned char *base) {
    using R = core::real_t<T>;
    const Layout<T> L(p.n, p.want_v);
    const int n = p.n;
    const core::MatView<T> a{p.A + b * std::int64_t(p.lda) * n, p.lda, 1};
    const core::VecView<R> w{p.w + b * n, 1};
    const View it{L.it(base), L.ld};
    const View v{L.v(base), L.ld};
    R *rb = L.b(base);
    core::JacobiStats st;
    const int info = core::jacobi::syevj_scalar(tm, p.want_v, p.lower, n, a, w, it, v, it, a, /*copy_out=*/false,
                                                core::VecView<R>{rb, 1}, core::VecView<R>{rb + n, 1}, L.rot(base),
                                                /*parallel=*/true, opt, st);
    if (tm.leader()) {
        p.info[b] = info;
        if (p.sweeps) p.sweeps[b] = st.sweeps;
        if (p.residual) p.residual[b] = st.residual;
    }
}

// Global views with a 32-bit leading dimension argument (as SharedView).
template <class T>
struct GlobalView : core::MatView<T> {
    __device__ GlobalView(T *p, int ld) : core::MatView<T>{p, ld, 1} {}
};

// P lanes of a warp per matrix; blockDim.x / P matrices per block.
template <class T, int P>
__global__ __launch_bounds__(256) void syevj_warp_kernel(SyevjProblem<T> p, core::JacobiOptions opt, std::int64_t b0,
                                                         std::int64_t count, unsigned slice) {
    extern __shared__ __align__(16) unsigned char smem[];
    const auto tm = WarpTeam<P>::make();
    const int team = threadIdx.x / P;
    const std::int64_t k = std::int64_t(blockIdx.x) * (blockDim.x / P) + team;
    if (k >= count) return;  // whole teams leave together
    solve<core::SharedView<T>>(tm, p, opt, b0 + k, smem + std::size_t(team) * slice);
}

// One block per matrix, in shared memory.
template <class T>
__global__ __launch_bounds__(1024) void syevj_shared_kernel(SyevjProblem<T> p, core::JacobiOptions opt,
                                                           std::int64_t b0) {
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    solve<core::SharedView<T>>(tm, p, opt, b0 + blockIdx.x, smem);
}

// One block per matrix, its scratch a slice of the workspace.
template <class T>
__global__ __launch_bounds__(1024) void syevj_global_kernel(SyevjProblem<T> p, core::JacobiOptions opt,
                                                           std::int64_t b0, unsigned char *work, std::size_t slice) {
    __shared__ unsigned long long scratch[32];
    const BlockTeam tm{scratch};
    solve<GlobalView<T>>(tm, p, opt, b0 + blockIdx.x, work + std::size_t(blockIdx.x) * slice);
}

template <class T, int P>
batcheigStatus_t launch_warp(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    const std::size_t slice = Layout<T>(p.n, p.want_v).bytes();
    const std::size_t cap = std::size_t(shared_optin_bytes());
    if (slice + kTeamScratchBytes > cap) return BATCHEIG_STATUS_NOT_SUPPORTED;
    // Teams per block: the most resident per SM (e.g. 8 teams of 18 KB, n = 32,
    // double, vectors, would leave a third of an SM's 228 KB unused; 4 teams
    // per block fit three blocks), see teams_per_block().
    auto kernel = syevj_warp_kernel<T, P>;
    const int teams = teams_per_block(kernel, P, slice, p.batch, false);
    if (teams == 0) return BATCHEIG_STATUS_NOT_SUPPORTED;
    const std::size_t bytes = std::size_t(teams) * slice;
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        const unsigned blocks = unsigned((count + teams - 1) / teams);
        kernel<<<blocks, teams * P, bytes, s>>>(p, opt, b0, count, unsigned(slice));
    });
}

}  // namespace syevj_detail

template <class T>
bool syevj_fits_shared(int n, bool want_v) {
    return syevj_detail::Layout<T>(n, want_v).bytes() + kTeamScratchBytes <=
           std::size_t(shared_optin_bytes());
}

template <class T>
batcheigStatus_t syevj_warp(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    using namespace syevj_detail;
    switch (plan::tuning::cuda_jacobi_warp_lanes(p.n)) {
        case 4: return launch_warp<T, 4>(s, p, opt);
        case 8: return launch_warp<T, 8>(s, p, opt);
        case 16: return launch_warp<T, 16>(s, p, opt);
        default: return launch_warp<T, 32>(s, p, opt);
    }
}

template <class T>
batcheigStatus_t syevj_shared(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt) {
    using namespace syevj_detail;
    const std::size_t bytes = Layout<T>(p.n, p.want_v).bytes();
    if (bytes + kTeamScratchBytes > std::size_t(shared_optin_bytes())) return BATCHEIG_STATUS_NOT_SUPPORTED;
    auto kernel = syevj_shared_kernel<T>;
    batcheigStatus_t st = allow_shared(kernel, bytes);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    const int threads = plan::tuning::cuda_jacobi_block_threads(p.n);
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        kernel<<<unsigned(count), threads, bytes, s>>>(p, opt, b0);
    });
}

// GLOBAL: one workspace slice per matrix of a launch. A launch takes as many
// matrices as keep the workspace within the size of the caller's batch
// (at least one matrix, at most cuda_jacobi_global_chunk).
template <class T>
std::size_t syevj_global_slice(int n, bool want_v) {
    return align256(syevj_detail::Layout<T>(n, want_v).bytes());
}
template <class T>
std::int64_t syevj_global_matrices(int n, bool want_v, int lda, int batch) {
    const std::size_t input = sizeof(T) * std::size_t(lda) * std::size_t(n) * std::size_t(batch);
    const std::int64_t fit = std::int64_t(input / syevj_global_slice<T>(n, want_v));
    return std::max<std::int64_t>(1, std::min<std::int64_t>({fit, batch, plan::tuning::cuda_jacobi_global_chunk}));
}

template <class T>
batcheigStatus_t syevj_global(cudaStream_t s, const SyevjProblem<T> &p, const core::JacobiOptions &opt, void *work) {
    const std::size_t slice = syevj_global_slice<T>(p.n, p.want_v);
    const std::int64_t chunk = syevj_global_matrices<T>(p.n, p.want_v, p.lda, p.batch);
    const int threads = plan::tuning::cuda_jacobi_global_threads(p.n);
    for (std::int64_t b0 = 0; b0 < p.batch; b0 += chunk) {
        const std::int64_t count = std::min<std::int64_t>(chunk, p.batch - b0);
        syevj_detail::syevj_global_kernel<T>
            <<<unsigned(count), threads, 0, s>>>(p, opt, b0, static_cast<unsigned char *>(work), slice);
        BATCHEIG_CUDA_CHECK_LAUNCH();
    }
    return BATCHEIG_STATUS_SUCCESS;
}

}  // namespace batcheig::cuda
