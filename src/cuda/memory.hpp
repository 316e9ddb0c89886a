// Where a pointer lives, as the CUDA runtime sees it.
#pragma once

namespace batcheig::cuda {

// True for device or managed memory; false for host memory (pageable,
// pinned or registered) and for NULL.
bool is_device_pointer(const void *p);

}  // namespace batcheig::cuda
