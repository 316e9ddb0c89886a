// Shared helpers of the extern "C" layer: argument-error recording and the
// guard that keeps C++ exceptions from crossing the C boundary.
#pragma once

#include <new>

#include "batcheig.h"
#include "common/context.hpp"

namespace batcheig::api {

// Record the 1-based position of the bad argument and return INVALID_VALUE.
inline batcheigStatus_t invalid(Context *h, int position) {
    h->error_argument = position;
    return BATCHEIG_STATUS_INVALID_VALUE;
}

inline bool valid_mode(batcheigEigMode_t m) {
    return m == BATCHEIG_EIG_MODE_NOVECTOR || m == BATCHEIG_EIG_MODE_VECTOR;
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
