// Device queries of the CUDA backend. Builds without a CUDA compiler link
// device_stub.cpp instead, which reports the backend as not compiled.
#pragma once

namespace batcheig::cuda {

// True when the library was built with the CUDA backend.
bool backend_compiled();

// True when the CUDA backend is compiled in, a usable GPU is present and the
// backend implements the library's routines on it.
bool backend_usable();

}  // namespace batcheig::cuda
