// Workloads `syevj` and `syevj-block`: eigenvalues and (with --vectors)
// eigenvectors of a batch of random symmetric (precision s, d) or Hermitian
// (c, z: heevj) matrices, entries uniform in [-1, 1] (real and imaginary
// parts), real diagonal, generated once per size. batcheig
// (?syevjBatched / ?heevjBatched, one call, workspace from the _bufferSize
// query; `syevj` lets the dispatcher choose the Jacobi variant, `syevj-block`
// forces the one-sided block variant) and the anchor (an all-core OpenMP
// loop over LAPACKE ?syevd_work / ?heevd_work, divide and conquer, per-thread
// workspace allocated outside the timed region) run on copies of the same
// data in the same process.
//
// Without --batch the workloads are used: 1000 matrices for n <= 32,
// 200 for n > 32 (default sizes 4, 8, 16, 24, 32, 64, 128, 256, 512).
// GFLOP/s counts LAPACK's work, not Jacobi's: 4/3 n^3 (eigenvalues only) or
// 9 n^3 (with vectors) real flops per matrix, x4 for complex types, so the
// column compares useful work; Jacobi executes several times more flops.
#include <batcheig.h>

#include <complex>
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>

#include "workloads.hpp"

namespace bench {
namespace {

struct SyevjCase {
    int n = 0;
    long long batch = 0;
    bool vectors = false;
};

template <class T> class SyevjImpl {
public:
    using R = typename scalar_traits<T>::real;
    virtual ~SyevjImpl() = default;
    virtual std::string name() const = 0;
    virtual void prepare(const SyevjCase &c) = 0;  // not timed
    virtual void run(T *A, long long count) = 0;   // timed; A is overwritten
    const R *eigenvalues(long long b) const { return w_.data() + (size_t)b * c_.n; }
    int info(long long b) const { return info_[b]; }
    virtual void release() {
        std::vector<R>().swap(w_);
        std::vector<int>().swap(info_);
    }

protected:
    SyevjCase c_;
    std::vector<R> w_;
    std::vector<int> info_;
    void prepare_outputs(const SyevjCase &c) {
        c_ = c;
        w_.assign((size_t)c.n * c.batch, std::numeric_limits<R>::quiet_NaN());  // touches the pages
        info_.assign(c.batch, -999);
    }
};

void check(batcheigStatus_t st, const char *what) {
    if (st != BATCHEIG_STATUS_SUCCESS)
        throw std::runtime_error(std::string(what) + " failed: " + batcheigGetStatusString(st));
}

// ---- batcheig -------------------------------------------------------------------
batcheigStatus_t syevj_size(batcheigHandle_t h, batcheigEigMode_t j, int n, const float *A, const float *W,
                            size_t *lw, batcheigParams_t p, int b) {
    return batcheigSsyevjBatched_bufferSize(h, j, BATCHEIG_FILL_MODE_LOWER, n, A, n, W, lw, p, b);
}
batcheigStatus_t syevj_size(batcheigHandle_t h, batcheigEigMode_t j, int n, const double *A, const double *W,
                            size_t *lw, batcheigParams_t p, int b) {
    return batcheigDsyevjBatched_bufferSize(h, j, BATCHEIG_FILL_MODE_LOWER, n, A, n, W, lw, p, b);
}
batcheigStatus_t syevj_size(batcheigHandle_t h, batcheigEigMode_t j, int n, const std::complex<float> *A,
                            const float *W, size_t *lw, batcheigParams_t p, int b) {
    return batcheigCheevjBatched_bufferSize(h, j, BATCHEIG_FILL_MODE_LOWER, n,
                                            reinterpret_cast<const batcheigComplex *>(A), n, W, lw, p, b);
}
batcheigStatus_t syevj_size(batcheigHandle_t h, batcheigEigMode_t j, int n, const std::complex<double> *A,
                            const double *W, size_t *lw, batcheigParams_t p, int b) {
    return batcheigZheevjBatched_bufferSize(h, j, BATCHEIG_FILL_MODE_LOWER, n,
                                            reinterpret_cast<const batcheigDoubleComplex *>(A), n, W, lw, p, b);
}
batcheigStatus_t syevj_call(batcheigHandle_t h, batcheigEigMode_t j, int n, float *A, float *W, void *wk, size_t lw,
                            int *info, batcheigParams_t p, int b) {
    return batcheigSsyevjBatched(h, j, BATCHEIG_FILL_MODE_LOWER, n, A, n, W, wk, lw, info, p, b);
}
batcheigStatus_t syevj_call(batcheigHandle_t h, batcheigEigMode_t j, int n, double *A, double *W, void *wk, size_t lw,
                            int *info, batcheigParams_t p, int b) {
    return batcheigDsyevjBatched(h, j, BATCHEIG_FILL_MODE_LOWER, n, A, n, W, wk, lw, info, p, b);
}
batcheigStatus_t syevj_call(batcheigHandle_t h, batcheigEigMode_t j, int n, std::complex<float> *A, float *W,
                            void *wk, size_t lw, int *info, batcheigParams_t p, int b) {
    return batcheigCheevjBatched(h, j, BATCHEIG_FILL_MODE_LOWER, n, reinterpret_cast<batcheigComplex *>(A), n, W, wk,
                                 lw, info, p, b);
}
batcheigStatus_t syevj_call(batcheigHandle_t h, batcheigEigMode_t j, int n, std::complex<double> *A, double *W,
                            void *wk, size_t lw, int *info, batcheigParams_t p, int b) {
    return batcheigZheevjBatched(h, j, BATCHEIG_FILL_MODE_LOWER, n, reinterpret_cast<batcheigDoubleComplex *>(A), n,
                                 W, wk, lw, info, p, b);
}

template <class T> class SyevjBatcheig final : public SyevjImpl<T> {
public:
    SyevjBatcheig(const Options &opt, batcheigAlgorithm_t alg) : alg_(alg) {
        batcheigBackend_t b = BATCHEIG_BACKEND_HOST;
        if (opt.backend == "auto") b = BATCHEIG_BACKEND_AUTO;
        else if (opt.backend == "cuda") b = BATCHEIG_BACKEND_CUDA;
        else if (opt.backend != "host") throw std::runtime_error("unknown backend '" + opt.backend + "'");
        check(batcheigCreateWithBackend(&h_, b), "batcheigCreateWithBackend");
        check(batcheigCreateParams(&p_), "batcheigCreateParams");
        check(batcheigParamsSetAlgorithm(p_, alg), "batcheigParamsSetAlgorithm");
    }
    ~SyevjBatcheig() override {
        release();
        batcheigDestroyParams(p_);
        batcheigDestroy(h_);
    }
    std::string name() const override { return alg_ == BATCHEIG_ALG_AUTO ? "batcheig" : "batcheig-block"; }
    void prepare(const SyevjCase &c) override {
        release();
        if (c.batch > std::numeric_limits<int>::max()) throw std::runtime_error("batch must fit in an int");
        this->prepare_outputs(c);
        sweeps_.assign(c.batch, 0);
        resid_.assign(c.batch, 0.0);
        check(batcheigParamsSetJacobiOutputs(p_, sweeps_.data(), resid_.data()), "batcheigParamsSetJacobiOutputs");
        jobz_ = c.vectors ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
        check(syevj_size(h_, jobz_, c.n, (const T *)nullptr, this->w_.data(), &lwork_, p_, (int)c.batch),
              "syevjBatched_bufferSize");
        if (lwork_ > 0) {
            work_ = std::aligned_alloc(64, (lwork_ + 63) / 64 * 64);
            if (!work_) throw std::runtime_error("cannot allocate the batcheig workspace");
            std::memset(work_, 0, lwork_);
        }
    }
    void run(T *A, long long count) override {
        check(syevj_call(h_, jobz_, this->c_.n, A, this->w_.data(), work_, lwork_, this->info_.data(), p_, (int)count),
              "syevjBatched");
    }
    double mean_sweeps(long long count) const {
        double s = 0;
        for (long long b = 0; b < count; ++b) s += sweeps_[b];
        return count ? s / (double)count : 0.0;
    }
    void release() override {
        SyevjImpl<T>::release();
        std::free(work_);
        work_ = nullptr;
        lwork_ = 0;
    }

private:
    batcheigAlgorithm_t alg_;
    batcheigHandle_t h_ = nullptr;
    batcheigParams_t p_ = nullptr;
    batcheigEigMode_t jobz_ = BATCHEIG_EIG_MODE_NOVECTOR;
    std::vector<int> sweeps_;
    std::vector<double> resid_;
    void *work_ = nullptr;
    size_t lwork_ = 0;
};

// ---- anchor: OpenMP loop over LAPACKE ?syevd_work / ?heevd_work --------------------
lapack_int evd_work(char jobz, int n, float *a, float *w, float *work, lapack_int lwork, float *, lapack_int,
                    lapack_int *iwork, lapack_int liwork) {
    return LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, jobz, 'L', n, a, n, w, work, lwork, iwork, liwork);
}
lapack_int evd_work(char jobz, int n, double *a, double *w, double *work, lapack_int lwork, double *, lapack_int,
                    lapack_int *iwork, lapack_int liwork) {
    return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, 'L', n, a, n, w, work, lwork, iwork, liwork);
}
lapack_int evd_work(char jobz, int n, std::complex<float> *a, float *w, std::complex<float> *work, lapack_int lwork,
                    float *rwork, lapack_int lrwork, lapack_int *iwork, lapack_int liwork) {
    return LAPACKE_cheevd_work(LAPACK_COL_MAJOR, jobz, 'L', n, a, n, w, work, lwork, rwork, lrwork, iwork, liwork);
}
lapack_int evd_work(char jobz, int n, std::complex<double> *a, double *w, std::complex<double> *work, lapack_int lwork,
                    double *rwork, lapack_int lrwork, lapack_int *iwork, lapack_int liwork) {
    return LAPACKE_zheevd_work(LAPACK_COL_MAJOR, jobz, 'L', n, a, n, w, work, lwork, rwork, lrwork, iwork, liwork);
}

