// The four precisions of batcheig's ?syevjBatched / ?heevjBatched and their
// _bufferSize queries behind one overload set (uplo = LOWER, lda = n), shared
// by the host-array (syevj_batcheig.cpp) and device-array
// (syevj_batcheig_device.cpp) implementations.
#pragma once

#include <batcheig.h>

#include <complex>
#include <cstddef>

namespace bench::syevj_call {

constexpr batcheigFillMode_t LOWER = BATCHEIG_FILL_MODE_LOWER;

inline batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t j, int n, const float *A, const float *W,
                                    size_t *lw, batcheigParams_t p, int b) {
    return batcheigSsyevjBatched_bufferSize(h, j, LOWER, n, A, n, W, lw, p, b);
}
inline batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t j, int n, const double *A, const double *W,
                                    size_t *lw, batcheigParams_t p, int b) {
    return batcheigDsyevjBatched_bufferSize(h, j, LOWER, n, A, n, W, lw, p, b);
}
inline batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t j, int n, const std::complex<float> *A,
                                    const float *W, size_t *lw, batcheigParams_t p, int b) {
    return batcheigCheevjBatched_bufferSize(h, j, LOWER, n, reinterpret_cast<const batcheigComplex *>(A), n, W, lw, p,
                                            b);
}
inline batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t j, int n, const std::complex<double> *A,
                                    const double *W, size_t *lw, batcheigParams_t p, int b) {
    return batcheigZheevjBatched_bufferSize(h, j, LOWER, n, reinterpret_cast<const batcheigDoubleComplex *>(A), n, W,
                                            lw, p, b);
}

inline batcheigStatus_t syevj(batcheigHandle_t h, batcheigEigMode_t j, int n, float *A, float *W, void *wk,
                              size_t lw, int *info, batcheigParams_t p, int b) {
    return batcheigSsyevjBatched(h, j, LOWER, n, A, n, W, wk, lw, info, p, b);
}
inline batcheigStatus_t syevj(batcheigHandle_t h, batcheigEigMode_t j, int n, double *A, double *W, void *wk,
                              size_t lw, int *info, batcheigParams_t p, int b) {
    return batcheigDsyevjBatched(h, j, LOWER, n, A, n, W, wk, lw, info, p, b);
}
inline batcheigStatus_t syevj(batcheigHandle_t h, batcheigEigMode_t j, int n, std::complex<float> *A, float *W,
                              void *wk, size_t lw, int *info, batcheigParams_t p, int b) {
    return batcheigCheevjBatched(h, j, LOWER, n, reinterpret_cast<batcheigComplex *>(A), n, W, wk, lw, info, p, b);
}
inline batcheigStatus_t syevj(batcheigHandle_t h, batcheigEigMode_t j, int n, std::complex<double> *A, double *W,
                              void *wk, size_t lw, int *info, batcheigParams_t p, int b) {
    return batcheigZheevjBatched(h, j, LOWER, n, reinterpret_cast<batcheigDoubleComplex *>(A), n, W, wk, lw, info, p,
                                 b);
}

}  // namespace bench::syevj_call
