// Anchor: an all-core OpenMP loop over LAPACKE ?syevd_work / ?heevd_work
// (divide and conquer, the fastest LAPACK driver for all eigenvectors), one
// matrix per iteration, schedule(dynamic, 16) as batcheig's host backend;
// per-thread workspace from the lwork = -1 query allocated outside the timed
// region, the _work interface so no call allocates, OpenBLAS on one thread
// (main.cpp). The accuracy reference of the syevj workload.
#include <complex>
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>
#include <omp.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

#include "syevj_impl.hpp"

namespace bench {
namespace {

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
    void prepare(const SyevjProblem &p) override {
        release();
        p_ = p;
        w_.assign((size_t)p.n * p.batch, std::numeric_limits<R>::quiet_NaN());  // touches the pages
        info_.assign(p.batch, -999);
        jobz_ = p.vectors ? 'V' : 'N';
        std::vector<T> a((size_t)p.n * p.n + 1);
        std::vector<R> w(p.n + 1);
        T wq{};
        R rq{};
        lapack_int iq = 0;
        if (evd_work(jobz_, p.n, a.data(), w.data(), &wq, -1, &rq, -1, &iq, -1) != 0)
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
        A_ = A;
        const int n = p_.n;
        R *w = w_.data();
        int *info = info_.data();
#pragma omp parallel for schedule(dynamic, 16)
        for (long long b = 0; b < count; ++b) {
            const int t = omp_get_thread_num();
            info[b] = (int)evd_work(jobz_, n, A + (size_t)b * n * n, w + (size_t)b * n, work_[t].data(), lwork_,
                                    rwork_[t].data(), lrwork_, iwork_[t].data(), liwork_);
        }
    }
    double eigenvalue(long long b, int i) const override { return (double)w_[(size_t)b * p_.n + i]; }
    int info(long long b) const override { return info_[b]; }
    const T *vectors(long long b) const override {
        return p_.vectors && A_ ? A_ + (size_t)b * p_.n * p_.n : nullptr;
    }
    void release() override {
        std::vector<R>().swap(w_);
        std::vector<int>().swap(info_);
        work_.clear();
        rwork_.clear();
        iwork_.clear();
        A_ = nullptr;
    }

private:
    SyevjProblem p_;
    char jobz_ = 'N';
    lapack_int lwork_ = 1, lrwork_ = 1, liwork_ = 1;
    std::vector<R> w_;
    std::vector<int> info_;
    std::vector<std::vector<T>> work_;
    std::vector<std::vector<R>> rwork_;
    std::vector<std::vector<lapack_int>> iwork_;
    const T *A_ = nullptr;
};

}  // namespace

template <class T> std::unique_ptr<SyevjImpl<T>> make_syevj_lapacke_omp(const Options &) {
    return std::make_unique<SyevdLapackeOmp<T>>();
}
template std::unique_ptr<SyevjImpl<float>> make_syevj_lapacke_omp<float>(const Options &);
template std::unique_ptr<SyevjImpl<double>> make_syevj_lapacke_omp<double>(const Options &);
template std::unique_ptr<SyevjImpl<std::complex<float>>> make_syevj_lapacke_omp<std::complex<float>>(const Options &);
template std::unique_ptr<SyevjImpl<std::complex<double>>> make_syevj_lapacke_omp<std::complex<double>>(const Options &);

}  // namespace bench