template <class T> class SyevdLapackeOmp final : public SyevjImpl<T> {
    using R = typename scalar_traits<T>::real;

public:
    std::string name() const override { return "lapacke"; }
    void prepare(const SyevjCase &c) override {
        release();
        this->prepare_outputs(c);
        jobz_ = c.vectors ? 'V' : 'N';
        std::vector<T> a((size_t)c.n * c.n + 1);
        std::vector<R> w(c.n + 1);
        T wq{};
        R rq{};
        lapack_int iq = 0;
        if (evd_work(jobz_, c.n, a.data(), w.data(), &wq, -1, &rq, -1, &iq, -1) != 0)
            throw std::runtime_error("LAPACKE ?syevd/?heevd workspace query failed");
        lwork_ = std::max<lapack_int>(1, (lapack_int)std::real(wq));
        lrwork_ = std::max<lapack_int>(1, (lapack_int)rq);
        liwork_ = std::max<lapack_int>(1, iq);
        const int threads = omp_get_max_threads();
        work_.assign(threads, std::vector<T>(lwork_));
        rwork_.assign(threads, std::vector<R>(lrwork_));
        iwork_.assign(threads, std::vector<lapack_int>(liwork_));
    }
    void run(T *A, long long count) override {
        const int n = this->c_.n;
        R *w = this->w_.data();
        int *info = this->info_.data();
        // Same scheduling as batcheig's host backend (dynamic chunks of 16).
#pragma omp parallel for schedule(dynamic, 16)
        for (long long b = 0; b < count; ++b) {
            const int t = omp_get_thread_num();
            info[b] = (int)evd_work(jobz_, n, A + (size_t)b * n * n, w + (size_t)b * n, work_[t].data(), lwork_,
                                    rwork_[t].data(), lrwork_, iwork_[t].data(), liwork_);
        }
    }
    void release() override {
        SyevjImpl<T>::release();
        work_.clear();
        rwork_.clear();
        iwork_.clear();
    }

private:
    char jobz_ = 'N';
    lapack_int lwork_ = 1, lrwork_ = 1, liwork_ = 1;
    std::vector<std::vector<T>> work_;
    std::vector<std::vector<R>> rwork_;
    std::vector<std::vector<lapack_int>> iwork_;
};

