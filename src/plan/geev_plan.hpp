// Dispatcher for geevBatched: picks the kernel variant of a call and its
// workspace size. Every variant can be forced through the params.
#pragma once

#include <cstddef>

#include "batcheig.h"
#include "common/context.hpp"
#include "common/problem.hpp"
#include "core/types.hpp"
#include "host/geev_host.hpp"
#include "plan/tuning.hpp"
#if BATCHEIG_HAVE_CUDA
#include "cuda/geev/geev_cuda.hpp"
#endif

namespace batcheig::plan {

struct GeevPlan {
    batcheigAlgorithm_t variant = BATCHEIG_ALG_AUTO;
    std::size_t workspace_bytes = 0;
};

// Returns NOT_SUPPORTED when the forced variant does not exist on the
// handle's backend, or when the backend has no geev implementation.
template <class T>
batcheigStatus_t plan_geev(const Context &ctx, const GeevProblem<T> &p, const Params &params,
                           GeevPlan *plan) {
    const bool want_v = p.want_vl || p.want_vr;
    switch (ctx.backend) {
        case BATCHEIG_BACKEND_HOST:
            if (params.algorithm != BATCHEIG_ALG_AUTO && params.algorithm != BATCHEIG_ALG_GEEV_HOST_QR)
                return BATCHEIG_STATUS_NOT_SUPPORTED;
            plan->variant = BATCHEIG_ALG_GEEV_HOST_QR;
            plan->workspace_bytes = host::geev_workspace_bytes<T>(p.n, want_v, p.batch);
            return BATCHEIG_STATUS_SUCCESS;
        case BATCHEIG_BACKEND_CUDA:
#if BATCHEIG_HAVE_CUDA
        {
            batcheigAlgorithm_t v = params.algorithm;
            if (v == BATCHEIG_ALG_AUTO) {
                // Thresholds measured with the benchmark (plan/tuning.hpp).
                // The choice depends on (precision, n) only, never on the
                // jobs: the eigenvalues must not change when vectors are
                // requested (as LAPACK), and each variant rounds differently.
                const bool fits = cuda::geev_fits_shared<T>(p.n, true, true);
                if (p.n <= tuning::cuda_geev_thread_max_n(core::is_complex<T>, sizeof(core::real_t<T>)))
                    v = BATCHEIG_ALG_GEEV_CUDA_THREAD;
                else if (p.n <= tuning::cuda_geev_warp_max_n(core::is_complex<T>, sizeof(core::real_t<T>)) && fits)
                    v = BATCHEIG_ALG_GEEV_CUDA_WARP;
                else if (p.n <= tuning::cuda_geev_block_max_n(core::is_complex<T>, sizeof(core::real_t<T>)) &&
                         fits)
                    v = BATCHEIG_ALG_GEEV_CUDA_BLOCK;
                else
                    v = BATCHEIG_ALG_GEEV_CUDA_GLOBAL;
            }
            switch (v) {
                case BATCHEIG_ALG_GEEV_CUDA_THREAD:
                case BATCHEIG_ALG_GEEV_CUDA_GLOBAL: break;
                case BATCHEIG_ALG_GEEV_CUDA_WARP:
                case BATCHEIG_ALG_GEEV_CUDA_BLOCK:
                    // The matrix, its vectors and scratch must fit in one block's shared memory.
                    if (!cuda::geev_fits_shared<T>(p.n, p.want_vl, p.want_vr)) return BATCHEIG_STATUS_NOT_SUPPORTED;
                    break;
                default: return BATCHEIG_STATUS_NOT_SUPPORTED;
            }
            plan->variant = v;
            plan->workspace_bytes = cuda::geev_workspace_bytes<T>(plan->variant, p.n, p.want_vl, p.want_vr, p.batch);
            return BATCHEIG_STATUS_SUCCESS;
        }
#else
            return BATCHEIG_STATUS_NOT_SUPPORTED;
#endif
        default: return BATCHEIG_STATUS_INTERNAL_ERROR;
    }
}

template <class T>
batcheigStatus_t run_geev(Context &ctx, const GeevPlan &plan, const GeevProblem<T> &p, void *work,
                          std::size_t lwork) {
    switch (plan.variant) {
        case BATCHEIG_ALG_GEEV_HOST_QR: return host::geev<T>(ctx, p, work, lwork);
#if BATCHEIG_HAVE_CUDA
        case BATCHEIG_ALG_GEEV_CUDA_THREAD:
        case BATCHEIG_ALG_GEEV_CUDA_WARP:
        case BATCHEIG_ALG_GEEV_CUDA_BLOCK:
        case BATCHEIG_ALG_GEEV_CUDA_GLOBAL: return cuda::geev<T>(ctx, plan.variant, p, work, lwork);
#endif
        default: return BATCHEIG_STATUS_INTERNAL_ERROR;
    }
}

}  // namespace batcheig::plan
