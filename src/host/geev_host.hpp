// Host backend of geevBatched: OpenMP across the batch, one matrix per task,
// each running the core routine core::geev on column-major views.
#pragma once

#include <cstddef>

#include "batcheig.h"
#include "common/context.hpp"
#include "common/problem.hpp"

namespace batcheig::host {

// Bytes of workspace for one call: one per-matrix slice per OpenMP thread
// that the call may use (at most `batch`).
template <class T>
std::size_t geev_workspace_bytes(int n, bool want_vectors, int batch);

// Run the whole batch. `work` holds `lwork` bytes; the call allocates nothing.
template <class T>
batcheigStatus_t geev(Context &ctx, const GeevProblem<T> &p, void *work, std::size_t lwork);

}  // namespace batcheig::host
