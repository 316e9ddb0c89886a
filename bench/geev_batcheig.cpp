// geev through batcheig on host arrays: one batched call per run, workspace
// from the _bufferSize query supplied by the caller (so the call allocates
// nothing), params carrying --algorithm. On a CUDA handle the library streams
// the batch through its own device buffers (--chunk, --streams, --devices:
// batcheig_session.hpp) and returns when the results are in host memory, so
// the wall-clock time includes every transfer. The outputs (wr, wi or W, VR
// with --vectors, info) are pageable std::vectors, or with --host-memory
// pinned cudaMallocHost'ed like the workload's A (host_streaming.hpp).
#include <batcheig.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "geev_batcheig_call.hpp"
#include "geev_impl.hpp"
#include "host_streaming.hpp"

namespace bench {
namespace {

using geev_call::buffer_size;
using geev_call::geev;

template <class T> class GeevBatcheig final : public GeevImpl<T> {
    using R = typename scalar_traits<T>::real;
    static constexpr bool cplx = scalar_traits<T>::is_complex;

public:
    GeevBatcheig(const Options &opt, const std::string &name)
        : s_(opt), name_(name), w1_(pinned(opt)), vr_(pinned(opt)), w2_(pinned(opt)), info_(pinned(opt)) {}
    ~GeevBatcheig() override { release(); }
    std::string name() const override { return name_; }
    // On a CUDA handle the first call of a size sets up the handle's staging buffers.
    bool full_warmup() const override { return s_.backend() == BATCHEIG_BACKEND_CUDA; }
    int algorithm() const override { return s_.algorithm(); }
    bool host_arrays_on_gpu() const override { return s_.backend() == BATCHEIG_BACKEND_CUDA; }

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
        s_.check(buffer_size(s_.handle(), jr_, p.n, (const T *)nullptr, p.lda, w1_.data(), cplx ? nullptr : w2_.data(),
                             p.vectors ? vr_.data() : nullptr, p.vectors ? p.n : 1, &lwork_, s_.params(), (int)p.batch),
                 "geevBatched_bufferSize");
        if (lwork_ > 0) {
            work_ = std::aligned_alloc(64, (lwork_ + 63) / 64 * 64);
            if (!work_) throw std::runtime_error("cannot allocate the batcheig workspace");
            std::memset(work_, 0, lwork_);
        }
    }

    void run(T *A, long long count) override {
        s_.check(geev(s_.handle(), jr_, p_.n, A, p_.lda, w1_.data(), cplx ? nullptr : w2_.data(),
                      p_.vectors ? vr_.data() : nullptr, p_.vectors ? p_.n : 1, work_, lwork_, info_.data(),
                      s_.params(), (int)count),
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
        w1_.clear();
        w2_.clear();
        vr_.clear();
        info_.clear();
    }

private:
    static bool pinned(const Options &opt) { return opt.host_memory == "pinned"; }

    BatcheigSession s_;
    std::string name_;
    GeevProblem<T> p_;
    batcheigEigMode_t jr_ = BATCHEIG_EIG_MODE_NOVECTOR;
    HostArray<T> w1_, vr_;
    HostArray<R> w2_;
    HostArray<int> info_;
    void *work_ = nullptr;
    size_t lwork_ = 0;
};

}  // namespace

template <class T> std::unique_ptr<GeevImpl<T>> make_geev_batcheig(const Options &opt, const std::string &name) {
    return std::make_unique<GeevBatcheig<T>>(opt, name);
}
template std::unique_ptr<GeevImpl<float>> make_geev_batcheig<float>(const Options &, const std::string &);
template std::unique_ptr<GeevImpl<double>> make_geev_batcheig<double>(const Options &, const std::string &);
template std::unique_ptr<GeevImpl<std::complex<float>>>
make_geev_batcheig<std::complex<float>>(const Options &, const std::string &);
template std::unique_ptr<GeevImpl<std::complex<double>>>
make_geev_batcheig<std::complex<double>>(const Options &, const std::string &);

}  // namespace bench
