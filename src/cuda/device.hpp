// Device queries and device-memory plumbing of the CUDA backend. Builds
// without a CUDA compiler link device_stub.cpp instead, which reports the
// backend as not compiled.
#pragma once

#include <cstddef>

#include "common/context.hpp"

namespace batcheig::cuda {

// True when the library was built with the CUDA backend.
bool backend_compiled();

// True when the CUDA backend is compiled in and a usable GPU is present.
bool backend_usable();

// The current CUDA device (0 without CUDA).
int current_device();

// Number of CUDA devices (0 without CUDA or without a GPU).
int device_count();

// The handle's cached device workspace, grown to at least `bytes` (after
// synchronizing its stream, so that no queued kernel still uses the old
// buffer). Returns nullptr when the allocation fails.
void *reserve_workspace(Context &ctx, std::size_t bytes);

// Free the handle's device workspace.
void release_workspace(Context &ctx);

// Free the streams and staging buffers of host-array calls
// (src/cuda/streaming.cpp).
void release_streaming(Context &ctx);

}  // namespace batcheig::cuda
