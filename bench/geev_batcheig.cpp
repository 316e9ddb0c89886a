// geev through batcheig: one batched call per run, workspace from the
// _bufferSize query supplied by the caller (so the call allocates nothing).
#include <batcheig.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "geev_impl.hpp"

namespace bench {
namespace {

constexpr batcheigEigMode_t NOV = BATCHEIG_EIG_MODE_NOVECTOR;

// One overload per precision with the same shape: w1 = wr or W, w2 = wi or unused.
batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t jr, int n, const float *A, int lda, float *w1,
                             float *w2, float *VR, int ldvr, size_t *lw, int batch) {
    return batcheigSgeevBatched_bufferSize(h, NOV, jr, n, A, lda, w1, w2, nullptr, 1, VR, ldvr, lw, nullptr, batch);
}
batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t jr, int n, const double *A, int lda, double *w1,
                             double *w2, double *VR, int ldvr, size_t *lw, int batch) {
    return batcheigDgeevBatched_bufferSize(h, NOV, jr, n, A, lda, w1, w2, nullptr, 1, VR, ldvr, lw, nullptr, batch);
}
batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t jr, int n, const std::complex<float> *A, int lda,
                             std::complex<float> *w1, float *, std::complex<float> *VR, int ldvr, size_t *lw,
                             int batch) {
    return batcheigCgeevBatched_bufferSize(h, NOV, jr, n, reinterpret_cast<const batcheigComplex *>(A), lda,
                                           reinterpret_cast<batcheigComplex *>(w1), nullptr, 1,
                                           reinterpret_cast<batcheigComplex *>(VR), ldvr, lw, nullptr, batch);
}
batcheigStatus_t buffer_size(batcheigHandle_t h, batcheigEigMode_t jr, int n, const std::complex<double> *A,
                             int lda, std::complex<double> *w1, double *, std::complex<double> *VR, int ldvr,
                             size_t *lw, int batch) {
    return batcheigZgeevBatched_bufferSize(h, NOV, jr, n, reinterpret_cast<const batcheigDoubleComplex *>(A), lda,
                                           reinterpret_cast<batcheigDoubleComplex *>(w1), nullptr, 1,
                                           reinterpret_cast<batcheigDoubleComplex *>(VR), ldvr, lw, nullptr, batch);
}

batcheigStatus_t geev(batcheigHandle_t h, batcheigEigMode_t jr, int n, float *A, int lda, float *w1, float *w2,
                      float *VR, int ldvr, void *work, size_t lw, int *info, int batch) {
    return batcheigSgeevBatched(h, NOV, jr, n, A, lda, w1, w2, nullptr, 1, VR, ldvr, work, lw, info, nullptr, batch);
}
batcheigStatus_t geev(batcheigHandle_t h, batcheigEigMode_t jr, int n, double *A, int lda, double *w1, double *w2,
                      double *VR, int ldvr, void *work, size_t lw, int *info, int batch) {
    return batcheigDgeevBatched(h, NOV, jr, n, A, lda, w1, w2, nullptr, 1, VR, ldvr, work, lw, info, nullptr, batch);
}
batcheigStatus_t geev(batcheigHandle_t h, batcheigEigMode_t jr, int n, std::complex<float> *A, int lda,
                      std::complex<float> *w1, float *, std::complex<float> *VR, int ldvr, void *work, size_t lw,
                      int *info, int batch) {
    return batcheigCgeevBatched(h, NOV, jr, n, reinterpret_cast<batcheigComplex *>(A), lda,
                                reinterpret_cast<batcheigComplex *>(w1), nullptr, 1,
                                reinterpret_cast<batcheigComplex *>(VR), ldvr, work, lw, info, nullptr, batch);
}
batcheigStatus_t geev(batcheigHandle_t h, batcheigEigMode_t jr, int n, std::complex<double> *A, int lda,
                      std::complex<double> *w1, double *, std::complex<double> *VR, int ldvr, void *work, size_t lw,
                      int *info, int batch) {
    return batcheigZgeevBatched(h, NOV, jr, n, reinterpret_cast<batcheigDoubleComplex *>(A), lda,
                                reinterpret_cast<batcheigDoubleComplex *>(w1), nullptr, 1,
                                reinterpret_cast<batcheigDoubleComplex *>(VR), ldvr, work, lw, info, nullptr, batch);
}

