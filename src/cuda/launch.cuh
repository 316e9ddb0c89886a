// Launch plumbing shared by the CUDA kernels of every routine: device
// limits, the opt-in for large dynamic shared memory, launch sizes and the
// alignment of device buffers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "batcheig.h"
#include "cuda/cuda_check.cuh"

namespace batcheig::cuda {

// Static shared memory of the block-team kernels (BlockTeam's reduction
// slots, cuda/team.cuh). It counts against the same per-block limit as a
// problem's dynamic shared memory, so a shared-memory variant claims order n
// while the problem's bytes plus these fit in shared_optin_bytes().
inline constexpr std::size_t kTeamScratchBytes = 32 * sizeof(unsigned long long);

// Shared memory the driver reserves per resident block (1 KB on sm_80/sm_90).
inline constexpr std::size_t kDriverSharedBytes = 1024;

// Matrices per launch (grid size limits and 32-bit block indices).
inline constexpr std::int64_t kLaunchMatrices = std::int64_t(1) << 24;

// An attribute of the current device (0 when it cannot be read).
inline int device_attribute(cudaDeviceAttr attr) {
    int dev = 0, value = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&value, attr, dev) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return value;
}

// Dynamic shared memory one block may opt in to.
inline int shared_optin_bytes() { return device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin); }

// Shared memory of one SM (all resident blocks together).
inline int shared_per_multiprocessor() { return device_attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor); }

inline int multiprocessors() {
    const int sms = device_attribute(cudaDevAttrMultiProcessorCount);
    return sms > 0 ? sms : 1;
}

// Let kernel k use `bytes` of dynamic shared memory (beyond 48 KB it must opt in).
template <class Kernel>
batcheigStatus_t allow_shared(Kernel k, std::size_t bytes) {
    if (bytes > 48 * 1024)
        BATCHEIG_CUDA_TRY(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bytes)));
    return BATCHEIG_STATUS_SUCCESS;
}

// Device buffers carved from one allocation start on 256-byte boundaries.
inline std::size_t align256(std::size_t b) { return (b + 255) / 256 * 256; }

}  // namespace batcheig::cuda
