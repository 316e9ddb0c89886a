// syevjBatched / heevjBatched on the CUDA backend: variant dispatch and
// host-array staging. Included once per precision by syevj_cuda_{s,d,c,z}.cu.
#pragma once

#include <algorithm>
#include <cstdint>

#include "cuda/cuda_check.cuh"
#include "cuda/device.hpp"
#include "cuda/launch.cuh"
#include "cuda/memory.hpp"
#include "cuda/syevj/syevj_cuda.hpp"
#include "cuda/syevj/syevj_kernels.cuh"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

template <class T>
std::size_t syevj_workspace_bytes(batcheigAlgorithm_t variant, int n, bool want_v, int lda, int batch) {
    if (variant != BATCHEIG_ALG_JACOBI_CUDA_GLOBAL) return 0;  // WARP, SHARED: everything in shared memory
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
batcheigStatus_t launch(cudaStream_t s, batcheigAlgorithm_t variant, const SyevjProblem<T> &p, void *work) {
    const core::JacobiOptions opt = options_of(p);
    switch (variant) {
        case BATCHEIG_ALG_JACOBI_CUDA_WARP: return syevj_warp<T>(s, p, opt);
        case BATCHEIG_ALG_JACOBI_CUDA_SHARED: return syevj_shared<T>(s, p, opt);
        case BATCHEIG_ALG_JACOBI_CUDA_GLOBAL: return syevj_global<T>(s, p, opt, work);
        default: return BATCHEIG_STATUS_INTERNAL_ERROR;
    }
}

// Host arrays: move the batch through device buffers, `chunk` matrices at a
// time, and wait for the results.
template <class T>
batcheigStatus_t staged(Context &ctx, batcheigAlgorithm_t variant, const SyevjProblem<T> &p) {
    using R = core::real_t<T>;
    const std::int64_t n = p.n;
    const std::int64_t chunk = std::min<std::int64_t>(p.batch, plan::tuning::cuda_staging_chunk);
    const std::size_t a_b = align256(sizeof(T) * p.lda * n * chunk);
    const std::size_t w_b = align256(sizeof(R) * n * chunk);
    const std::size_t info_b = align256(sizeof(int) * chunk);
    const std::size_t sw_b = p.sweeps ? align256(sizeof(int) * chunk) : 0;
    const std::size_t res_b = p.residual ? align256(sizeof(double) * chunk) : 0;
    const std::size_t ws_b = align256(syevj_workspace_bytes<T>(variant, p.n, p.want_v, p.lda, static_cast<int>(chunk)));
    char *base = static_cast<char *>(reserve_workspace(ctx, a_b + w_b + info_b + sw_b + res_b + ws_b));
    if (!base) return BATCHEIG_STATUS_ALLOC_FAILED;

    SyevjProblem<T> d = p;  // the same problem over device buffers
    char *q = base;
    d.A = reinterpret_cast<T *>(q); q += a_b;
    d.w = reinterpret_cast<R *>(q); q += w_b;
    d.info = reinterpret_cast<int *>(q); q += info_b;
    d.sweeps = p.sweeps ? reinterpret_cast<int *>(q) : nullptr; q += sw_b;
    d.residual = p.residual ? reinterpret_cast<double *>(q) : nullptr; q += res_b;
    void *work = q;

    cudaStream_t s = ctx.stream;
    for (std::int64_t b0 = 0; b0 < p.batch; b0 += chunk) {
        const std::int64_t B = std::min<std::int64_t>(chunk, p.batch - b0);
        d.batch = static_cast<int>(B);
        BATCHEIG_CUDA_TRY(cudaMemcpyAsync(d.A, p.A + b0 * p.lda * n, sizeof(T) * p.lda * n * B,
                                          cudaMemcpyHostToDevice, s));
        batcheigStatus_t st = launch<T>(s, variant, d, work);
        if (st != BATCHEIG_STATUS_SUCCESS) return st;
        BATCHEIG_CUDA_TRY(cudaMemcpyAsync(p.w + b0 * n, d.w, sizeof(R) * n * B, cudaMemcpyDeviceToHost, s));
        // Vectors: only the n x n part of each column block, so that rows
        // n..lda-1 of the caller's A stay untouched. Without vectors the
        // kernels do not write A, and the caller's A keeps its input.
        if (p.want_v)
            BATCHEIG_CUDA_TRY(cudaMemcpy2DAsync(p.A + b0 * p.lda * n, sizeof(T) * p.lda, d.A, sizeof(T) * p.lda,
                                                sizeof(T) * n, n * B, cudaMemcpyDeviceToHost, s));
        BATCHEIG_CUDA_TRY(cudaMemcpyAsync(p.info + b0, d.info, sizeof(int) * B, cudaMemcpyDeviceToHost, s));
        if (p.sweeps)
            BATCHEIG_CUDA_TRY(cudaMemcpyAsync(p.sweeps + b0, d.sweeps, sizeof(int) * B, cudaMemcpyDeviceToHost, s));
        if (p.residual)
            BATCHEIG_CUDA_TRY(
                cudaMemcpyAsync(p.residual + b0, d.residual, sizeof(double) * B, cudaMemcpyDeviceToHost, s));
        // The buffers are reused by the next chunk.
        BATCHEIG_CUDA_TRY(cudaStreamSynchronize(s));
    }
    return BATCHEIG_STATUS_SUCCESS;
}

}  // namespace syevj_host_detail

template <class T>
batcheigStatus_t syevj(Context &ctx, batcheigAlgorithm_t variant, const SyevjProblem<T> &p, void *work, std::size_t) {
    if (!is_device_pointer(p.A)) return syevj_host_detail::staged<T>(ctx, variant, p);
    return syevj_host_detail::launch<T>(ctx.stream, variant, p, work);
}

}  // namespace batcheig::cuda

#define BATCHEIG_INSTANTIATE_CUDA_SYEVJ(T)                                                                   \
    template std::size_t batcheig::cuda::syevj_workspace_bytes<T>(batcheigAlgorithm_t, int, bool, int, int); \
    template bool batcheig::cuda::syevj_fits_shared<T>(int, bool);                                          \
    template batcheigStatus_t batcheig::cuda::syevj<T>(batcheig::Context &, batcheigAlgorithm_t,            \
                                                       const batcheig::SyevjProblem<T> &, void *, std::size_t);
