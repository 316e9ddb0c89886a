// CUDA backend of geevBatched, callable from host-only translation units.
//
// Variant "thread" (BATCHEIG_ALG_GEEV_CUDA_THREAD): one matrix per thread.
// The batch is processed in chunks; each chunk is transposed into the
// element-interleaved layout (layout.cuh), every thread runs core::geev on
// its matrix through strided views, and eigenvectors are transposed back.
// It serves every n; it is the variant of choice for the smallest n.
#pragma once

#include <cstddef>

#include "batcheig.h"
#include "common/context.hpp"
#include "common/problem.hpp"

namespace batcheig::cuda {

template <class T>
std::size_t geev_thread_workspace_bytes(int n, bool want_vl, bool want_vr, int batch);

template <class T>
batcheigStatus_t geev_thread(Context &ctx, const GeevProblem<T> &p, void *work, std::size_t lwork);

}  // namespace batcheig::cuda
