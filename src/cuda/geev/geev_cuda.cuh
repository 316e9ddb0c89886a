// geevBatched on the CUDA backend: variant dispatch, and host arrays through
// the streaming pipeline.
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
#include "cuda/streaming.hpp"
#include "plan/tuning.hpp"

namespace batcheig::cuda {

template <class T>
std::size_t geev_workspace_bytes(batcheigAlgorithm_t variant, int n, bool want_vl, bool want_vr, int batch) {
    switch (variant) {
        case BATCHEIG_ALG_GEEV_CUDA_THREAD: return geev_thread_workspace_bytes<T>(n, want_vl, want_vr, batch);
        case BATCHEIG_ALG_GEEV_CUDA_WARP: return geev_split_workspace_bytes<T>(true, n, want_vl, want_vr, batch);
        case BATCHEIG_ALG_GEEV_CUDA_BLOCK: return geev_split_workspace_bytes<T>(false, n, want_vl, want_vr, batch);
        case BATCHEIG_ALG_GEEV_CUDA_GLOBAL: return geev_global_workspace_bytes<T>(n, want_vl, want_vr, batch);
        default: return 0;
    }
}

namespace geev_detail {

template <class T>
batcheigStatus_t launch(cudaStream_t s, batcheigAlgorithm_t variant, const GeevProblem<T> &p, void *work) {
    switch (variant) {
        case BATCHEIG_ALG_GEEV_CUDA_THREAD: return geev_thread<T>(s, p, work);
        case BATCHEIG_ALG_GEEV_CUDA_WARP: return geev_warp<T>(s, p, work);
        case BATCHEIG_ALG_GEEV_CUDA_BLOCK: return geev_block<T>(s, p, work);
        case BATCHEIG_ALG_GEEV_CUDA_GLOBAL: return geev_global<T>(s, p, work);
        default: return BATCHEIG_STATUS_INTERNAL_ERROR;
    }
}

// Host arrays: the streaming pipeline (cuda/streaming.hpp) runs the chunks
// through the same kernels as device arrays. A is input only: its contents
// are unspecified on exit, and the caller's copy is left as it was.
template <class T>
class GeevChunks final : public ChunkJob {
  public:
    GeevChunks(batcheigAlgorithm_t variant, const GeevProblem<T> &p) : variant_(variant), p_(p) {}

    // The arrays in the order run() receives them.
    int arrays(HostArray *a) const {
        using R = core::real_t<T>;
        const int n = p_.n;
        a[0] = HostArray::dense(p_.A, sizeof(T) * std::size_t(p_.lda) * n, true, false);
        a[1] = HostArray::dense(p_.w, sizeof(T) * n, false, true);
        a[2] = HostArray::dense(p_.wi, sizeof(R) * n, false, true);  // real types only
        a[3] = HostArray::columns(p_.want_vl ? p_.VL : nullptr, sizeof(T), n, p_.ldvl, false, true);
        a[4] = HostArray::columns(p_.want_vr ? p_.VR : nullptr, sizeof(T), n, p_.ldvr, false, true);
        a[5] = HostArray::dense(p_.info, sizeof(int), false, true);
        return 6;
    }
    std::size_t workspace_bytes(int count) const override {
        return geev_workspace_bytes<T>(variant_, p_.n, p_.want_vl, p_.want_vr, count);
    }
    batcheigStatus_t run(cudaStream_t s, void *const *dev, int count, void *work) const override {
        using R = core::real_t<T>;
        GeevProblem<T> d = p_;
        d.A = static_cast<T *>(dev[0]);
        d.w = static_cast<T *>(dev[1]);
        d.wi = static_cast<R *>(dev[2]);
        d.VL = static_cast<T *>(dev[3]);
        d.VR = static_cast<T *>(dev[4]);
        d.info = static_cast<int *>(dev[5]);
        d.batch = count;
        return launch<T>(s, variant_, d, work);
    }

  private:
    batcheigAlgorithm_t variant_;
    GeevProblem<T> p_;
};

}  // namespace geev_detail

template <class T>
batcheigStatus_t geev(Context &ctx, batcheigAlgorithm_t variant, const GeevProblem<T> &p, void *work,
                      std::size_t) {
    if (p.streaming.host_arrays) {
        const geev_detail::GeevChunks<T> job(variant, p);
        HostArray arrays[kMaxHostArrays];
        const int count = job.arrays(arrays);
        return stream_batch(ctx, p.streaming, arrays, count, p.batch, job);
    }
    return geev_detail::launch<T>(ctx.stream, variant, p, work);
}

}  // namespace batcheig::cuda

#define BATCHEIG_INSTANTIATE_CUDA_GEEV(T)                                                                  \
    template std::size_t batcheig::cuda::geev_workspace_bytes<T>(batcheigAlgorithm_t, int, bool, bool, int); \
    template bool batcheig::cuda::geev_fits_shared<T>(int, bool, bool);                                      \
    template batcheigStatus_t batcheig::cuda::geev<T>(batcheig::Context &, batcheigAlgorithm_t,             \
                                                      const batcheig::GeevProblem<T> &, void *, std::size_t);
