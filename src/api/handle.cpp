// Handle, stream, backend, version and status-string entry points.
#include <new>
#include <utility>
#include <vector>

#include "api/api_common.hpp"
#include "cuda/device.hpp"

using namespace batcheig;

batcheigContext::~batcheigContext() {
    cuda::release_streaming(*this);
    cuda::release_workspace(*this);
}

extern "C" {

batcheigStatus_t batcheigCreateWithBackend(batcheigHandle_t *handle, batcheigBackend_t backend) {
    if (!handle) return BATCHEIG_STATUS_INVALID_VALUE;
    *handle = nullptr;
    batcheigBackend_t chosen;
    switch (api::enum_arg(&backend)) {
        case BATCHEIG_BACKEND_AUTO:
            chosen = cuda::backend_usable() ? BATCHEIG_BACKEND_CUDA : BATCHEIG_BACKEND_HOST;
            break;
        case BATCHEIG_BACKEND_HOST: chosen = BATCHEIG_BACKEND_HOST; break;
        case BATCHEIG_BACKEND_CUDA:
            if (!cuda::backend_usable()) return BATCHEIG_STATUS_NOT_SUPPORTED;
            chosen = BATCHEIG_BACKEND_CUDA;
            break;
        default: return BATCHEIG_STATUS_INVALID_VALUE;
    }
    auto *h = new (std::nothrow) batcheigContext{};
    if (!h) return BATCHEIG_STATUS_ALLOC_FAILED;
    h->backend = chosen;
    if (chosen == BATCHEIG_BACKEND_CUDA) h->device = cuda::current_device();
    *handle = h;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigCreate(batcheigHandle_t *handle) {
    return batcheigCreateWithBackend(handle, BATCHEIG_BACKEND_AUTO);
}

batcheigStatus_t batcheigDestroy(batcheigHandle_t handle) {
    delete handle;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigSetStream(batcheigHandle_t handle, batcheigStream_t stream) {
    if (!handle) return BATCHEIG_STATUS_NOT_INITIALIZED;
    handle->error_argument = 0;
    handle->stream = stream;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigGetStream(batcheigHandle_t handle, batcheigStream_t *stream) {
    if (!handle) return BATCHEIG_STATUS_NOT_INITIALIZED;
    handle->error_argument = 0;
    if (!stream) return api::invalid(handle, 2);
    *stream = handle->stream;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigGetBackend(batcheigHandle_t handle, batcheigBackend_t *backend) {
    if (!handle) return BATCHEIG_STATUS_NOT_INITIALIZED;
    handle->error_argument = 0;
    if (!backend) return api::invalid(handle, 2);
    *backend = handle->backend;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigSetDevices(batcheigHandle_t handle, int count, const int *devices) {
    if (!handle) return BATCHEIG_STATUS_NOT_INITIALIZED;
    handle->error_argument = 0;
    if (handle->backend != BATCHEIG_BACKEND_CUDA) return BATCHEIG_STATUS_NOT_SUPPORTED;
    if (count < 0) return api::invalid(handle, 2);
    if (count > 0 && !devices) return api::invalid(handle, 3);
    const int available = cuda::device_count();
    std::vector<int> list;
    list.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) {
        const int d = devices[i];
        if (d < 0 || d >= available) return api::invalid(handle, 3);
        for (int e : list)
            if (e == d) return api::invalid(handle, 3);
        list.push_back(d);
    }
    // Streams and staging buffers belong to the old list's devices.
    cuda::release_streaming(*handle);
    handle->devices = std::move(list);
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigGetDevices(batcheigHandle_t handle, int capacity, int *devices, int *count) {
    if (!handle) return BATCHEIG_STATUS_NOT_INITIALIZED;
    handle->error_argument = 0;
    if (capacity < 0) return api::invalid(handle, 2);
    if (capacity > 0 && !devices) return api::invalid(handle, 3);
    if (!count) return api::invalid(handle, 4);
    const int size = static_cast<int>(handle->devices.size());
    for (int i = 0; i < size && i < capacity; ++i) devices[i] = handle->devices[static_cast<std::size_t>(i)];
    *count = size;
    return BATCHEIG_STATUS_SUCCESS;
}

batcheigStatus_t batcheigGetVersion(int *version) {
    if (!version) return BATCHEIG_STATUS_INVALID_VALUE;
    *version = BATCHEIG_VERSION_MAJOR * 10000 + BATCHEIG_VERSION_MINOR * 100 + BATCHEIG_VERSION_PATCH;
    return BATCHEIG_STATUS_SUCCESS;
}

const char *batcheigGetStatusString(batcheigStatus_t status) {
    switch (status) {
        case BATCHEIG_STATUS_SUCCESS: return "success";
        case BATCHEIG_STATUS_NOT_INITIALIZED: return "handle or params object is NULL";
        case BATCHEIG_STATUS_ALLOC_FAILED: return "memory allocation failed";
        case BATCHEIG_STATUS_INVALID_VALUE: return "invalid argument (see batcheigGetErrorArgument)";
        case BATCHEIG_STATUS_NOT_SUPPORTED: return "backend or algorithm not supported by this build or machine";
        case BATCHEIG_STATUS_EXECUTION_FAILED: return "backend execution failed";
        case BATCHEIG_STATUS_INTERNAL_ERROR: return "internal error";
    }
    return "unknown status";
}

batcheigStatus_t batcheigGetErrorArgument(batcheigHandle_t handle, int *position) {
    if (!handle) return BATCHEIG_STATUS_NOT_INITIALIZED;
    if (!position) return BATCHEIG_STATUS_INVALID_VALUE;  // keeps the recorded position readable
    *position = handle->error_argument;
    return BATCHEIG_STATUS_SUCCESS;
}

}  // extern "C"
