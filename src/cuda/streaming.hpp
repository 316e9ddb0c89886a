// The host-memory streaming pipeline of the CUDA backend: a call whose
// arrays are in host memory moves through the GPU(s) in chunks of matrices.
// Each device has a ring of streams, each stream its own device buffers for
// one chunk (and pinned staging for pageable arrays); a chunk is copied in,
// computed and copied out on one stream, so the transfers of one chunk
// overlap the computation of the others. The chunks are handed out to the
// devices of batcheigSetDevices() as each stream becomes free.
//
// Every routine describes its arrays (HostArray) and how one chunk runs on
// device buffers (ChunkJob); stream_batch() does the rest. Used by
// cuda/geev/geev_cuda.cuh and cuda/syevj/syevj_cuda.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "batcheig.h"
#include "common/context.hpp"
#include "common/problem.hpp"

namespace batcheig::cuda {

// One array of a batched call in host memory; matrix b's part starts at
// host + b * stride. An array with host == nullptr is not used (its device
// pointer is then nullptr too).
struct HostArray {
    void *host = nullptr;
    std::size_t stride = 0;  // bytes from one matrix to the next
    bool in = false;         // copied to the device (the whole stride) before a chunk runs
    bool out = false;        // copied back after it ran
    // What is copied back of each matrix: `cols` runs of `width` bytes,
    // `pitch` bytes apart (a column-major block with a leading dimension:
    // the rows beyond n stay untouched). Dense arrays: width == pitch ==
    // stride, cols == 1.
    std::size_t width = 0;
    std::size_t pitch = 0;
    int cols = 1;

    // A dense array of `bytes` per matrix.
    static HostArray dense(void *p, std::size_t bytes, bool in, bool out) {
        return HostArray{p, bytes, in, out, bytes, bytes, 1};
    }
    // n columns of n elements of `elem` bytes, ld elements apart.
    static HostArray columns(void *p, std::size_t elem, int n, int ld, bool in, bool out) {
        return HostArray{p, elem * std::size_t(ld) * std::size_t(n), in, out, elem * std::size_t(n),
                         elem * std::size_t(ld), n};
    }
};

// How one chunk of the batch runs on device buffers.
struct ChunkJob {
    // Device workspace one chunk of `count` matrices needs.
    virtual std::size_t workspace_bytes(int count) const = 0;
    // Enqueue the chunk on stream s: dev[i] is the device copy of array i
    // of the list given to stream_batch (at the chunk's first matrix, or
    // nullptr for an unused array), work the chunk's workspace.
    virtual batcheigStatus_t run(cudaStream_t s, void *const *dev, int count, void *work) const = 0;

  protected:
    ~ChunkJob() = default;
};

// Most arrays one routine passes.
inline constexpr int kMaxHostArrays = 8;

// Run `batch` matrices whose arrays are in host memory and return when every
// result is in host memory. The work is ordered after what the handle's
// stream already holds.
batcheigStatus_t stream_batch(Context &ctx, const StreamingOptions &opt, const HostArray *arrays, int count,
                              std::int64_t batch, const ChunkJob &job);

}  // namespace batcheig::cuda
