// Dispatcher for syevjBatched / heevjBatched: picks the Jacobi variant of a
// call and its workspace size. Every variant can be forced through the params.
#pragma once

#include <cstddef>

#include "batcheig.h"
#include "common/context.hpp"
#include "common/problem.hpp"
#include "core/jacobi_syevj.hpp"
#include "host/syevj_host.hpp"
#include "plan/tuning.hpp"

namespace batcheig::plan {

struct SyevjPlan {
    batcheigAlgorithm_t variant = BATCHEIG_ALG_AUTO;
    int nb = 0;  // block variant: columns per block
    std::size_t workspace_bytes = 0;
};

// Returns NOT_SUPPORTED when the forced variant does not exist on the
// handle's backend (or is not a Jacobi variant), or when the backend has no
// syevj implementation.
template <class T>
batcheigStatus_t plan_syevj(const Context &ctx, const SyevjProblem<T> &p, const Params &params,
                            SyevjPlan *plan) {
    switch (ctx.backend) {
        // The CUDA backend has no Jacobi kernels yet: with host arrays its
        // calls run the host variants (the api layer refuses device arrays
        // with NOT_SUPPORTED), so an AUTO handle on a GPU machine still
        // solves host-resident batches.
        case BATCHEIG_BACKEND_CUDA:
        case BATCHEIG_BACKEND_HOST: {
            batcheigAlgorithm_t v = params.algorithm;
            if (v == BATCHEIG_ALG_AUTO)
                v = p.n >= tuning::host_jacobi_block_min_n ? BATCHEIG_ALG_JACOBI_HOST_BLOCK
                                                           : BATCHEIG_ALG_JACOBI_HOST_SCALAR;
            if (v != BATCHEIG_ALG_JACOBI_HOST_SCALAR && v != BATCHEIG_ALG_JACOBI_HOST_BLOCK)
                return BATCHEIG_STATUS_NOT_SUPPORTED;
            plan->variant = v;
            plan->nb = v == BATCHEIG_ALG_JACOBI_HOST_BLOCK
                           ? static_cast<int>(core::jacobi_block_width(p.n, tuning::host_jacobi_block_nb))
                           : 0;
            plan->workspace_bytes = host::syevj_workspace_bytes<T>(p.n, p.want_v, v == BATCHEIG_ALG_JACOBI_HOST_BLOCK,
                                                                   plan->nb, p.batch);
            return BATCHEIG_STATUS_SUCCESS;
        }
        default: return BATCHEIG_STATUS_INTERNAL_ERROR;
    }
}

template <class T>
batcheigStatus_t run_syevj(Context &ctx, const SyevjPlan &plan, const SyevjProblem<T> &p, void *work,
                           std::size_t lwork) {
    switch (plan.variant) {
        case BATCHEIG_ALG_JACOBI_HOST_SCALAR:
        case BATCHEIG_ALG_JACOBI_HOST_BLOCK:
            return host::syevj<T>(ctx, p, plan.variant == BATCHEIG_ALG_JACOBI_HOST_BLOCK, plan.nb, work, lwork);
        default: return BATCHEIG_STATUS_INTERNAL_ERROR;
    }
}

}  // namespace batcheig::plan
