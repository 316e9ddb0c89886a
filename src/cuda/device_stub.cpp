// Stub used when no CUDA compiler was found: the CUDA backend is not compiled.
#include "cuda/device.hpp"

namespace batcheig::cuda {
bool backend_compiled() { return false; }
bool backend_usable() { return false; }
}  // namespace batcheig::cuda
