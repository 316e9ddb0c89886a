// geev through batcheig on device-resident data (--memory device): what a
// GPU application whose matrices already live on the device does. One
// batched call per run on a CUDA handle, enqueued on a stream of our own
// (batcheigSetStream); all arrays (A from the workload, wr/wi or W, VR with
// --vectors, info) are cudaMalloc'ed, and the device workspace of the
// _bufferSize query is passed in, so the timed call allocates nothing.
//
// Timed: CUDA events recorded on the handle's stream right before and after
// the call; the call itself returns before the work is done. Not timed: the
// restore of A from the pristine device copy (the workload) and the copy of
// the outputs to pinned host memory, which fetch_outputs() times separately
// (the D2H column) with events on the same stream.
#include <batcheig.h>

#include <limits>
#include <stdexcept>

#include "cuda_util.hpp"
#include "geev_batcheig_call.hpp"
#include "geev_impl.hpp"

namespace bench {
namespace {

using geev_call::buffer_size;
using geev_call::geev;

template <class T> class GeevBatcheigDevice final : public GeevImpl<T> {
    using R = typename scalar_traits<T>::real;
    static constexpr bool cplx = scalar_traits<T>::is_complex;

public:
    explicit GeevBatcheigDevice(const Options &opt) : s_(opt) {
        if (s_.backend() != BATCHEIG_BACKEND_CUDA)
            throw std::runtime_error("--memory device: the batcheig handle (--backend " + opt.backend +
                                     ") does not run on the CUDA backend");
        check_batcheig(batcheigSetStream(s_.handle(), reinterpret_cast<batcheigStream_t>(stream_.get())),
                       "batcheigSetStream");
    }
    ~GeevBatcheigDevice() override { release(); }
    std::string name() const override { return "batcheig-device"; }
    Memory memory() const override { return Memory::device; }
    bool full_warmup() const override { return true; }
    int algorithm() const override { return s_.algorithm(); }

    void prepare(const GeevProblem<T> &p) override {
        release();
        if (p.batch > std::numeric_limits<int>::max()) throw std::runtime_error("batch must fit in an int");
        p_ = p;
        const size_t nb = (size_t)p.n * p.batch, nnb = (size_t)p.n * p.n * p.batch;
        d_w1_ = cuda::DeviceArray<T>(nb);
        if (!cplx) d_w2_ = cuda::DeviceArray<R>(nb);
        if (p.vectors) d_vr_ = cuda::DeviceArray<T>(nnb);
        d_info_ = cuda::DeviceArray<int>(p.batch);
        // All-ones bytes are NaN in every floating-point type: stale results
        // cannot pass for new ones, and the pages are touched before timing.
        cuda::check(cudaMemset(d_w1_.get(), 0xff, d_w1_.bytes()), "cudaMemset");
        if (!cplx) cuda::check(cudaMemset(d_w2_.get(), 0xff, d_w2_.bytes()), "cudaMemset");
        if (p.vectors) cuda::check(cudaMemset(d_vr_.get(), 0xff, d_vr_.bytes()), "cudaMemset");
        cuda::check(cudaMemset(d_info_.get(), 0xff, d_info_.bytes()), "cudaMemset");

        // Pinned host copies of the outputs, written by fetch_outputs().
        h_w1_ = cuda::PinnedArray<T>(nb);
        if (!cplx) h_w2_ = cuda::PinnedArray<R>(nb);
        if (p.vectors) h_vr_ = cuda::PinnedArray<T>(nnb);
        h_info_ = cuda::PinnedArray<int>(p.batch);

        jr_ = p.vectors ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
        s_.check(buffer_size(s_.handle(), jr_, p.n, (const T *)nullptr, p.lda, d_w1_.get(), d_w2_.get(), d_vr_.get(),
                             p.vectors ? p.n : 1, &lwork_, s_.params(), (int)p.batch),
                 "geevBatched_bufferSize");
        work_ = cuda::DeviceArray<unsigned char>(lwork_);
        if (lwork_) cuda::check(cudaMemset(work_.get(), 0, lwork_), "cudaMemset");
        cuda::check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    }

    void run(T *A, long long count) override {
        s_.check(geev(s_.handle(), jr_, p_.n, A, p_.lda, d_w1_.get(), d_w2_.get(), d_vr_.get(), p_.vectors ? p_.n : 1,
                      work_.get(), lwork_, d_info_.get(), s_.params(), (int)count),
                 "geevBatched on device arrays");
    }

    double timed_run(T *A, long long count) override {
        timer_.start(stream_.get());
        run(A, count);
        return timer_.stop(stream_.get());
    }

    // The outputs a caller would bring back: eigenvalues, info, and the
    // vectors when computed.
    double fetch_outputs(long long count) override {
        const size_t nb = (size_t)p_.n * count, nnb = (size_t)p_.n * p_.n * count;
        const cudaStream_t s = stream_.get();
        timer_.start(s);
        cuda::check(cudaMemcpyAsync(h_w1_.get(), d_w1_.get(), nb * sizeof(T), cudaMemcpyDeviceToHost, s),
                    "cudaMemcpyAsync (eigenvalues)");
        if (!cplx)
            cuda::check(cudaMemcpyAsync(h_w2_.get(), d_w2_.get(), nb * sizeof(R), cudaMemcpyDeviceToHost, s),
                        "cudaMemcpyAsync (eigenvalues)");
        if (p_.vectors)
            cuda::check(cudaMemcpyAsync(h_vr_.get(), d_vr_.get(), nnb * sizeof(T), cudaMemcpyDeviceToHost, s),
                        "cudaMemcpyAsync (eigenvectors)");
        cuda::check(cudaMemcpyAsync(h_info_.get(), d_info_.get(), count * sizeof(int), cudaMemcpyDeviceToHost, s),
                    "cudaMemcpyAsync (info)");
        return timer_.stop(s);
    }

    std::complex<double> eigenvalue(long long b, int i) const override {
        const size_t k = (size_t)b * p_.n + i;
        if constexpr (cplx) return {(double)h_w1_[k].real(), (double)h_w1_[k].imag()};
        else return {(double)h_w1_[k], (double)h_w2_[k]};
    }
    int info(long long b) const override { return h_info_[b]; }

    void release() override {
        d_w1_ = {};
        d_w2_ = {};
        d_vr_ = {};
        d_info_ = {};
        work_ = {};
        lwork_ = 0;
        h_w1_ = {};
        h_w2_ = {};
        h_vr_ = {};
        h_info_ = {};
    }

private:
    cuda::Stream stream_;  // declared first: it outlives the handle that uses it
    cuda::EventTimer timer_;
    BatcheigSession s_;
    GeevProblem<T> p_;
    batcheigEigMode_t jr_ = BATCHEIG_EIG_MODE_NOVECTOR;
    cuda::DeviceArray<T> d_w1_, d_vr_;
    cuda::DeviceArray<R> d_w2_;
    cuda::DeviceArray<int> d_info_;
    cuda::DeviceArray<unsigned char> work_;
    size_t lwork_ = 0;
    cuda::PinnedArray<T> h_w1_, h_vr_;
    cuda::PinnedArray<R> h_w2_;
    cuda::PinnedArray<int> h_info_;
};

}  // namespace

template <class T> std::unique_ptr<GeevImpl<T>> make_geev_batcheig_device(const Options &opt) {
    return std::make_unique<GeevBatcheigDevice<T>>(opt);
}
template std::unique_ptr<GeevImpl<float>> make_geev_batcheig_device<float>(const Options &);
template std::unique_ptr<GeevImpl<double>> make_geev_batcheig_device<double>(const Options &);
template std::unique_ptr<GeevImpl<std::complex<float>>>
make_geev_batcheig_device<std::complex<float>>(const Options &);
template std::unique_ptr<GeevImpl<std::complex<double>>>
make_geev_batcheig_device<std::complex<double>>(const Options &);

}  // namespace bench
