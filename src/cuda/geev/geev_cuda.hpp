// CUDA backend of geevBatched, callable from host-only translation units.
//
// Variants (all run the core routines of src/core):
//   BATCHEIG_ALG_GEEV_CUDA_THREAD (geev_thread.cuh): one matrix per thread.
//     The batch is processed in chunks; each chunk is transposed into the
//     element-interleaved layout (layout.cuh), every thread runs core::geev
//     on its matrix through strided views (core::SerialTeam), and the
//     eigenvectors are transposed back. Every n.
//   BATCHEIG_ALG_GEEV_CUDA_WARP, _BLOCK, _GLOBAL (geev_team.cuh): a team of
//     threads per matrix (p lanes of a warp, or a block; cuda/team.cuh)
//     running core::geev with the team, in shared memory (warp, block) or in
//     place in global memory (global, every n).
//
// Arrays in device (or managed) memory: the work is enqueued on the handle's
// stream and the call returns at once. Arrays in host memory: the batch is
// staged through device buffers owned by the handle, and the call returns
// when the results are back in host memory.
#pragma once

#include <cstddef>

#include "batcheig.h"
#include "common/context.hpp"
#include "common/problem.hpp"

namespace batcheig::cuda {

// Device workspace of a call on device arrays.
template <class T>
std::size_t geev_workspace_bytes(batcheigAlgorithm_t variant, int n, bool want_vl, bool want_vr, int batch);

// True when one problem of order n (with the vectors asked for) fits in the
// shared memory of one block of the current device (WARP and BLOCK variants).
template <class T>
bool geev_fits_shared(int n, bool want_vl, bool want_vr);

template <class T>
batcheigStatus_t geev(Context &ctx, batcheigAlgorithm_t variant, const GeevProblem<T> &p, void *work,
                      std::size_t lwork);

}  // namespace batcheig::cuda
