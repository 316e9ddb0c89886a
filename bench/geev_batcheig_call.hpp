// What the two batcheig geev implementations (geev_batcheig.cpp: host arrays,
// geev_batcheig_device.cpp: device arrays) share: the handle and params they
// run with (batcheig_session.hpp), and the four precisions of geevBatched and
// its _bufferSize query behind one overload set (w1 = wr or W, w2 = wi or
// unused; jobvl is always NOVECTOR).
#pragma once

#include <batcheig.h>

#include <complex>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "batcheig_session.hpp"
#include "bench_common.hpp"

namespace bench {

namespace geev_call {

constexpr batcheigEigMode_t NOV = BATCHEIG_EIG_MODE_NOVECTOR;

inline batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t jr, int n, const float *A, int lda,
                                    float *w1, float *w2, float *VR, int ldvr, size_t *lw, batcheigParams_t prm,
                                    int batch) {
    return batcheigSgeevBatched_bufferSize(h, NOV, jr, n, A, lda, w1, w2, nullptr, 1, VR, ldvr, lw, prm, batch);
}
inline batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t jr, int n, const double *A, int lda,
                                    double *w1, double *w2, double *VR, int ldvr, size_t *lw, batcheigParams_t prm,
                                    int batch) {
    return batcheigDgeevBatched_bufferSize(h, NOV, jr, n, A, lda, w1, w2, nullptr, 1, VR, ldvr, lw, prm, batch);
}
inline batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t jr, int n, const std::complex<float> *A,
                                    int lda, std::complex<float> *w1, float *, std::complex<float> *VR, int ldvr,
                                    size_t *lw, batcheigParams_t prm, int batch) {
    return batcheigCgeevBatched_bufferSize(h, NOV, jr, n, reinterpret_cast<const batcheigComplex *>(A), lda,
                                           reinterpret_cast<batcheigComplex *>(w1), nullptr, 1,
                                           reinterpret_cast<batcheigComplex *>(VR), ldvr, lw, prm, batch);
}
inline batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t jr, int n, const std::complex<double> *A,
                                    int lda, std::complex<double> *w1, double *, std::complex<double> *VR, int ldvr,
                                    size_t *lw, batcheigParams_t prm, int batch) {
    return batcheigZgeevBatched_bufferSize(h, NOV, jr, n, reinterpret_cast<const batcheigDoubleComplex *>(A), lda,
                                           reinterpret_cast<batcheigDoubleComplex *>(w1), nullptr, 1,
                                           reinterpret_cast<batcheigDoubleComplex *>(VR), ldvr, lw, prm, batch);
}

inline batcheigStatus_t geev(batcheigHandle_t h, batcheigEigMode_t jr, int n, float *A, int lda, float *w1,
                             float *w2, float *VR, int ldvr, void *work, size_t lw, int *info, batcheigParams_t prm,
                             int batch) {
    return batcheigSgeevBatched(h, NOV, jr, n, A, lda, w1, w2, nullptr, 1, VR, ldvr, work, lw, info, prm, batch);
}
inline batcheigStatus_t geev(batcheigHandle_t h, batcheigEigMode_t jr, int n, double *A, int lda, double *w1,
                             double *w2, double *VR, int ldvr, void *work, size_t lw, int *info,
                             batcheigParams_t prm, int batch) {
    return batcheigDgeevBatched(h, NOV, jr, n, A, lda, w1, w2, nullptr, 1, VR, ldvr, work, lw, info, prm, batch);
}
inline batcheigStatus_t geev(batcheigHandle_t h, batcheigEigMode_t jr, int n, std::complex<float> *A, int lda,
                             std::complex<float> *w1, float *, std::complex<float> *VR, int ldvr, void *work,
                             size_t lw, int *info, batcheigParams_t prm, int batch) {
    return batcheigCgeevBatched(h, NOV, jr, n, reinterpret_cast<batcheigComplex *>(A), lda,
                                reinterpret_cast<batcheigComplex *>(w1), nullptr, 1,
                                reinterpret_cast<batcheigComplex *>(VR), ldvr, work, lw, info, prm, batch);
}
inline batcheigStatus_t geev(batcheigHandle_t h, batcheigEigMode_t jr, int n, std::complex<double> *A, int lda,
                             std::complex<double> *w1, double *, std::complex<double> *VR, int ldvr, void *work,
                             size_t lw, int *info, batcheigParams_t prm, int batch) {
    return batcheigZgeevBatched(h, NOV, jr, n, reinterpret_cast<batcheigDoubleComplex *>(A), lda,
                                reinterpret_cast<batcheigDoubleComplex *>(w1), nullptr, 1,
                                reinterpret_cast<batcheigDoubleComplex *>(VR), ldvr, work, lw, info, prm, batch);
}

}  // namespace geev_call
}  // namespace bench
