// One batched call, after argument checking, as the backends see it.
#pragma once

#include "core/types.hpp"

namespace batcheig {

// How a call with host arrays on the CUDA backend moves through the GPU(s)
// (batcheigParamsSetStreaming; 0 = automatic).
struct StreamingOptions {
    int chunk = 0;    // matrices per chunk
    int streams = 0;  // streams per device
    // The call's arrays are in host memory on a CUDA handle, so it takes the
    // pipeline (cuda/streaming.cpp). Set by the C layer, which asks the CUDA
    // runtime once per call (api::streams_host_arrays).
    bool host_arrays = false;
};

// A geevBatched call. For real T the eigenvalues are (wr, wi); for complex T
// they are w (wi is null).
template <class T>
struct GeevProblem {
    using R = core::real_t<T>;
    bool want_vl = false;
    bool want_vr = false;
    int n = 0;
    T *A = nullptr;
    int lda = 1;
    T *w = nullptr;   // wr for real types, W for complex types
    R *wi = nullptr;  // real types only
    T *VL = nullptr;
    int ldvl = 1;
    T *VR = nullptr;
    int ldvr = 1;
    int *info = nullptr;
    int batch = 0;
    int max_iterations = 0;  // 0: LAPACK default
    StreamingOptions streaming;
};

// A syevjBatched / heevjBatched call. A holds the `lower` (else upper)
// triangles on entry and the eigenvectors on exit when want_v; w the real
// eigenvalues. sweeps/residual are the optional per-matrix diagnostics.
template <class T>
struct SyevjProblem {
    using R = core::real_t<T>;
    bool want_v = false;
    bool lower = true;
    int n = 0;
    T *A = nullptr;
    int lda = 1;
    R *w = nullptr;
    int *info = nullptr;
    int batch = 0;
    double tolerance = 0;  // <= 0: default
    int max_sweeps = 0;    // 0: default
    bool sort = true;
    int *sweeps = nullptr;
    double *residual = nullptr;
    StreamingOptions streaming;
    // The call's whole batch where this problem is one chunk of it (host
    // arrays; 0: batch). Kernels whose launch shape depends on the batch
    // size go by it, so that every chunk runs the shape of the whole call
    // and host arrays get the device arrays' results bitwise.
    int call_batch = 0;
    int whole_batch() const { return call_batch > 0 ? call_batch : batch; }
};

}  // namespace batcheig
