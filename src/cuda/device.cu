// Device queries and device-memory plumbing of the CUDA backend.
#include <cuda_runtime.h>

#include "cuda/device.hpp"
#include "cuda/memory.hpp"

namespace batcheig::cuda {

bool backend_compiled() { return true; }

bool backend_usable() {
    // Queried once: the answer cannot change during the life of a process.
    static const bool usable = [] {
        int count = 0;
        if (cudaGetDeviceCount(&count) != cudaSuccess) {
            cudaGetLastError();  // clear the "no device" error
            return false;
        }
        return count > 0;
    }();
    return usable;
}

int current_device() {
    int d = 0;
    if (cudaGetDevice(&d) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return d;
}

int device_count() {
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return count;
}

void *reserve_workspace(Context &ctx, std::size_t bytes) {
    if (bytes <= ctx.device_ws_bytes) return ctx.device_ws;
    release_workspace(ctx);
    void *p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) {
        cudaGetLastError();
        return nullptr;
    }
    ctx.device_ws = p;
    ctx.device_ws_bytes = bytes;
    return p;
}

void release_workspace(Context &ctx) {
    if (!ctx.device_ws) return;
    // Kernels queued on the handle's stream may still use the buffer. (The
    // stream may already be gone when a handle is destroyed after its
    // stream: then cudaFree's implicit synchronization is enough.) Errors
    // here must not linger as the runtime's last error.
    cudaStreamSynchronize(ctx.stream);
    cudaGetLastError();
    cudaFree(ctx.device_ws);
    cudaGetLastError();
    ctx.device_ws = nullptr;
    ctx.device_ws_bytes = 0;
}

bool is_device_pointer(const void *p) {
    if (!p) return false;
    cudaPointerAttributes attr;
    if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return attr.type == cudaMemoryTypeDevice || attr.type == cudaMemoryTypeManaged;
}

}  // namespace batcheig::cuda
