// Params object: creation and the option setters/getters.
#include <new>

#include "api/api_common.hpp"

extern "C" {

batcheigStatus_t batcheigCreateParams(batcheigParams_t *params) {
    if (!params) return BATCHEIG_STATUS_INVALID_VALUE;
    *params = new (std::nothrow) batcheigParamsInfo{};
    return *params ? BATCHEIG_STATUS_SUCCESS : BATCHEIG_STATUS_ALLOC_FAILED;
}

batcheigStatus_t batcheigDestroyParams(batcheigParams_t params) {
    delete params;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsSetTolerance(batcheigParams_t params, double tol) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (tol != tol) return BATCHEIG_STATUS_INVALID_VALUE;  // NaN
    params->tolerance = tol > 0 ? tol : 0.0;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsGetTolerance(batcheigParams_t params, double *tol) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (!tol) return BATCHEIG_STATUS_INVALID_VALUE;
    *tol = params->tolerance;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsSetMaxIterations(batcheigParams_t params, int maxIterations) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (maxIterations < 0) return BATCHEIG_STATUS_INVALID_VALUE;
    params->max_iterations = maxIterations;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsGetMaxIterations(batcheigParams_t params, int *maxIterations) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (!maxIterations) return BATCHEIG_STATUS_INVALID_VALUE;
    *maxIterations = params->max_iterations;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsSetAlgorithm(batcheigParams_t params, batcheigAlgorithm_t algorithm) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    switch (batcheig::api::enum_arg(&algorithm)) {
        case BATCHEIG_ALG_AUTO:
        case BATCHEIG_ALG_GEEV_HOST_QR:
        case BATCHEIG_ALG_JACOBI_HOST_SCALAR:
        case BATCHEIG_ALG_JACOBI_HOST_BLOCK:
        case BATCHEIG_ALG_GEEV_CUDA_THREAD:
        case BATCHEIG_ALG_GEEV_CUDA_WARP:
        case BATCHEIG_ALG_GEEV_CUDA_BLOCK:
        case BATCHEIG_ALG_GEEV_CUDA_GLOBAL:
        case BATCHEIG_ALG_JACOBI_CUDA_WARP:
        case BATCHEIG_ALG_JACOBI_CUDA_SHARED:
        case BATCHEIG_ALG_JACOBI_CUDA_GLOBAL:
        case BATCHEIG_ALG_JACOBI_CUDA_BLOCK:
        case BATCHEIG_ALG_JACOBI_CUDA_LANE:
        case BATCHEIG_ALG_JACOBI_CUDA_CLUSTER:
        case BATCHEIG_ALG_JACOBI_CUDA_GRID:
        case BATCHEIG_ALG_JACOBI_CUDA_MIXED:
        case BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG:
        case BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG: break;
        default: return BATCHEIG_STATUS_INVALID_VALUE;
    }
    params->algorithm = algorithm;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsGetAlgorithm(batcheigParams_t params, batcheigAlgorithm_t *algorithm) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (!algorithm) return BATCHEIG_STATUS_INVALID_VALUE;
    *algorithm = params->algorithm;
    return BATCHEIG_STATUS_SUCCESS;
}

// ---- Host arrays on the CUDA backend ---------------------------------------

batcheigStatus_t batcheigParamsSetStreaming(batcheigParams_t params, int chunk, int streams) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (chunk < 0 || streams < 0 || streams > batcheig::kMaxStreams) return BATCHEIG_STATUS_INVALID_VALUE;
    params->stream_chunk = chunk;
    params->stream_count = streams;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsGetStreaming(batcheigParams_t params, int *chunk, int *streams) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (chunk) *chunk = params->stream_chunk;
    if (streams) *streams = params->stream_count;
    return BATCHEIG_STATUS_SUCCESS;
}

// ---- Jacobi (syevj/heevj) options ------------------------------------------

batcheigStatus_t batcheigParamsSetMaxSweeps(batcheigParams_t params, int maxSweeps) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (maxSweeps < 0) return BATCHEIG_STATUS_INVALID_VALUE;
    params->max_sweeps = maxSweeps;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsGetMaxSweeps(batcheigParams_t params, int *maxSweeps) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (!maxSweeps) return BATCHEIG_STATUS_INVALID_VALUE;
    *maxSweeps = params->max_sweeps;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsSetSortEigenvalues(batcheigParams_t params, int sort) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    params->sort = sort != 0;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsGetSortEigenvalues(batcheigParams_t params, int *sort) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (!sort) return BATCHEIG_STATUS_INVALID_VALUE;
    *sort = params->sort ? 1 : 0;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsSetJacobiOutputs(batcheigParams_t params, int *sweeps, double *residual) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    params->jacobi_sweeps = sweeps;
    params->jacobi_residual = residual;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigParamsGetJacobiOutputs(batcheigParams_t params, int **sweeps, double **residual) {
    if (!params) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (sweeps) *sweeps = params->jacobi_sweeps;
    if (residual) *residual = params->jacobi_residual;
    return BATCHEIG_STATUS_SUCCESS;
}

}  // extern "C"
