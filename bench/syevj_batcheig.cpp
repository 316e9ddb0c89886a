// syevj / heevj through batcheig on host arrays: one batched call per run,
// workspace from the _bufferSize query supplied by the caller (so the call
// allocates nothing), params carrying --algorithm and the per-matrix sweep
// counts (batcheigParamsSetJacobiOutputs, host arrays like the others). On a
// CUDA handle the library streams the batch through its own device buffers
// (--chunk, --streams, --devices: batcheig_session.hpp) and returns when the
// results are in host memory, so the wall-clock time includes every
// transfer. W, info, sweeps and residuals are pageable std::vectors, or with
// --host-memory pinned cudaMallocHost'ed like the workload's A
// (host_streaming.hpp).
#include <batcheig.h>

#include <cstdlib>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "batcheig_session.hpp"
#include "host_streaming.hpp"
#include "syevj_batcheig_call.hpp"
#include "syevj_impl.hpp"

namespace bench {
namespace {

using syevj_call::buffer_size;
using syevj_call::syevj;

template <class T> class SyevjBatcheig final : public SyevjImpl<T> {
    using R = typename scalar_traits<T>::real;

public:
    SyevjBatcheig(const Options &opt, const std::string &suffix)
        : s_(opt), suffix_(suffix), w_(pinned(opt)), info_(pinned(opt)), sweeps_(pinned(opt)), resid_(pinned(opt)) {}
    ~SyevjBatcheig() override { release(); }
    std::string name() const override {
        return (s_.algorithm() == BATCHEIG_ALG_JACOBI_HOST_BLOCK ? "batcheig-block" : "batcheig") + suffix_;
    }
    // On a CUDA handle the first call of a size may set up device buffers.
    bool full_warmup() const override { return s_.backend() == BATCHEIG_BACKEND_CUDA; }
    int algorithm() const override { return s_.algorithm(); }
    bool host_arrays_on_gpu() const override { return s_.backend() == BATCHEIG_BACKEND_CUDA; }

    void prepare(const SyevjProblem &p) override {
        release();
        if (p.batch > std::numeric_limits<int>::max()) throw std::runtime_error("batch must fit in an int");
        p_ = p;
        w_.assign((size_t)p.n * p.batch, std::numeric_limits<R>::quiet_NaN());  // touches the pages
        info_.assign(p.batch, -999);
        sweeps_.assign(p.batch, -1);
        resid_.assign(p.batch, 0.0);
        check_batcheig(batcheigParamsSetJacobiOutputs(s_.params(), sweeps_.data(), resid_.data()),
                       "batcheigParamsSetJacobiOutputs");
        jobz_ = p.vectors ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
        s_.check(buffer_size(s_.handle(), jobz_, p.n, (const T *)nullptr, w_.data(), &lwork_, s_.params(), (int)p.batch),
                 "syevjBatched_bufferSize");
        if (lwork_ > 0) {
            work_ = std::aligned_alloc(64, (lwork_ + 63) / 64 * 64);
            if (!work_) throw std::runtime_error("cannot allocate the batcheig workspace");
            std::memset(work_, 0, lwork_);
        }
    }
    void run(T *A, long long count) override {
        A_ = A;
        s_.check(syevj(s_.handle(), jobz_, p_.n, A, w_.data(), work_, lwork_, info_.data(), s_.params(), (int)count),
                 "syevjBatched on host arrays");
    }
    double eigenvalue(long long b, int i) const override { return (double)w_[(size_t)b * p_.n + i]; }
    int info(long long b) const override { return info_[b]; }
    const T *vectors(long long b) const override {
        return p_.vectors && A_ ? A_ + (size_t)b * p_.n * p_.n : nullptr;
    }
    double mean_sweeps(long long count) const override {
        double s = 0;
        for (long long b = 0; b < count; ++b) {
            if (sweeps_[b] < 0) return -1;  // not written
            s += sweeps_[b];
        }
        return count ? s / (double)count : -1;
    }
    void release() override {
        batcheigParamsSetJacobiOutputs(s_.params(), nullptr, nullptr);
        w_.clear();
        info_.clear();
        sweeps_.clear();
        resid_.clear();
        std::free(work_);
        work_ = nullptr;
        lwork_ = 0;
        A_ = nullptr;
    }

private:
    static bool pinned(const Options &opt) { return opt.host_memory == "pinned"; }

    BatcheigSession s_;
    std::string suffix_;
    SyevjProblem p_;
    batcheigEigMode_t jobz_ = BATCHEIG_EIG_MODE_NOVECTOR;
    HostArray<R> w_;
    HostArray<int> info_, sweeps_;
    HostArray<double> resid_;
    void *work_ = nullptr;
    size_t lwork_ = 0;
    const T *A_ = nullptr;
};

}  // namespace

template <class T>
std::unique_ptr<SyevjImpl<T>> make_syevj_batcheig(const Options &opt, const std::string &suffix) {
    return std::make_unique<SyevjBatcheig<T>>(opt, suffix);
}
template std::unique_ptr<SyevjImpl<float>> make_syevj_batcheig<float>(const Options &, const std::string &);
template std::unique_ptr<SyevjImpl<double>> make_syevj_batcheig<double>(const Options &, const std::string &);
template std::unique_ptr<SyevjImpl<std::complex<float>>>
make_syevj_batcheig<std::complex<float>>(const Options &, const std::string &);
template std::unique_ptr<SyevjImpl<std::complex<double>>>
make_syevj_batcheig<std::complex<double>>(const Options &, const std::string &);

}  // namespace bench