void check(batcheigStatus_t st, const char *what) {
    if (st != BATCHEIG_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed: " + batcheigGetStatusString(st));
}

template <class T> class GeevBatcheig final : public GeevImpl<T> {
    using R = typename scalar_traits<T>::real;
    static constexpr bool cplx = scalar_traits<T>::is_complex;

public:
    explicit GeevBatcheig(const Options &opt) {
        batcheigBackend_t b = BATCHEIG_BACKEND_HOST;
        if (opt.backend == "auto") b = BATCHEIG_BACKEND_AUTO;
        else if (opt.backend == "cuda") b = BATCHEIG_BACKEND_CUDA;
        else if (opt.backend != "host") throw std::runtime_error("unknown backend '" + opt.backend + "'");
        check(batcheigCreateWithBackend(&h_, b), "batcheigCreateWithBackend");
    }
    ~GeevBatcheig() override {
        release();
        batcheigDestroy(h_);
    }
    std::string name() const override { return "batcheig"; }

    void prepare(const GeevProblem<T> &p) override {
        release();
        if (p.batch > std::numeric_limits<int>::max()) throw std::runtime_error("batch must fit in an int");
        p_ = p;
        const size_t nb = (size_t)p.n * p.batch;
        const R nan = std::numeric_limits<R>::quiet_NaN();
        // Pre-filled: touches the pages outside the timed region.
        w1_.assign(nb, T(nan));
        if (!cplx) w2_.assign(nb, nan);
        if (p.vectors) vr_.assign((size_t)p.n * p.n * p.batch, T(nan));
        info_.assign(p.batch, -999);
        jr_ = p.vectors ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
        check(buffer_size(h_, jr_, p.n, (const T *)nullptr, p.lda, w1_.data(), cplx ? nullptr : w2_.data(),
                          p.vectors ? vr_.data() : nullptr, p.vectors ? p.n : 1, &lwork_, (int)p.batch),
              "geevBatched_bufferSize");
        if (lwork_ > 0) {
            work_ = std::aligned_alloc(64, (lwork_ + 63) / 64 * 64);
            if (!work_) throw std::runtime_error("cannot allocate the batcheig workspace");
            std::memset(work_, 0, lwork_);
        }
    }

    void run(T *A, long long count) override {
        check(geev(h_, jr_, p_.n, A, p_.lda, w1_.data(), cplx ? nullptr : w2_.data(),
                   p_.vectors ? vr_.data() : nullptr, p_.vectors ? p_.n : 1, work_, lwork_, info_.data(),
                   (int)count),
              "geevBatched");
    }

    std::complex<double> eigenvalue(long long b, int i) const override {
        const size_t k = (size_t)b * p_.n + i;
        if constexpr (cplx) return {(double)w1_[k].real(), (double)w1_[k].imag()};
        else return {(double)w1_[k], (double)w2_[k]};
    }
    int info(long long b) const override { return info_[b]; }

    void release() override {
        std::free(work_);
        work_ = nullptr;
        lwork_ = 0;
        std::vector<T>().swap(w1_);
        std::vector<R>().swap(w2_);
        std::vector<T>().swap(vr_);
        std::vector<int>().swap(info_);
    }

private:
    batcheigHandle_t h_ = nullptr;
    GeevProblem<T> p_;
    batcheigEigMode_t jr_ = BATCHEIG_EIG_MODE_NOVECTOR;
    std::vector<T> w1_, vr_;
    std::vector<R> w2_;
    std::vector<int> info_;
    void *work_ = nullptr;
    size_t lwork_ = 0;
};

}  // namespace

template <class T> std::unique_ptr<GeevImpl<T>> make_geev_batcheig(const Options &opt) {
    return std::make_unique<GeevBatcheig<T>>(opt);
}
template std::unique_ptr<GeevImpl<float>> make_geev_batcheig<float>(const Options &);
template std::unique_ptr<GeevImpl<double>> make_geev_batcheig<double>(const Options &);
template std::unique_ptr<GeevImpl<std::complex<float>>> make_geev_batcheig<std::complex<float>>(const Options &);
template std::unique_ptr<GeevImpl<std::complex<double>>> make_geev_batcheig<std::complex<double>>(const Options &);

}  // namespace bench
