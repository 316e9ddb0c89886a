// Anchors on the GPU for the syevj workload: the batched symmetric /
// Hermitian eigensolvers a cuSOLVER user would call on device arrays, on
// the same matrices as batcheig, same jobz, uplo = LOWER.
//
//   cusolver-syevjBatched / cusolver-heevjBatched
//       cusolverDn{S,D}syevjBatched / cusolverDn{C,Z}heevjBatched (Jacobi, one
//       call for the batch), syevjInfo_t with cuSOLVER's defaults (tolerance:
//       machine precision, 100 sweeps, sorted eigenvalues). cuSOLVER limits
//       it to n <= 32; larger sizes are reported "n/a (n>32)".
//   cusolver-XsyevBatched
//       cusolverDnXsyevBatched (64-bit API, CUDA >= 12.6; one call for the
//       batch), computeType = the data type. Its device workspace grows with
//       the batch: an allocation failure (or any failing status) is reported
//       in the table ("OOM", the status name) and the run goes on.
//
// Both get their workspace from the _bufferSize query, allocated once per
// size outside the timed region, and a handle and stream of their own.
// Timed with CUDA events on that stream around the call, after an untimed
// warm-up call on the whole batch. Outputs (W, info) are copied back untimed
// for the accuracy check: the transfers a user would make are the same bytes
// as batcheig-device's, whose row reports them.
#include <cusolverDn.h>

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_util.hpp"
#include "cusolver_util.hpp"
#include "syevj_impl.hpp"