// ---- the workload ---------------------------------------------------------------
template <class T> void fill_hermitian(std::vector<T> &A, int n, long long batch, std::uint64_t seed) {
    using R = typename scalar_traits<T>::real;
    const size_t per = (size_t)n * n;
#pragma omp parallel for schedule(static)
    for (long long b = 0; b < batch; ++b) {
        T *M = A.data() + (size_t)b * per;
        for (int j = 0; j < n; ++j)
            for (int i = j; i < n; ++i) {
                const std::uint64_t k = (std::uint64_t)j * n + i;
                T x;
                if constexpr (scalar_traits<T>::is_complex)
                    x = T((R)uniform_pm1(seed, b, 2 * k), i == j ? R(0) : (R)uniform_pm1(seed, b, 2 * k + 1));
                else
                    x = (T)uniform_pm1(seed, b, k);
                M[(size_t)j * n + i] = x;
                if constexpr (scalar_traits<T>::is_complex) M[(size_t)i * n + j] = std::conj(x);
                else M[(size_t)i * n + j] = x;
            }
    }
}

template <class T> double norm1(const T *A, int n) {
    double best = 0;
    for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int i = 0; i < n; ++i) s += std::abs(A[(size_t)j * n + i]);
        best = std::max(best, s);
    }
    return best;
}

