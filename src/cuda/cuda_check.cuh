// Error handling shared by the CUDA backend: every runtime call and launch
// is checked and mapped to a batcheig status (the library never prints).
#pragma once

#include <cuda_runtime.h>

#include "batcheig.h"

#define BATCHEIG_CUDA_TRY(call)                                 \
    do {                                                        \
        cudaError_t batcheig_err_ = (call);                     \
        if (batcheig_err_ != cudaSuccess) {                     \
            cudaGetLastError();                                 \
            return batcheig_err_ == cudaErrorMemoryAllocation   \
                       ? BATCHEIG_STATUS_ALLOC_FAILED           \
                       : BATCHEIG_STATUS_EXECUTION_FAILED;      \
        }                                                       \
    } while (0)

// After a kernel launch: report a launch failure (bad configuration, ...).
#define BATCHEIG_CUDA_CHECK_LAUNCH() BATCHEIG_CUDA_TRY(cudaGetLastError())
