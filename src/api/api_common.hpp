// Shared helpers of the extern "C" layer: argument-error recording and the
// guard that keeps C++ exceptions from crossing the C boundary.
#pragma once

#include <cstring>
#include <new>
#include <type_traits>

#include "batcheig.h"
#include "common/context.hpp"
#include "core/types.hpp"
#include "cuda/device.hpp"
#include "cuda/memory.hpp"

namespace batcheig::api {

// Record the 1-based position of the bad argument and return INVALID_VALUE.
inline batcheigStatus_t invalid(Context *h, int position) {
    h->error_argument = position;
    return BATCHEIG_STATUS_INVALID_VALUE;
}

// The value of an enum argument as the int the C caller passed. A C caller
// may pass any int; in C++ loading an enum object whose value lies outside
// the enumeration's range is undefined (and UBSan reports it), so the
// wrappers copy the bits of the parameter and the layers below see ints.
template <class E>
int enum_arg(const E *e) {
    static_assert(sizeof(E) == sizeof(int), "C enums are int-sized");
    int v;
    std::memcpy(&v, e, sizeof v);
    return v;
}

inline bool valid_mode(int m) { return m == BATCHEIG_EIG_MODE_NOVECTOR || m == BATCHEIG_EIG_MODE_VECTOR; }

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

// Does a call with array A run the host-array pipeline (host memory on a
// CUDA handle; cuda/streaming.cpp)? The one query of A's memory space per
// call: the answer goes to StreamingOptions::host_arrays for the backend.
// That pipeline works in buffers the handle keeps per stream, never in
// `work`, so such a call must not reserve the handle's batch-sized device
// workspace: its device memory stays that of the staging ring, whatever
// the batch.
inline bool streams_host_arrays(const Context &h, const void *A) {
    return h.backend == BATCHEIG_BACKEND_CUDA && !cuda::is_device_pointer(A);
}

// Public complex types -> core complex types (same layout).
template <class C> struct core_of;
template <> struct core_of<float> { using type = float; };
template <> struct core_of<double> { using type = double; };
template <> struct core_of<batcheigComplex> { using type = core::complex<float>; };
template <> struct core_of<batcheigDoubleComplex> { using type = core::complex<double>; };
static_assert(sizeof(batcheigComplex) == sizeof(core::complex<float>), "complex layout");
static_assert(sizeof(batcheigDoubleComplex) == sizeof(core::complex<double>), "complex layout");

template <class C>
auto *cast(C *p) { return reinterpret_cast<typename core_of<std::remove_const_t<C>>::type *>(p); }

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