template <class T> void run_syevj_t(const Options &opt, Report &report, batcheigAlgorithm_t alg, const char *wname) {
    using R = typename scalar_traits<T>::real;
    const std::vector<int> ns = opt.ns.empty() ? std::vector<int>{4, 8, 16, 24, 32, 64, 128, 256, 512} : opt.ns;
    const bool default_batch = opt.batch == Options{}.batch;  // --batch not given: the workloads
    std::vector<std::unique_ptr<SyevjImpl<T>>> impls;
    impls.push_back(std::make_unique<SyevjBatcheig<T>>(opt, alg));
    impls.push_back(std::make_unique<SyevdLapackeOmp<T>>());
    std::vector<std::string> names;
    for (auto &i : impls) names.push_back(i->name());
    const double per_flop = opt.vectors ? 9.0 : 4.0 / 3.0;
    char title[512];
    std::snprintf(title, sizeof title,
                  "%s (%s), precision %c, %s, batch %s, uniform[-1,1] Hermitian, %d threads, median of %d reps; "
                  "anchor: OpenMP loop over LAPACKE_%c%s_work; GFLOP/s counts LAPACK's ~%g n^3 flops/matrix%s",
                  wname, scalar_traits<T>::is_complex ? "heevj" : "syevj", precision_char<T>(),
                  opt.vectors ? "eigenvalues + eigenvectors" : "eigenvalues only",
                  default_batch ? "1000 (n<=32) / 200 (n>32)" : std::to_string(opt.batch).c_str(),
                  omp_get_max_threads(), opt.reps, precision_char<T>(), scalar_traits<T>::is_complex ? "heevd" : "syevd",
                  per_flop * scalar_traits<T>::flop_factor, scalar_traits<T>::is_complex ? " (complex: 4x real)" : "");
    report.begin(title, names);

    for (int n : ns) {
        SyevjCase c;
        c.n = n;
        c.batch = default_batch ? (n <= 32 ? 1000 : 200) : opt.batch;
        c.vectors = opt.vectors;
        const size_t per = (size_t)n * n;
        std::vector<T> A0(per * c.batch), Aw(per * c.batch);
        fill_hermitian(A0, n, c.batch, opt.seed + (std::uint64_t)n);

        CaseResult r;
        r.workload = wname;
        r.precision = precision_char<T>();
        r.n = n;
        r.batch = c.batch;
        r.vectors = c.vectors;
        r.threads = omp_get_max_threads();
        r.reps = opt.reps;
        r.flops_per_matrix = per_flop * n * (double)n * n * scalar_traits<T>::flop_factor;
        for (auto &impl : impls) {
            impl->prepare(c);
            const long long w = std::min<long long>(c.batch, std::max<long long>(opt.warmup, 1));
            std::memcpy(Aw.data(), A0.data(), per * w * sizeof(T));
            impl->run(Aw.data(), w);
            std::vector<double> t;
            for (int rep = 0; rep < opt.reps; ++rep) {
                std::memcpy(Aw.data(), A0.data(), per * c.batch * sizeof(T));  // untimed: both overwrite A
                const auto t0 = Clock::now();
                impl->run(Aw.data(), c.batch);
                t.push_back(seconds(t0, Clock::now()));
            }
            Measurement m;
            m.impl = impl->name();
            m.median_s = median(t);
            m.min_s = *std::min_element(t.begin(), t.end());
            for (long long b = 0; b < c.batch; ++b) m.info_nonzero += impl->info(b) != 0;
            r.m.push_back(m);
        }
        // Accuracy: max_i |lambda_i - lambda_i(LAPACKE)| / (||A||_1 u), both ascending.
        const double u = std::numeric_limits<R>::epsilon() / 2;
        const int checks = (int)std::min<long long>(opt.check, c.batch);
        double worst = 0;
        for (int s = 0; s < checks; ++s) {
            const long long b = (long long)((double)s * c.batch / checks);
            if (impls[0]->info(b) != 0 || impls[1]->info(b) != 0) continue;
            const double an = norm1(A0.data() + (size_t)b * per, n);
            for (int i = 0; i < n; ++i) {
                const double d = std::abs((double)impls[0]->eigenvalues(b)[i] - (double)impls[1]->eigenvalues(b)[i]);
                worst = std::max(worst, std::isnan(d) ? std::numeric_limits<double>::infinity() : d / (an * u));
            }
        }
        r.m[0].accuracy = worst;
        r.m[1].reference = true;
        r.m[0].algorithm = (int)alg;
        if (auto *bj = dynamic_cast<SyevjBatcheig<T> *>(impls[0].get()))
            r.accuracy_note = "mean sweeps " + std::to_string(bj->mean_sweeps(c.batch));
        for (auto &impl : impls) impl->release();
        report.add(r);
        std::printf("       (n=%d: %s)\n", n, r.accuracy_note.c_str());
    }
}

void run_syevj_alg(const Options &opt, Report &report, batcheigAlgorithm_t alg, const char *wname) {
    switch (opt.precision) {
    case 's': run_syevj_t<float>(opt, report, alg, wname); break;
    case 'd': run_syevj_t<double>(opt, report, alg, wname); break;
    case 'c': run_syevj_t<std::complex<float>>(opt, report, alg, wname); break;
    case 'z': run_syevj_t<std::complex<double>>(opt, report, alg, wname); break;
    default: throw std::runtime_error(std::string("unknown precision '") + opt.precision + "'");
    }
}

}  // namespace

void run_syevj(const Options &opt, Report &report) { run_syevj_alg(opt, report, BATCHEIG_ALG_AUTO, "syevj"); }
void run_syevj_block(const Options &opt, Report &report) {
    run_syevj_alg(opt, report, BATCHEIG_ALG_JACOBI_HOST_BLOCK, "syevj-block");
}

}  // namespace bench
