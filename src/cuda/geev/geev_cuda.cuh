// geevBatched on the CUDA backend: variant dispatch and host-array staging.
// Included once per precision by geev_cuda_{s,d,c,z}.cu.
#pragma once

#include <algorithm>
#include <cstdint>

#include "cuda/cuda_check.cuh"
#include "cuda/device.hpp"
#include "cuda/launch.cuh"
#include "cuda/geev/geev_cuda.hpp"
#include "cuda/geev/geev_team.cuh"
#include "cuda/geev/geev_thread.cuh"
#include "cuda/memory.hpp"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

template <class T>
std::size_t geev_workspace_bytes(batcheigAlgorithm_t variant, int n, bool want_vl, bool want_vr, int batch) {
    switch (variant) {
        case BATCHEIG_ALG_GEEV_CUDA_THREAD: return geev_thread_workspace_bytes<T>(n, want_vl, want_vr, batch);
        case BATCHEIG_ALG_GEEV_CUDA_GLOBAL: return geev_global_workspace_bytes<T>(n, want_vl, want_vr, batch);
        default: return 0;  // WARP, BLOCK: everything in shared memory
    }
}

namespace geev_detail {

template <class T>
batcheigStatus_t launch(cudaStream_t s, batcheigAlgorithm_t variant, const GeevProblem<T> &p, void *work) {
    switch (variant) {
        case BATCHEIG_ALG_GEEV_CUDA_THREAD: return geev_thread<T>(s, p, work);
        case BATCHEIG_ALG_GEEV_CUDA_WARP: return geev_warp<T>(s, p);
        case BATCHEIG_ALG_GEEV_CUDA_BLOCK: return geev_block<T>(s, p);
        case BATCHEIG_ALG_GEEV_CUDA_GLOBAL: return geev_global<T>(s, p, work);
        default: return BATCHEIG_STATUS_INTERNAL_ERROR;
    }
}

// Host arrays: move the batch through device buffers, `chunk` matrices at a
// time, and wait for the results. (The streaming pipeline that overlaps
// transfers with computation replaces this loop for large batches.)
template <class T>
batcheigStatus_t staged(Context &ctx, batcheigAlgorithm_t variant, const GeevProblem<T> &p) {
    using R = core::real_t<T>;
    const std::int64_t n = p.n;
    const std::int64_t chunk = std::min<std::int64_t>(p.batch, plan::tuning::cuda_staging_chunk);
    const std::size_t a_b = align256(sizeof(T) * p.lda * n * chunk);
    const std::size_t w_b = align256(sizeof(T) * n * chunk);
    const std::size_t wi_b = p.wi ? align256(sizeof(R) * n * chunk) : 0;
    const std::size_t vl_b = p.want_vl ? align256(sizeof(T) * p.ldvl * n * chunk) : 0;
    const std::size_t vr_b = p.want_vr ? align256(sizeof(T) * p.ldvr * n * chunk) : 0;
    const std::size_t info_b = align256(sizeof(int) * chunk);
    const std::size_t ws_b = align256(geev_workspace_bytes<T>(variant, p.n, p.want_vl, p.want_vr, static_cast<int>(chunk)));
    const std::size_t total = a_b + w_b + wi_b + vl_b + vr_b + info_b + ws_b;
    char *base = static_cast<char *>(reserve_workspace(ctx, total));
    if (!base) return BATCHEIG_STATUS_ALLOC_FAILED;

    GeevProblem<T> d = p;  // the same problem over device buffers
    char *q = base;
    d.A = reinterpret_cast<T *>(q); q += a_b;
    d.w = reinterpret_cast<T *>(q); q += w_b;
    d.wi = p.wi ? reinterpret_cast<R *>(q) : nullptr; q += wi_b;
    d.VL = p.want_vl ? reinterpret_cast<T *>(q) : nullptr; q += vl_b;
    d.VR = p.want_vr ? reinterpret_cast<T *>(q) : nullptr; q += vr_b;
    d.info = reinterpret_cast<int *>(q); q += info_b;
    void *work = q;

    cudaStream_t s = ctx.stream;
    for (std::int64_t b0 = 0; b0 < p.batch; b0 += chunk) {
        const std::int64_t B = std::min<std::int64_t>(chunk, p.batch - b0);
        d.batch = static_cast<int>(B);
        BATCHEIG_CUDA_TRY(cudaMemcpyAsync(d.A, p.A + b0 * p.lda * n, sizeof(T) * p.lda * n * B,
                                          cudaMemcpyHostToDevice, s));
        batcheigStatus_t st = launch<T>(s, variant, d, work);
        if (st != BATCHEIG_STATUS_SUCCESS) return st;
        BATCHEIG_CUDA_TRY(cudaMemcpyAsync(p.w + b0 * n, d.w, sizeof(T) * n * B, cudaMemcpyDeviceToHost, s));
        if (p.wi)
            BATCHEIG_CUDA_TRY(cudaMemcpyAsync(p.wi + b0 * n, d.wi, sizeof(R) * n * B, cudaMemcpyDeviceToHost, s));
        // Vectors: only the n x n part of each column block, so that rows
        // n..ld-1 of the caller's arrays stay untouched.
        if (p.want_vl)
            BATCHEIG_CUDA_TRY(cudaMemcpy2DAsync(p.VL + b0 * p.ldvl * n, sizeof(T) * p.ldvl, d.VL,
                                                sizeof(T) * p.ldvl, sizeof(T) * n, n * B,
                                                cudaMemcpyDeviceToHost, s));
        if (p.want_vr)
            BATCHEIG_CUDA_TRY(cudaMemcpy2DAsync(p.VR + b0 * p.ldvr * n, sizeof(T) * p.ldvr, d.VR,
                                                sizeof(T) * p.ldvr, sizeof(T) * n, n * B,
                                                cudaMemcpyDeviceToHost, s));
        BATCHEIG_CUDA_TRY(cudaMemcpyAsync(p.info + b0, d.info, sizeof(int) * B, cudaMemcpyDeviceToHost, s));
        // The buffers are reused by the next chunk.
        BATCHEIG_CUDA_TRY(cudaStreamSynchronize(s));
    }
    return BATCHEIG_STATUS_SUCCESS;
}

}  // namespace geev_detail

template <class T>
batcheigStatus_t geev(Context &ctx, batcheigAlgorithm_t variant, const GeevProblem<T> &p, void *work,
                      std::size_t) {
    if (!is_device_pointer(p.A)) return geev_detail::staged<T>(ctx, variant, p);
    return geev_detail::launch<T>(ctx.stream, variant, p, work);
}

}  // namespace batcheig::cuda

#define BATCHEIG_INSTANTIATE_CUDA_GEEV(T)                                                                  \
    template std::size_t batcheig::cuda::geev_workspace_bytes<T>(batcheigAlgorithm_t, int, bool, bool, int); \
    template bool batcheig::cuda::geev_fits_shared<T>(int, bool, bool);                                      \
    template batcheigStatus_t batcheig::cuda::geev<T>(batcheig::Context &, batcheigAlgorithm_t,             \
                                                      const batcheig::GeevProblem<T> &, void *, std::size_t);
