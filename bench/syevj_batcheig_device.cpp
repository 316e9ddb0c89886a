// syevj / heevj through batcheig on device-resident data (--memory device):
// what a GPU application whose matrices already live on the device does. One
// batched call per run on a CUDA handle, enqueued on a stream of our own
// (batcheigSetStream); W, info, the workspace of the _bufferSize query and
// the Jacobi diagnostics (batcheigParamsSetJacobiOutputs: per-matrix sweeps
// and residuals, device arrays like the call's others) are cudaMalloc'ed, so
// the timed call allocates nothing. With vectors A is overwritten by V.
//
// Timed: CUDA events recorded on the handle's stream right before and after
// the call; the call itself returns before the work is done. Not timed: the
// restore of A from the pristine device copy (the workload) and the copy of
// the outputs to pinned host memory, which fetch_outputs() times separately
// (the D2H column: W, info and, with vectors, V) with events on the same
// stream; the sweep counts are copied back after that, untimed.
#include <batcheig.h>

#include <limits>
#include <stdexcept>

#include "batcheig_session.hpp"
#include "cuda_util.hpp"
#include "syevj_batcheig_call.hpp"
#include "syevj_impl.hpp"

namespace bench {
namespace {

using syevj_call::buffer_size;
using syevj_call::syevj;

template <class T> class SyevjBatcheigDevice final : public SyevjImpl<T> {
    using R = typename scalar_traits<T>::real;

public:
    explicit SyevjBatcheigDevice(const Options &opt) : s_(opt) {
        if (s_.backend() != BATCHEIG_BACKEND_CUDA)
            throw std::runtime_error("--memory device: the batcheig handle (--backend " + opt.backend +
                                     ") does not run on the CUDA backend");
        check_batcheig(batcheigSetStream(s_.handle(), reinterpret_cast<batcheigStream_t>(stream_.get())),
                       "batcheigSetStream");
    }
    ~SyevjBatcheigDevice() override { release(); }
    std::string name() const override { return "batcheig-device"; }
    Memory memory() const override { return Memory::device; }
    bool full_warmup() const override { return true; }
    int algorithm() const override { return s_.algorithm(); }

    void prepare(const SyevjProblem &p) override {
        release();
        if (p.batch > std::numeric_limits<int>::max()) throw std::runtime_error("batch must fit in an int");
        p_ = p;
        const size_t nb = (size_t)p.n * p.batch;
        d_w_ = cuda::DeviceArray<R>(nb);
        d_info_ = cuda::DeviceArray<int>(p.batch);
        d_sweeps_ = cuda::DeviceArray<int>(p.batch);
        d_resid_ = cuda::DeviceArray<double>(p.batch);
        // All-ones bytes: NaN in W (stale results cannot pass for new ones),
        // -1 in info and sweeps; the pages are touched before timing.
        cuda::check(cudaMemset(d_w_.get(), 0xff, d_w_.bytes()), "cudaMemset");
        cuda::check(cudaMemset(d_info_.get(), 0xff, d_info_.bytes()), "cudaMemset");
        cuda::check(cudaMemset(d_sweeps_.get(), 0xff, d_sweeps_.bytes()), "cudaMemset");
        cuda::check(cudaMemset(d_resid_.get(), 0xff, d_resid_.bytes()), "cudaMemset");
        check_batcheig(batcheigParamsSetJacobiOutputs(s_.params(), d_sweeps_.get(), d_resid_.get()),
                       "batcheigParamsSetJacobiOutputs");

        // Pinned host copies of the outputs, written by fetch_outputs().
        h_w_ = cuda::PinnedArray<R>(nb);
        h_info_ = cuda::PinnedArray<int>(p.batch);
        if (p.vectors) h_v_ = cuda::PinnedArray<T>((size_t)p.n * p.n * p.batch);
        h_sweeps_ = cuda::PinnedArray<int>(p.batch);

        jobz_ = p.vectors ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
        s_.check(buffer_size(s_.handle(), jobz_, p.n, (const T *)nullptr, d_w_.get(), &lwork_, s_.params(),
                             (int)p.batch),
                 "syevjBatched_bufferSize");
        work_ = cuda::DeviceArray<unsigned char>(lwork_);
        if (lwork_) cuda::check(cudaMemset(work_.get(), 0, lwork_), "cudaMemset");
        cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }

    void run(T *A, long long count) override {
        d_a_ = A;
        s_.check(syevj(s_.handle(), jobz_, p_.n, A, d_w_.get(), work_.get(), lwork_, d_info_.get(), s_.params(),
                       (int)count),
                 "syevjBatched on device arrays");
    }

    double timed_run(T *A, long long count) override {
        timer_.start(stream_.get());
        run(A, count);
        return timer_.stop(stream_.get());
    }

    // The outputs a caller would bring back: eigenvalues, info, and the
    // vectors (in A) when computed.
    double fetch_outputs(long long count) override {
        const cudaStream_t s = stream_.get();
        timer_.start(s);
        cuda::check(cudaMemcpyAsync(h_w_.get(), d_w_.get(), (size_t)p_.n * count * sizeof(R), cudaMemcpyDeviceToHost,
                                    s),
                    "cudaMemcpyAsync (eigenvalues)");
        cuda::check(cudaMemcpyAsync(h_info_.get(), d_info_.get(), count * sizeof(int), cudaMemcpyDeviceToHost, s),
                    "cudaMemcpyAsync (info)");
        if (p_.vectors)
            cuda::check(cudaMemcpyAsync(h_v_.get(), d_a_, (size_t)p_.n * p_.n * count * sizeof(T),
                                        cudaMemcpyDeviceToHost, s),
                        "cudaMemcpyAsync (eigenvectors)");
        const double t = timer_.stop(s);
        // Diagnostics, untimed.
        cuda::check(cudaMemcpyAsync(h_sweeps_.get(), d_sweeps_.get(), count * sizeof(int), cudaMemcpyDeviceToHost, s),
                    "cudaMemcpyAsync (sweeps)");
        cuda::check(cudaStreamSynchronize(s), "cudaStreamSynchronize");
        return t;
    }

    double eigenvalue(long long b, int i) const override { return (double)h_w_[(size_t)b * p_.n + i]; }
    int info(long long b) const override { return h_info_[b]; }
    const T *vectors(long long b) const override {
        return p_.vectors ? h_v_.get() + (size_t)b * p_.n * p_.n : nullptr;
    }
    double mean_sweeps(long long count) const override {
        double s = 0;
        for (long long b = 0; b < count; ++b) {
            if (h_sweeps_[b] < 0) return -1;  // not written by this backend
            s += h_sweeps_[b];
        }
        return count ? s / (double)count : -1;
    }

    void release_device() override {
        batcheigParamsSetJacobiOutputs(s_.params(), nullptr, nullptr);
        d_w_ = {};
        d_info_ = {};
        d_sweeps_ = {};
        d_resid_ = {};
        work_ = {};
        lwork_ = 0;
        d_a_ = nullptr;
    }
    void release() override {
        release_device();
        h_w_ = {};
        h_info_ = {};
        h_v_ = {};
        h_sweeps_ = {};
    }

private:
    cuda::Stream stream_;  // declared first: it outlives the handle that uses it
    cuda::EventTimer timer_;
    BatcheigSession s_;
    SyevjProblem p_;
    batcheigEigMode_t jobz_ = BATCHEIG_EIG_MODE_NOVECTOR;
    cuda::DeviceArray<R> d_w_;
    cuda::DeviceArray<int> d_info_, d_sweeps_;
    cuda::DeviceArray<double> d_resid_;
    cuda::DeviceArray<unsigned char> work_;
    size_t lwork_ = 0;
    cuda::PinnedArray<R> h_w_;
    cuda::PinnedArray<int> h_info_, h_sweeps_;
    cuda::PinnedArray<T> h_v_;
    const T *d_a_ = nullptr;  // the A of the last run (device): V with vectors
};

}  // namespace

template <class T> std::unique_ptr<SyevjImpl<T>> make_syevj_batcheig_device(const Options &opt) {
    return std::make_unique<SyevjBatcheigDevice<T>>(opt);
}
template std::unique_ptr<SyevjImpl<float>> make_syevj_batcheig_device<float>(const Options &);
template std::unique_ptr<SyevjImpl<double>> make_syevj_batcheig_device<double>(const Options &);
template std::unique_ptr<SyevjImpl<std::complex<float>>>
make_syevj_batcheig_device<std::complex<float>>(const Options &);
template std::unique_ptr<SyevjImpl<std::complex<double>>>
make_syevj_batcheig_device<std::complex<double>>(const Options &);

}  // namespace bench
