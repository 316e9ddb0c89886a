// Stub used when no CUDA compiler was found: the CUDA backend is not compiled.
#include "cuda/device.hpp"

namespace batcheig::cuda {
bool backend_compiled() { return false; }
bool backend_usable() { return false; }
int current_device() { return 0; }
int device_count() { return 0; }
void *reserve_workspace(Context &, std::size_t) { return nullptr; }
void release_workspace(Context &) {}
void release_streaming(Context &) {}
}  // namespace batcheig::cuda

#include "cuda/memory.hpp"

namespace batcheig::cuda {
bool is_device_pointer(const void *) { return false; }
}  // namespace batcheig::cuda
