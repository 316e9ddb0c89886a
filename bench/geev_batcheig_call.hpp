// What the two batcheig geev implementations (geev_batcheig.cpp: host arrays,
// geev_batcheig_device.cpp: device arrays) share: the handle and params they
// run with, and the four precisions of geevBatched and its _bufferSize query
// behind one overload set (w1 = wr or W, w2 = wi or unused; jobvl is always
// NOVECTOR).
#pragma once

#include <batcheig.h>

#include <complex>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "bench_common.hpp"
#include "params_shim.h"

namespace bench {

inline void check_batcheig(batcheigStatus_t st, const char *what) {
    if (st != BATCHEIG_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed: " + batcheigGetStatusString(st));
}

// A handle on the backend named by --backend and a params object carrying
// the --algorithm override (0, BATCHEIG_ALG_AUTO, unless given).
class BatcheigSession {
public:
    explicit BatcheigSession(const Options &opt) {
        batcheigBackend_t b = BATCHEIG_BACKEND_HOST;
        if (opt.backend == "auto") b = BATCHEIG_BACKEND_AUTO;
        else if (opt.backend == "cuda") b = BATCHEIG_BACKEND_CUDA;
        else if (opt.backend != "host") throw std::runtime_error("unknown backend '" + opt.backend + "'");
        check_batcheig(batcheigCreateWithBackend(&h_, b), "batcheigCreateWithBackend");
        try {
            check_batcheig(batcheigGetBackend(h_, &backend_), "batcheigGetBackend");
            check_batcheig(batcheigCreateParams(&p_), "batcheigCreateParams");
            const std::string what = "batcheigParamsSetAlgorithm(" + std::to_string(opt.algorithm) + ")";
            check_batcheig(bench_params_set_algorithm(p_, opt.algorithm), what.c_str());
        } catch (...) {
            batcheigDestroyParams(p_);
            batcheigDestroy(h_);
            throw;
        }
        algorithm_ = opt.algorithm;
    }
    ~BatcheigSession() {
        batcheigDestroyParams(p_);
        batcheigDestroy(h_);
    }
    BatcheigSession(const BatcheigSession &) = delete;
    BatcheigSession &operator=(const BatcheigSession &) = delete;

    batcheigHandle_t handle() const { return h_; }
    batcheigParams_t params() const { return p_; }
    batcheigBackend_t backend() const { return backend_; }  // as resolved (never AUTO)
    int algorithm() const { return algorithm_; }
    // Throws on failure, naming the call, the backend and the algorithm
    // (nothing is built on success: run() calls this inside the timed region).
    void check(batcheigStatus_t st, const char *call) const {
        if (st == BATCHEIG_STATUS_SUCCESS) return;
        throw std::runtime_error(std::string(call) + " (backend " +
                                 (backend_ == BATCHEIG_BACKEND_CUDA ? "cuda" : "host") + ", algorithm " +
                                 std::to_string(algorithm_) + ") failed: " + batcheigGetStatusString(st));
    }

private:
    batcheigHandle_t h_ = nullptr;
    batcheigParams_t p_ = nullptr;
    batcheigBackend_t backend_ = BATCHEIG_BACKEND_HOST;
    int algorithm_ = 0;
};

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