namespace bench {
namespace {

using cusolver::cuda_type;

// The cuSOLVER types of each precision and the syevjBatched overloads.
template <class T> struct cu;
template <> struct cu<float> { using type = float; };
template <> struct cu<double> { using type = double; };
template <> struct cu<std::complex<float>> { using type = cuComplex; };
template <> struct cu<std::complex<double>> { using type = cuDoubleComplex; };

cusolverStatus_t syevj_size(cusolverDnHandle_t h, cusolverEigMode_t j, int n, const float *A, const float *W, int *lw,
                            syevjInfo_t p, int b) {
    return cusolverDnSsyevjBatched_bufferSize(h, j, CUBLAS_FILL_MODE_LOWER, n, A, n, W, lw, p, b);
}
cusolverStatus_t syevj_size(cusolverDnHandle_t h, cusolverEigMode_t j, int n, const double *A, const double *W,
                            int *lw, syevjInfo_t p, int b) {
    return cusolverDnDsyevjBatched_bufferSize(h, j, CUBLAS_FILL_MODE_LOWER, n, A, n, W, lw, p, b);
}
cusolverStatus_t syevj_size(cusolverDnHandle_t h, cusolverEigMode_t j, int n, const cuComplex *A, const float *W,
                            int *lw, syevjInfo_t p, int b) {
    return cusolverDnCheevjBatched_bufferSize(h, j, CUBLAS_FILL_MODE_LOWER, n, A, n, W, lw, p, b);
}
cusolverStatus_t syevj_size(cusolverDnHandle_t h, cusolverEigMode_t j, int n, const cuDoubleComplex *A,
                            const double *W, int *lw, syevjInfo_t p, int b) {
    return cusolverDnZheevjBatched_bufferSize(h, j, CUBLAS_FILL_MODE_LOWER, n, A, n, W, lw, p, b);
}
cusolverStatus_t syevj_call(cusolverDnHandle_t h, cusolverEigMode_t j, int n, float *A, float *W, float *wk, int lw,
                            int *info, syevjInfo_t p, int b) {
    return cusolverDnSsyevjBatched(h, j, CUBLAS_FILL_MODE_LOWER, n, A, n, W, wk, lw, info, p, b);
}
cusolverStatus_t syevj_call(cusolverDnHandle_t h, cusolverEigMode_t j, int n, double *A, double *W, double *wk,
                            int lw, int *info, syevjInfo_t p, int b) {
    return cusolverDnDsyevjBatched(h, j, CUBLAS_FILL_MODE_LOWER, n, A, n, W, wk, lw, info, p, b);
}
cusolverStatus_t syevj_call(cusolverDnHandle_t h, cusolverEigMode_t j, int n, cuComplex *A, float *W, cuComplex *wk,
                            int lw, int *info, syevjInfo_t p, int b) {
    return cusolverDnCheevjBatched(h, j, CUBLAS_FILL_MODE_LOWER, n, A, n, W, wk, lw, info, p, b);
}
cusolverStatus_t syevj_call(cusolverDnHandle_t h, cusolverEigMode_t j, int n, cuDoubleComplex *A, double *W,
                            cuDoubleComplex *wk, int lw, int *info, syevjInfo_t p, int b) {
    return cusolverDnZheevjBatched(h, j, CUBLAS_FILL_MODE_LOWER, n, A, n, W, wk, lw, info, p, b);
}

// What both anchors share: handle and stream, W and info on the device and
// their host copies, the timed call and the untimed copy-back.
template <class T> class CusolverSyevBase : public SyevjImpl<T> {
protected:
    using R = typename scalar_traits<T>::real;

public:
    CusolverSyevBase() {
        cusolver::check(cusolverDnCreate(&h_), "cusolverDnCreate");
        cusolver::check(cusolverDnSetStream(h_, stream_.get()), "cusolverDnSetStream");
    }
    ~CusolverSyevBase() override { cusolverDnDestroy(h_); }
    Memory memory() const override { return Memory::device; }
    bool full_warmup() const override { return true; }

    double timed_run(T *A, long long count) override {
        timer_.start(stream_.get());
        this->run(A, count);
        return timer_.stop(stream_.get());
    }
    // Untimed; the row reports no transfers (see the top of this file).
    double fetch_outputs(long long count) override {
        cuda::check(cudaStreamSynchronize(stream_.get()), "cudaStreamSynchronize");
        cuda::check(cudaMemcpy(h_w_.data(), d_w_.get(), (size_t)p_.n * count * sizeof(R), cudaMemcpyDeviceToHost),
                    "cudaMemcpy (eigenvalues)");
        cuda::check(cudaMemcpy(h_info_.data(), d_info_.get(), count * sizeof(int), cudaMemcpyDeviceToHost),
                    "cudaMemcpy (info)");
        return -1;
    }
    double eigenvalue(long long b, int i) const override { return (double)h_w_[(size_t)b * p_.n + i]; }
    int info(long long b) const override { return h_info_[b]; }
    void release_device() override {
        d_w_ = {};
        d_info_ = {};
        release_workspace();
    }
    void release() override {
        release_device();
        std::vector<R>().swap(h_w_);
        std::vector<int>().swap(h_info_);
    }

protected:
    // W and info for p (NaN / -1 prefilled), the host copies.
    void prepare_outputs(const SyevjProblem &p) {
        release();
        p_ = p;
        jobz_ = p.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
        d_w_ = cuda::DeviceArray<R>((size_t)p.n * p.batch);
        d_info_ = cuda::DeviceArray<int>(p.batch);
        cuda::check(cudaMemset(d_w_.get(), 0xff, d_w_.bytes()), "cudaMemset");
        cuda::check(cudaMemset(d_info_.get(), 0xff, d_info_.bytes()), "cudaMemset");
        h_w_.assign(d_w_.count(), std::numeric_limits<R>::quiet_NaN());
        h_info_.assign(p.batch, -999);
    }
    virtual void release_workspace() = 0;

    cuda::Stream stream_;  // declared before the handle: it outlives it
    cuda::EventTimer timer_;
    cusolverDnHandle_t h_ = nullptr;
    SyevjProblem p_;
    cusolverEigMode_t jobz_ = CUSOLVER_EIG_MODE_NOVECTOR;
    cuda::DeviceArray<R> d_w_;
    cuda::DeviceArray<int> d_info_;
    std::vector<R> h_w_;
    std::vector<int> h_info_;
};

// ---- cusolverDn?syevjBatched / ?heevjBatched -------------------------------------
template <class T> class CusolverSyevjBatched final : public CusolverSyevBase<T> {
    using C = typename cu<T>::type;
    using R = typename scalar_traits<T>::real;

public:
    CusolverSyevjBatched() { cusolver::check(cusolverDnCreateSyevjInfo(&info_params_), "cusolverDnCreateSyevjInfo"); }
    ~CusolverSyevjBatched() override {
        release();
        cusolverDnDestroySyevjInfo(info_params_);
    }
    std::string name() const override {
        return scalar_traits<T>::is_complex ? "cusolver-heevjBatched" : "cusolver-syevjBatched";
    }
    std::string unsupported(const SyevjProblem &p) const override {
        if (p.n > 32) return "n/a (n>32)";
        if (p.batch > std::numeric_limits<int>::max()) return "n/a (batch)";
        return {};
    }
    void release() override { CusolverSyevBase<T>::release(); }

    void prepare(const SyevjProblem &p) override {
        this->prepare_outputs(p);
        // The query looks at the shape only; A is given for form's sake.
        int lwork = 0;
        const cuda::DeviceArray<T> a_shape((size_t)p.n * p.n);
        cusolver::check(syevj_size(this->h_, this->jobz_, p.n, reinterpret_cast<const C *>(a_shape.get()),
                                   this->d_w_.get(), &lwork, info_params_, (int)p.batch),
                        "cusolverDn?syevjBatched_bufferSize");
        lwork_ = lwork;
        work_ = cuda::DeviceArray<T>((size_t)lwork);
        cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }
    void run(T *A, long long count) override {
        cusolver::check(syevj_call(this->h_, this->jobz_, this->p_.n, reinterpret_cast<C *>(A), this->d_w_.get(),
                                   reinterpret_cast<C *>(work_.get()), lwork_, this->d_info_.get(), info_params_,
                                   (int)count),
                        "cusolverDn?syevjBatched");
    }

protected:
    void release_workspace() override {
        work_ = {};
        lwork_ = 0;
    }

private:
    syevjInfo_t info_params_ = nullptr;
    cuda::DeviceArray<T> work_;
    int lwork_ = 0;
};

// ---- cusolverDnXsyevBatched ------------------------------------------------------
template <class T> class CusolverXsyevBatched final : public CusolverSyevBase<T> {
    using R = typename scalar_traits<T>::real;
    static constexpr cudaDataType type_a = cuda_type<T>();
    static constexpr cudaDataType type_w = cuda_type<R>();

public:
    CusolverXsyevBatched() { cusolver::check(cusolverDnCreateParams(&params_), "cusolverDnCreateParams"); }
    ~CusolverXsyevBatched() override {
        release();
        cusolverDnDestroyParams(params_);
    }
    std::string name() const override { return "cusolver-XsyevBatched"; }
    std::string unsupported(const SyevjProblem &) const override {
#if CUDART_VERSION >= 12060
        return {};
#else
        return "n/a (CUDA<12.6)";
#endif
    }
    void release() override { CusolverSyevBase<T>::release(); }

    void prepare(const SyevjProblem &p) override {
#if CUDART_VERSION >= 12060
        this->prepare_outputs(p);
        size_t dev_bytes = 0, host_bytes = 0;
        const cuda::DeviceArray<T> a_shape((size_t)p.n * p.n);
        cusolver::check(cusolverDnXsyevBatched_bufferSize(this->h_, params_, this->jobz_, CUBLAS_FILL_MODE_LOWER, p.n,
                                                          type_a, a_shape.get(), p.n, type_w, this->d_w_.get(), type_a,
                                                          &dev_bytes, &host_bytes, p.batch),
                        "cusolverDnXsyevBatched_bufferSize");
        d_work_ = cuda::DeviceArray<unsigned char>(dev_bytes);  // may fail: cudaErrorMemoryAllocation
        h_work_.assign(host_bytes, 0);
        cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
#else
        (void)p;
        throw std::runtime_error("cusolverDnXsyevBatched needs CUDA >= 12.6");
#endif
    }
    void run(T *A, long long count) override {
#if CUDART_VERSION >= 12060
        cusolver::check(cusolverDnXsyevBatched(this->h_, params_, this->jobz_, CUBLAS_FILL_MODE_LOWER, this->p_.n,
                                               type_a, A, this->p_.n, type_w, this->d_w_.get(), type_a,
                                               d_work_.get(), d_work_.bytes(),
                                               h_work_.empty() ? nullptr : h_work_.data(), h_work_.size(),
                                               this->d_info_.get(), count),
                        "cusolverDnXsyevBatched");
#else
        (void)A, (void)count;
#endif
    }

protected:
    void release_workspace() override {
        d_work_ = {};
        std::vector<unsigned char>().swap(h_work_);
    }

private:
    cusolverDnParams_t params_ = nullptr;
    cuda::DeviceArray<unsigned char> d_work_;
    std::vector<unsigned char> h_work_;
};

}  // namespace

template <class T> std::unique_ptr<SyevjImpl<T>> make_syevj_cusolver_jacobi(const Options &) {
    return std::make_unique<CusolverSyevjBatched<T>>();
}
template <class T> std::unique_ptr<SyevjImpl<T>> make_syevj_cusolver_xsyev(const Options &) {
    return std::make_unique<CusolverXsyevBatched<T>>();
}
template std::unique_ptr<SyevjImpl<float>> make_syevj_cusolver_jacobi<float>(const Options &);
template std::unique_ptr<SyevjImpl<double>> make_syevj_cusolver_jacobi<double>(const Options &);
template std::unique_ptr<SyevjImpl<std::complex<float>>>
make_syevj_cusolver_jacobi<std::complex<float>>(const Options &);
template std::unique_ptr<SyevjImpl<std::complex<double>>>
make_syevj_cusolver_jacobi<std::complex<double>>(const Options &);
template std::unique_ptr<SyevjImpl<float>> make_syevj_cusolver_xsyev<float>(const Options &);
template std::unique_ptr<SyevjImpl<double>> make_syevj_cusolver_xsyev<double>(const Options &);
template std::unique_ptr<SyevjImpl<std::complex<float>>> make_syevj_cusolver_xsyev<std::complex<float>>(const Options &);
template std::unique_ptr<SyevjImpl<std::complex<double>>>
make_syevj_cusolver_xsyev<std::complex<double>>(const Options &);

}  // namespace bench
