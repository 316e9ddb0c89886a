// Dispatcher for syevjBatched / heevjBatched: picks the Jacobi variant of a
// call and its workspace size. Every variant can be forced through the params.
#pragma once

#include <cstddef>
#include <type_traits>

#include "batcheig.h"
#include "common/context.hpp"
#include "common/problem.hpp"
#include "core/jacobi_syevj.hpp"
#include "host/syevj_host.hpp"
#include "plan/tuning.hpp"
#if BATCHEIG_HAVE_CUDA
#include "cuda/syevj/syevj_cuda.hpp"
#endif

namespace batcheig::plan {

struct SyevjPlan {
    batcheigAlgorithm_t variant = BATCHEIG_ALG_AUTO;
    int nb = 0;  // block variant: columns per block
    // JACOBI_CUDA_MIXED: the single-precision stage's variant (that type's AUTO).
    batcheigAlgorithm_t inner = BATCHEIG_ALG_AUTO;
    std::size_t workspace_bytes = 0;
};

// Returns NOT_SUPPORTED when the forced variant does not exist on the
// handle's backend (or is not a Jacobi variant), when a shared-memory
// variant cannot hold the problem, or when the backend is not compiled in.
template <class T>
batcheigStatus_t plan_syevj(const Context &ctx, const SyevjProblem<T> &p, const Params &params,
                            SyevjPlan *plan) {
    switch (ctx.backend) {
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
        case BATCHEIG_BACKEND_CUDA:
#if BATCHEIG_HAVE_CUDA
        {
            batcheigAlgorithm_t v = params.algorithm;
            if (v == BATCHEIG_ALG_AUTO) {
                // By precision and n only, never by jobz (the fit is tested
                // with vectors) or batch: the eigenvalues do not change when
                // vectors are requested, and every matrix gets bitwise the
                // results of a single call.
                // TRIDIAG for the complex types from n = 33, double from 65,
                // float from 129, while it fits (tuning::cuda_jacobi_tri_auto:
                // 1.08-1.95x faster than LANE to n = 64, 1.3-12x faster than
                // LANE and GRID beyond). Else LANE up to n = 32: 1.35-5.3x
                // faster than WARP at batch 1000, every n measured with its
                // column-per-lane kernel; the pair kernel that replaced it
                // runs at 0.87-1.22x that kernel's speed (docs/performance.md); up to n = 64:
                // 1.0-3.0x faster than CLUSTER (SHARED in complex double;
                // tuning.hpp); and for 64 < n <= 128
                // (tuning::cuda_jacobi_lane_auto: 1.06-3.7x faster than
                // CLUSTER). Beyond n = 128 GRID (from n = 129, 145 in
                // float: tuning::cuda_jacobi_grid_auto_min_n); elsewhere CLUSTER
                // where it fits, before the shared-memory variants or after
                // them (tuning::cuda_jacobi_cluster_first). The device
                // queries only matter beyond n = 128.
                const bool big = !tuning::cuda_jacobi_lane_auto(p.n);  // not LANE
                const bool grid = big && p.n >= tuning::cuda_jacobi_grid_auto_min_n(sizeof(T)) &&
                                  cuda::syevj_grid_fits<T>(p.n);
                const bool first = tuning::cuda_jacobi_cluster_first(sizeof(T));
                const bool cluster_first = big && !grid && first && cuda::syevj_cluster_fits<T>(p.n);
                const bool fits = big && !grid && !cluster_first && cuda::syevj_fits_shared<T>(p.n, true);
                // The tridiagonal method (no sweeps) only where the call
                // leaves the sweep cap at its default.
                const bool single = sizeof(core::real_t<T>) == 4;
                const bool tri = p.max_sweeps == 0 && tuning::cuda_jacobi_tri_auto(core::is_complex<T>, single, p.n) &&
                                 cuda::syevj_tri_fits<T>(p.n);
                if (tri)
                    v = BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG;  // tuning::cuda_jacobi_tri_auto
                else if (!big)
                    v = BATCHEIG_ALG_JACOBI_CUDA_LANE;
                else if (grid)
                    v = BATCHEIG_ALG_JACOBI_CUDA_GRID;  // tuning::cuda_jacobi_grid_auto_min_n
                else if (cluster_first)
                    v = BATCHEIG_ALG_JACOBI_CUDA_CLUSTER;
                else if (p.n <= tuning::cuda_jacobi_warp_max_n(sizeof(T)) && fits)
                    v = BATCHEIG_ALG_JACOBI_CUDA_WARP;
                else if (fits)
                    v = BATCHEIG_ALG_JACOBI_CUDA_SHARED;
                else if (!first && cuda::syevj_cluster_fits<T>(p.n))
                    v = BATCHEIG_ALG_JACOBI_CUDA_CLUSTER;
                else if (cuda::syevj_block_fits<T>(p.n))
                    v = BATCHEIG_ALG_JACOBI_CUDA_BLOCK;  // beyond the shared variant: tuning::cuda_jacobi_block_nb
                else
                    v = BATCHEIG_ALG_JACOBI_CUDA_GLOBAL;
            }
            // A forced variant must exist on this backend and claim n (AUTO's
            // choice was tested above).
            const bool forced = params.algorithm != BATCHEIG_ALG_AUTO;
            if (v == BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG) {
                // Double and complex double only; its own first stage, whose
                // reduction keeps 14 n single-precision entries in shared
                // memory (n <= 2070 complex double, 4141 double on 227 KiB).
                if constexpr (!std::is_void_v<core::single_t<T>>) {
                    if (!cuda::syevj_mixed_tridiag_fits<T>(p.n)) return BATCHEIG_STATUS_NOT_SUPPORTED;
                    plan->variant = v;
                    plan->workspace_bytes = cuda::syevj_workspace_bytes<T>(v, p.n, p.want_v, p.lda, p.batch);
                    return BATCHEIG_STATUS_SUCCESS;
                } else {
                    return BATCHEIG_STATUS_NOT_SUPPORTED;
                }
            }
            if (v == BATCHEIG_ALG_JACOBI_CUDA_MIXED) {
                // Double and complex double only; the single-precision stage
                // runs what AUTO picks for that type, with vectors.
                if constexpr (!std::is_void_v<core::single_t<T>>) {
                    using F = core::single_t<T>;
                    SyevjProblem<F> pf;
                    pf.want_v = true;
                    // The first stage is a Jacobi (its sweeps are reported
                    // and capped): planned as a call that caps the sweeps,
                    // which AUTO never gives the tridiagonal variant.
                    pf.max_sweeps = 1;
                    pf.n = p.n;
                    pf.lda = p.n;
                    pf.batch = p.batch;
                    Params fp = params;
                    fp.algorithm = BATCHEIG_ALG_AUTO;
                    SyevjPlan fplan;
                    const batcheigStatus_t st = plan_syevj<F>(ctx, pf, fp, &fplan);
                    if (st != BATCHEIG_STATUS_SUCCESS) return st;
                    plan->variant = v;
                    plan->inner = fplan.variant;
                    plan->workspace_bytes =
                        cuda::syevj_workspace_bytes<T>(v, p.n, p.want_v, p.lda, p.batch, fplan.variant);
                    return BATCHEIG_STATUS_SUCCESS;
                } else {
                    return BATCHEIG_STATUS_NOT_SUPPORTED;
                }
            }
            switch (v) {
                case BATCHEIG_ALG_JACOBI_CUDA_GLOBAL: break;
                case BATCHEIG_ALG_JACOBI_CUDA_BLOCK:
                    if (forced && !cuda::syevj_block_fits<T>(p.n)) return BATCHEIG_STATUS_NOT_SUPPORTED;
                    break;
                case BATCHEIG_ALG_JACOBI_CUDA_LANE:
                    if (p.n > cuda::kSyevjLaneMaxN) return BATCHEIG_STATUS_NOT_SUPPORTED;
                    break;
                case BATCHEIG_ALG_JACOBI_CUDA_CLUSTER:
                    if (forced && !cuda::syevj_cluster_fits<T>(p.n)) return BATCHEIG_STATUS_NOT_SUPPORTED;
                    break;
                case BATCHEIG_ALG_JACOBI_CUDA_GRID:
                    if (!cuda::syevj_grid_fits<T>(p.n)) return BATCHEIG_STATUS_NOT_SUPPORTED;
                    break;
                case BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG:
                    if (!cuda::syevj_tri_fits<T>(p.n)) return BATCHEIG_STATUS_NOT_SUPPORTED;
                    break;
                case BATCHEIG_ALG_JACOBI_CUDA_WARP:
                case BATCHEIG_ALG_JACOBI_CUDA_SHARED:
                    if (forced && !cuda::syevj_fits_shared<T>(p.n, p.want_v)) return BATCHEIG_STATUS_NOT_SUPPORTED;
                    break;
                default: return BATCHEIG_STATUS_NOT_SUPPORTED;
            }
            plan->variant = v;
            plan->workspace_bytes = cuda::syevj_workspace_bytes<T>(v, p.n, p.want_v, p.lda, p.batch);
            return BATCHEIG_STATUS_SUCCESS;
        }
#else
            return BATCHEIG_STATUS_NOT_SUPPORTED;
#endif
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
#if BATCHEIG_HAVE_CUDA
        case BATCHEIG_ALG_JACOBI_CUDA_WARP:
        case BATCHEIG_ALG_JACOBI_CUDA_SHARED:
        case BATCHEIG_ALG_JACOBI_CUDA_GLOBAL:
        case BATCHEIG_ALG_JACOBI_CUDA_BLOCK:
        case BATCHEIG_ALG_JACOBI_CUDA_LANE:
        case BATCHEIG_ALG_JACOBI_CUDA_CLUSTER:
        case BATCHEIG_ALG_JACOBI_CUDA_GRID:
        case BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG:
        case BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG:
        case BATCHEIG_ALG_JACOBI_CUDA_MIXED: return cuda::syevj<T>(ctx, plan.variant, p, work, lwork, plan.inner);
#endif
        default: return BATCHEIG_STATUS_INTERNAL_ERROR;
    }
}

}  // namespace batcheig::plan
