// syevjBatched / heevjBatched on the CUDA backend: variant dispatch, and
// host arrays through the streaming pipeline. Included once per precision by syevj_cuda_{s,d,c,z}.cu.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "cuda/cuda_check.cuh"
#include "cuda/device.hpp"
#include "cuda/launch.cuh"
#include "cuda/streaming.hpp"
#include "cuda/syevj/syevj_block.cuh"
#include "cuda/syevj/syevj_cluster.cuh"
#include "cuda/syevj/syevj_grid.cuh"
#include "cuda/syevj/syevj_cuda.hpp"
#include "cuda/syevj/syevj_kernels.cuh"
#include "cuda/syevj/syevj_mixed.cuh"
#include "cuda/syevj/syevj_pair.cuh"
#include "cuda/syevj/syevj_tri_global.cuh"
#include "cuda/syevj/syevj_tri_shared.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

// A call of variant `variant` (not MIXED) on device arrays, enqueued on s;
// explicitly instantiated per precision, so that MIXED's double types call
// the single-precision kernels of syevj_cuda_{s,c}.cu.
template <class T>
batcheigStatus_t syevj_device(cudaStream_t s, batcheigAlgorithm_t variant, const SyevjProblem<T> &p, void *work);

// MIXED's single-precision stage's workspace (with vectors, ld n).
template <class T>
std::size_t mixed_float_workspace(batcheigAlgorithm_t inner, int n, int batch) {
    return syevj_workspace_bytes<mixed_lower_t<T>>(inner, n, true, n, batch, inner);
}

template <class T>
std::size_t syevj_workspace_bytes(batcheigAlgorithm_t variant, int n, bool want_v, int lda, int batch,
                                  batcheigAlgorithm_t inner) {
    if (variant == BATCHEIG_ALG_JACOBI_CUDA_MIXED || variant == BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG) {
        if constexpr (kHasMixed<T>) {
            const std::size_t first = variant == BATCHEIG_ALG_JACOBI_CUDA_MIXED
                                          ? mixed_float_workspace<T>(inner, n, batch)
                                          : syevj_tridiag_workspace<mixed_lower_t<T>>(n, batch);
            return syevj_mixed_workspace<T>(n, batch, first);
        } else {
            return 0;
        }
    }
    if (variant == BATCHEIG_ALG_JACOBI_CUDA_BLOCK) return syevj_block_workspace<T>(n, batch);
    if (variant == BATCHEIG_ALG_JACOBI_CUDA_GRID) return syevj_grid_workspace<T>(n, batch);
    if (variant == BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG)  // n^2 per matrix beyond the shared-memory kernel
        return n > kSyevjTriMaxN ? syevj_tri_global_workspace<T>(n, batch) : 0;
    if (variant != BATCHEIG_ALG_JACOBI_CUDA_GLOBAL) return 0;  // WARP, SHARED, LANE, CLUSTER: registers and shared memory
    return syevj_global_slice<T>(n, want_v) * std::size_t(syevj_global_matrices<T>(n, want_v, lda, batch));
}

namespace syevj_host_detail {

template <class T>
core::JacobiOptions options_of(const SyevjProblem<T> &p) {
    core::JacobiOptions opt;
    opt.variant = core::JacobiVariant::Scalar;
    opt.tol = p.tolerance;
    if (p.max_sweeps > 0) opt.max_sweeps = p.max_sweeps;  // else the default, 100
    opt.sort = p.sort;
    return opt;
}

template <class T>
batcheigStatus_t launch(cudaStream_t s, batcheigAlgorithm_t variant, const SyevjProblem<T> &p, void *work,
                        batcheigAlgorithm_t inner) {
    const core::JacobiOptions opt = options_of(p);
    switch (variant) {
        case BATCHEIG_ALG_JACOBI_CUDA_MIXED:
            if constexpr (kHasMixed<T>) {
                using F = mixed_lower_t<T>;
                // The single-precision stage through its own instantiation
                // (syevj_cuda_s.cu / syevj_cuda_c.cu).
                const std::size_t fws = mixed_float_workspace<T>(inner, p.n, p.batch);
                const auto stage = [&](const MixedStage<T> &ms) {
                    return mixed_jacobi_stage(ms, [&](const SyevjProblem<F> &pf, void *fw) {
                        return syevj_device<F>(s, inner, pf, fw);
                    });
                };
                // The Jacobi stage's vectors never take the forced orthogonalizing step.
                return syevj_mixed<T>(s, p, fws, work, stage, std::numeric_limits<int>::max());
            } else {
                return BATCHEIG_STATUS_NOT_SUPPORTED;
            }
        case BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG:
            if constexpr (kHasMixed<T>) {
                using F = mixed_lower_t<T>;
                const std::size_t fws = syevj_tridiag_workspace<F>(p.n, p.batch);
                return syevj_mixed<T>(
                    s, p, fws, work, [](const MixedStage<T> &ms) { return mixed_tridiag_stage(ms); },
                    kMixedTridiagOrthFirstMinN);
            } else {
                return BATCHEIG_STATUS_NOT_SUPPORTED;
            }
        case BATCHEIG_ALG_JACOBI_CUDA_WARP: return syevj_warp<T>(s, p, opt);
        case BATCHEIG_ALG_JACOBI_CUDA_SHARED: return syevj_shared<T>(s, p, opt);
        case BATCHEIG_ALG_JACOBI_CUDA_GLOBAL: return syevj_global<T>(s, p, opt, work);
        case BATCHEIG_ALG_JACOBI_CUDA_BLOCK: return syevj_block<T>(s, p, opt, work);
        case BATCHEIG_ALG_JACOBI_CUDA_LANE: return syevj_lane<T>(s, p, opt);
        case BATCHEIG_ALG_JACOBI_CUDA_CLUSTER: return syevj_cluster<T>(s, p, opt);
        case BATCHEIG_ALG_JACOBI_CUDA_GRID: return syevj_grid<T>(s, p, opt, work);
        case BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG:
            return p.n <= kSyevjTriMaxN ? syevj_tri<T>(s, p) : syevj_tri_global<T>(s, p, work);
        default: return BATCHEIG_STATUS_INTERNAL_ERROR;
    }
}

// Host arrays: the streaming pipeline (cuda/streaming.hpp) runs the chunks
// through the same kernels as device arrays. With vectors, only the n x n
// part of each matrix goes back, so that rows n..lda-1 of the caller's A
// stay untouched; without vectors A is not copied back, so the caller's A
// keeps its input (the block kernel uses the staged copy as scratch).
template <class T>
class SyevjChunks final : public ChunkJob {
  public:
    SyevjChunks(batcheigAlgorithm_t variant, batcheigAlgorithm_t inner, const SyevjProblem<T> &p)
        : variant_(variant), inner_(inner), p_(p) {}

