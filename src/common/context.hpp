// Internal state behind the opaque public handle and params objects.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <vector>

#include "batcheig.h"

namespace batcheig {

// Workspace the handle owns when a call passes work == NULL. It grows on
// demand and is reused by later calls, so steady-state calls allocate nothing.
struct HostWorkspace {
    void *ptr = nullptr;
    std::size_t bytes = 0;
    // Returns nullptr when the allocation fails.
    void *reserve(std::size_t want) {
        if (want <= bytes) return ptr;
        std::free(ptr);
        ptr = nullptr;
        bytes = 0;
        // 64-byte alignment keeps per-thread slices on separate cache lines.
        std::size_t rounded = (want + 63) / 64 * 64;
        ptr = std::aligned_alloc(64, rounded);
        if (ptr) bytes = rounded;
        return ptr;
    }
    ~HostWorkspace() { std::free(ptr); }
};

}  // namespace batcheig

struct batcheigContext {
    batcheigBackend_t backend = BATCHEIG_BACKEND_HOST;
    batcheigStream_t stream = nullptr;
    int error_argument = 0;  // position of the argument behind the last INVALID_VALUE
    batcheig::HostWorkspace host_ws;
    // CUDA backend: the device the handle was created on and the device
    // workspace it caches for calls with work == NULL (src/cuda/device.cu).
    int device = 0;
    void *device_ws = nullptr;
    std::size_t device_ws_bytes = 0;
    // Calls with host arrays (batcheigSetDevices): the GPUs that share the
    // chunks; empty means the calling thread's current device. Their
    // streams and staging buffers are created on first use and kept
    // (cuda::Streaming, src/cuda/streaming.cpp).
    std::vector<int> devices;
    void *streaming = nullptr;
    ~batcheigContext();
};

struct batcheigParamsInfo {
    double tolerance = 0.0;  // 0: routine default
    int max_iterations = 0;  // 0: routine default (geev QR: 30*max(10,n))
    batcheigAlgorithm_t algorithm = BATCHEIG_ALG_AUTO;
    // Jacobi (syevj/heevj) options.
    int max_sweeps = 0;              // 0: default (100)
    bool sort = true;                // eigenvalues ascending, vectors alike
    int *jacobi_sweeps = nullptr;    // per-matrix outputs (batch entries), optional
    double *jacobi_residual = nullptr;
    // Host arrays on the CUDA backend (batcheigParamsSetStreaming): matrices
    // per chunk and streams per device, 0 = automatic.
    int stream_chunk = 0;
    int stream_count = 0;
};

namespace batcheig {
// Streams per device a params object may ask for (batcheigParamsSetStreaming).
inline constexpr int kMaxStreams = 16;

using Context = batcheigContext;
using Params = batcheigParamsInfo;

// Defaults used when a routine is called with params == NULL.
inline const Params &default_params() {
    static const Params p{};
    return p;
}
}  // namespace batcheig
