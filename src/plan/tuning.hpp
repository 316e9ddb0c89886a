// The tuning table: every size threshold the dispatcher uses, each with a
// comment saying how it was chosen. (The host backend has a single geev
// variant; GPU thresholds are added with the CUDA kernels.)
#pragma once

namespace batcheig::plan::tuning {

// Host backend: matrices per OpenMP scheduling chunk. Small n costs a few
// microseconds per matrix, so dynamic chunks of 16 keep the scheduling
// overhead under 1% while load-balancing batches whose matrices converge in
// very different iteration counts.
inline constexpr int host_chunk = 16;

}  // namespace batcheig::plan::tuning
