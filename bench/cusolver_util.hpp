// Small cuSOLVER helpers for the anchors (geev_cusolver.cpp,
// syevj_cusolver.cpp): status names, errors that name the call and the
// status, and the cudaDataType of each precision. CUDA builds only.
#pragma once

#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <complex>
#include <stdexcept>
#include <string>

namespace bench::cusolver {

inline const char *status_name(cusolverStatus_t st) {
    switch (st) {
    case CUSOLVER_STATUS_SUCCESS: return "CUSOLVER_STATUS_SUCCESS";
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_MAPPING_ERROR: return "CUSOLVER_STATUS_MAPPING_ERROR";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    case CUSOLVER_STATUS_INVALID_WORKSPACE: return "CUSOLVER_STATUS_INVALID_WORKSPACE";
    default: return "cusolverStatus_t (other)";
    }
}

inline void check(cusolverStatus_t st, const char *what) {
    if (st != CUSOLVER_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed: " + status_name(st) + " (" + std::to_string((int)st) +
                                 ")");
}

template <class T> constexpr cudaDataType cuda_type();
template <> constexpr cudaDataType cuda_type<float>() { return CUDA_R_32F; }
template <> constexpr cudaDataType cuda_type<double>() { return CUDA_R_64F; }
template <> constexpr cudaDataType cuda_type<std::complex<float>>() { return CUDA_C_32F; }
template <> constexpr cudaDataType cuda_type<std::complex<double>>() { return CUDA_C_64F; }

}  // namespace bench::cusolver
