// Anchor: what a cuSOLVER user writes today for a batch of non-symmetric
// eigenproblems -- there is no batched geev, so one cusolverDnXgeev call per
// matrix, on device arrays, in a loop on one stream (jobvl = NOVECTOR, jobvr
// as the workload). To keep the anchor fair, the device and host workspaces
// come from cusolverDnXgeev_bufferSize and are allocated once, outside the
// timed region, and reused by every call; the handle, params and stream are
// created once. Real types use cuSOLVER's all-real option (W holds the n real
// parts then the n imaginary parts, as LAPACK's wr/wi); complex types get
// complex W. computeType is the data type.
//
// At 0.3 - 1.5 ms per matrix a 500 000-matrix batch would take minutes, so
// only the first --cusolver-subset matrices are timed (CUDA events on the
// stream around the whole loop) and the workload extrapolates the time
// linearly to the batch; rows say "extrapolated from K matrices". The
// eigenvalues of those K matrices are checked like the others'. Outputs are
// copied back untimed: the transfers a user would make are the same bytes as
// batcheig-device's, whose row reports them.
#include <cusolverDn.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_util.hpp"
#include "cusolver_util.hpp"
#include "geev_impl.hpp"

namespace bench {
namespace {

using cusolver::cuda_type;
inline void check_cusolver(cusolverStatus_t st, const char *what) { cusolver::check(st, what); }

template <class T> class GeevCusolverLoop final : public GeevImpl<T> {
    static constexpr bool cplx = scalar_traits<T>::is_complex;
    static constexpr cudaDataType type = cuda_type<T>();
    // Elements of W per matrix: n complex, or n real parts + n imaginary parts.
    static constexpr int w_per_n = cplx ? 1 : 2;

public:
    explicit GeevCusolverLoop(const Options &opt) : subset_(opt.cusolver_subset) {
        check_cusolver(cusolverDnCreate(&h_), "cusolverDnCreate");
        check_cusolver(cusolverDnSetStream(h_, stream_.get()), "cusolverDnSetStream");
        check_cusolver(cusolverDnCreateParams(&params_), "cusolverDnCreateParams");
    }
    ~GeevCusolverLoop() override {
        release();
        cusolverDnDestroyParams(params_);
        cusolverDnDestroy(h_);
    }
    std::string name() const override { return "cusolver-loop"; }
    Memory memory() const override { return Memory::device; }
    long long timed_count(long long batch) const override { return std::min(batch, subset_); }
    bool full_warmup() const override { return true; }

    void prepare(const GeevProblem<T> &p) override {
        release();
        p_ = p;
        count_ = timed_count(p.batch);
        jobvr_ = p.vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
        d_w_ = cuda::DeviceArray<T>((size_t)w_per_n * p.n * count_);
        if (p.vectors) d_vr_ = cuda::DeviceArray<T>((size_t)p.n * p.n * count_);
        d_info_ = cuda::DeviceArray<int>(count_);
        cuda::check(cudaMemset(d_w_.get(), 0xff, d_w_.bytes()), "cudaMemset");  // NaN
        cuda::check(cudaMemset(d_info_.get(), 0xff, d_info_.bytes()), "cudaMemset");
        h_w_.assign(d_w_.count(), T());
        h_info_.assign(count_, -999);

        // The same workspace serves every matrix: same n, same types, same
        // jobs. (The query is given a matrix of the right shape to look at.)
        size_t dev_bytes = 0, host_bytes = 0;
        const cuda::DeviceArray<T> a_shape((size_t)p.lda * p.n);
        check_cusolver(cusolverDnXgeev_bufferSize(h_, params_, CUSOLVER_EIG_MODE_NOVECTOR, jobvr_, p.n, type,
                                                  a_shape.get(), p.lda, type, d_w_.get(), type, nullptr, p.n, type,
                                                  d_vr_.get(), p.n, type, &dev_bytes, &host_bytes),
                       "cusolverDnXgeev_bufferSize");
        d_work_ = cuda::DeviceArray<unsigned char>(dev_bytes);
        h_work_.assign(host_bytes, 0);
        cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }

    void run(T *A, long long count) override {
        const int n = p_.n;
        const size_t per_a = (size_t)p_.lda * n, per_v = (size_t)n * n;
        for (long long b = 0; b < count; ++b) {
            check_cusolver(cusolverDnXgeev(h_, params_, CUSOLVER_EIG_MODE_NOVECTOR, jobvr_, n, type, A + b * per_a,
                                           p_.lda, type, d_w_.get() + (size_t)w_per_n * n * b, type, nullptr, n,
                                           type, p_.vectors ? d_vr_.get() + per_v * b : nullptr, n, type,
                                           d_work_.get(), d_work_.bytes(), h_work_.empty() ? nullptr : h_work_.data(),
                                           h_work_.size(), d_info_.get() + b),
                           "cusolverDnXgeev");
        }
    }

    double timed_run(T *A, long long count) override {
        timer_.start(stream_.get());
        run(A, count);
        return timer_.stop(stream_.get());
    }

    // Untimed; the row reports no transfers (see the top of this file).
    double fetch_outputs(long long count) override {
        cuda::check(cudaStreamSynchronize(stream_.get()), "cudaStreamSynchronize");
        cuda::check(cudaMemcpy(h_w_.data(), d_w_.get(), (size_t)w_per_n * p_.n * count * sizeof(T),
                               cudaMemcpyDeviceToHost),
                    "cudaMemcpy (eigenvalues)");
        cuda::check(cudaMemcpy(h_info_.data(), d_info_.get(), count * sizeof(int), cudaMemcpyDeviceToHost),
                    "cudaMemcpy (info)");
        return -1;
    }

    std::complex<double> eigenvalue(long long b, int i) const override {
        const T *w = h_w_.data() + (size_t)w_per_n * p_.n * b;
        if constexpr (cplx) return {(double)w[i].real(), (double)w[i].imag()};
        else return {(double)w[i], (double)w[p_.n + i]};
    }
    int info(long long b) const override { return h_info_[b]; }

    void release() override {
        d_w_ = {};
        d_vr_ = {};
        d_info_ = {};
        d_work_ = {};
        std::vector<T>().swap(h_w_);
        std::vector<int>().swap(h_info_);
        std::vector<unsigned char>().swap(h_work_);
    }

private:
    long long subset_;
    cuda::Stream stream_;  // declared before the handle: it outlives it
    cuda::EventTimer timer_;
    cusolverDnHandle_t h_ = nullptr;
    cusolverDnParams_t params_ = nullptr;
    GeevProblem<T> p_;
    long long count_ = 0;
    cusolverEigMode_t jobvr_ = CUSOLVER_EIG_MODE_NOVECTOR;
    cuda::DeviceArray<T> d_w_, d_vr_;
    cuda::DeviceArray<int> d_info_;
    cuda::DeviceArray<unsigned char> d_work_;
    std::vector<T> h_w_;
    std::vector<int> h_info_;
    std::vector<unsigned char> h_work_;
};

}  // namespace

template <class T> std::unique_ptr<GeevImpl<T>> make_geev_cusolver(const Options &opt) {
    return std::make_unique<GeevCusolverLoop<T>>(opt);
}
template std::unique_ptr<GeevImpl<float>> make_geev_cusolver<float>(const Options &);
template std::unique_ptr<GeevImpl<double>> make_geev_cusolver<double>(const Options &);
template std::unique_ptr<GeevImpl<std::complex<float>>> make_geev_cusolver<std::complex<float>>(const Options &);
template std::unique_ptr<GeevImpl<std::complex<double>>> make_geev_cusolver<std::complex<double>>(const Options &);

}  // namespace bench
