// Shared helpers of the extern "C" layer: argument-error recording and the
// guard that keeps C++ exceptions from crossing the C boundary.
#pragma once

#include <new>

#include "batcheig.h"
#include "common/context.hpp"
#include "cuda/device.hpp"

namespace batcheig::api {

// Record the 1-based position of the bad argument and return INVALID_VALUE.
inline batcheigStatus_t invalid(Context *h, int position) {
    h->error_argument = position;
    return BATCHEIG_STATUS_INVALID_VALUE;
}

inline bool valid_mode(batcheigEigMode_t m) {
    return m == BATCHEIG_EIG_MODE_NOVECTOR || m == BATCHEIG_EIG_MODE_VECTOR;
}

// The handle's cached workspace in the memory space of its backend, grown to
// at least `bytes`; its capacity goes to *capacity. nullptr on failure.
inline void *workspace_of(Context &h, std::size_t bytes, std::size_t *capacity) {
    void *p;
    if (h.backend == BATCHEIG_BACKEND_CUDA) {
        p = cuda::reserve_workspace(h, bytes);
        *capacity = h.device_ws_bytes;
    } else {
        p = h.host_ws.reserve(bytes);
        *capacity = h.host_ws.bytes;
    }
    return p;
}

// Run f() and map escaping exceptions to statuses.
template <class F>
batcheigStatus_t guarded(F &&f) noexcept {
    try {
        return f();
    } catch (const std::bad_alloc &) {
        return BATCHEIG_STATUS_ALLOC_FAILED;
    } catch (...) {
        return BATCHEIG_STATUS_INTERNAL_ERROR;
    }
}

}  // namespace batcheig::api