    // The arrays in the order run() receives them.
    int arrays(HostArray *a) const {
        using R = core::real_t<T>;
        const int n = p_.n;
        a[0] = HostArray::columns(p_.A, sizeof(T), n, p_.lda, true, p_.want_v);
        a[1] = HostArray::dense(p_.w, sizeof(R) * n, false, true);
        a[2] = HostArray::dense(p_.info, sizeof(int), false, true);
        a[3] = HostArray::dense(p_.sweeps, sizeof(int), false, true);
        a[4] = HostArray::dense(p_.residual, sizeof(double), false, true);
        return 5;
    }
    std::size_t workspace_bytes(int count) const override {
        return syevj_workspace_bytes<T>(variant_, p_.n, p_.want_v, p_.lda, count, inner_);
    }
    batcheigStatus_t run(cudaStream_t s, void *const *dev, int count, void *work) const override {
        using R = core::real_t<T>;
        SyevjProblem<T> d = p_;
        d.A = static_cast<T *>(dev[0]);
        d.w = static_cast<R *>(dev[1]);
        d.info = static_cast<int *>(dev[2]);
        d.sweeps = static_cast<int *>(dev[3]);
        d.residual = static_cast<double *>(dev[4]);
        d.batch = count;
        d.call_batch = p_.whole_batch();
        return launch<T>(s, variant_, d, work, inner_);
    }

  private:
    batcheigAlgorithm_t variant_, inner_;
    SyevjProblem<T> p_;
};

}  // namespace syevj_host_detail

template <class T>
batcheigStatus_t syevj_device(cudaStream_t s, batcheigAlgorithm_t variant, const SyevjProblem<T> &p, void *work) {
    return syevj_host_detail::launch<T>(s, variant, p, work, BATCHEIG_ALG_AUTO);
}

template <class T>
batcheigStatus_t syevj(Context &ctx, batcheigAlgorithm_t variant, const SyevjProblem<T> &p, void *work, std::size_t,
                       batcheigAlgorithm_t inner) {
    if (p.streaming.host_arrays) {
        const syevj_host_detail::SyevjChunks<T> job(variant, inner, p);
        HostArray arrays[kMaxHostArrays];
        const int count = job.arrays(arrays);
        return stream_batch(ctx, p.streaming, arrays, count, p.batch, job);
    }
    return syevj_host_detail::launch<T>(ctx.stream, variant, p, work, inner);
}

}  // namespace batcheig::cuda

#define BATCHEIG_INSTANTIATE_CUDA_SYEVJ(T)                                                                   \
    template std::size_t batcheig::cuda::syevj_workspace_bytes<T>(batcheigAlgorithm_t, int, bool, int, int,  \
                                                                   batcheigAlgorithm_t);                      \
    template batcheigStatus_t batcheig::cuda::syevj_device<T>(cudaStream_t, batcheigAlgorithm_t,              \
                                                              const batcheig::SyevjProblem<T> &, void *);     \
    template bool batcheig::cuda::syevj_fits_shared<T>(int, bool);                                          \
    template bool batcheig::cuda::syevj_block_fits<T>(int);                                                 \
    template bool batcheig::cuda::syevj_cluster_fits<T>(int);                                               \
    template bool batcheig::cuda::syevj_grid_fits<T>(int);                                                  \
    template bool batcheig::cuda::syevj_mixed_tridiag_fits<T>(int);                                         \
    template bool batcheig::cuda::syevj_tri_shared_fits<T>(int);                                            \
    template bool batcheig::cuda::syevj_tri_global_fits<T>(int);                                            \
    template batcheigStatus_t batcheig::cuda::syevj<T>(batcheig::Context &, batcheigAlgorithm_t,            \
                                                       const batcheig::SyevjProblem<T> &, void *, std::size_t, \
                                                       batcheigAlgorithm_t);
