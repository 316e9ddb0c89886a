// Host backend of syevjBatched / heevjBatched: OpenMP across the batch, one
// matrix per task, each running the core routine core::syevj on column-major
// views of a per-thread workspace slice.
#pragma once

#include <cstddef>

#include "batcheig.h"
#include "common/context.hpp"
#include "common/problem.hpp"

namespace batcheig::host {

// Bytes of workspace for one call: one per-matrix slice per OpenMP thread
// that the call may use (at most `batch`). `block` selects the one-sided
// block variant with `nb` columns per block, else the two-sided scalar one.
template <class T>
std::size_t syevj_workspace_bytes(int n, bool want_vectors, bool block, int nb, int batch);

// Run the whole batch. `work` holds `lwork` bytes; the call allocates nothing.
template <class T>
batcheigStatus_t syevj(Context &ctx, const SyevjProblem<T> &p, bool block, int nb, void *work, std::size_t lwork);

}  // namespace batcheig::host
