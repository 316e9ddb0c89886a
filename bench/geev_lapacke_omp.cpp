// Anchor: what a user of LAPACK writes today -- an all-core OpenMP
// `#pragma omp parallel for` (dynamic chunks of 16 matrices) over LAPACKE_?geev_work, one matrix per
// iteration. To keep the anchor fair, everything LAPACKE would otherwise
// allocate per call is allocated once, outside the timed region: each thread
// gets its own optimal-size workspace (from the lwork = -1 query), and the
// *_work interface is used so no call allocates. With column-major data
// LAPACKE passes the arrays straight to LAPACK (no transposition).
// LAPACKE's complex types as std::complex (layout-compatible with C99 complex).
#include <complex>
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "geev_impl.hpp"

namespace bench {
namespace {

// One overload per precision with the same shape: w1 = wr or W, w2 = wi or unused.
lapack_int geev_work(char jobvl, char jobvr, int n, float *A, int lda, float *w1, float *w2, float *VL, int ldvl,
                     float *VR, int ldvr, float *work, lapack_int lwork, float *) {
    return LAPACKE_sgeev_work(LAPACK_COL_MAJOR, jobvl, jobvr, n, A, lda, w1, w2, VL, ldvl, VR, ldvr, work, lwork);
}
lapack_int geev_work(char jobvl, char jobvr, int n, double *A, int lda, double *w1, double *w2, double *VL, int ldvl,
                     double *VR, int ldvr, double *work, lapack_int lwork, double *) {
    return LAPACKE_dgeev_work(LAPACK_COL_MAJOR, jobvl, jobvr, n, A, lda, w1, w2, VL, ldvl, VR, ldvr, work, lwork);
}
lapack_int geev_work(char jobvl, char jobvr, int n, std::complex<float> *A, int lda, std::complex<float> *w1, float *,
                     std::complex<float> *VL, int ldvl, std::complex<float> *VR, int ldvr, std::complex<float> *work,
                     lapack_int lwork, float *rwork) {
    return LAPACKE_cgeev_work(LAPACK_COL_MAJOR, jobvl, jobvr, n, A, lda, w1, VL, ldvl, VR, ldvr, work, lwork, rwork);
}
lapack_int geev_work(char jobvl, char jobvr, int n, std::complex<double> *A, int lda, std::complex<double> *w1,
                     double *, std::complex<double> *VL, int ldvl, std::complex<double> *VR, int ldvr,
                     std::complex<double> *work, lapack_int lwork, double *rwork) {
    return LAPACKE_zgeev_work(LAPACK_COL_MAJOR, jobvl, jobvr, n, A, lda, w1, VL, ldvl, VR, ldvr, work, lwork, rwork);
}

template <class T> class GeevLapackeOmp final : public GeevImpl<T> {
    using R = typename scalar_traits<T>::real;
    static constexpr bool cplx = scalar_traits<T>::is_complex;

public:
    explicit GeevLapackeOmp(long long subset) : subset_(subset) {}
    std::string name() const override { return "lapacke"; }
    // --lapacke-subset K: the first K matrices, extrapolated linearly by the
    // workload, at least 4 per thread: a subset smaller than the threads
    // leaves some idle, and the extrapolation then overstates the loop's time.
    long long timed_count(long long batch) const override {
        if (subset_ <= 0) return batch;
        return std::min(batch, std::max<long long>(subset_, 4LL * omp_get_max_threads()));
    }

    void prepare(const GeevProblem<T> &p) override {
        release();
        p_ = p;
        jobvr_ = p.vectors ? 'V' : 'N';
        const size_t nb = (size_t)p.n * p.batch;
        const R nan = std::numeric_limits<R>::quiet_NaN();
        w1_.assign(nb, T(nan));
        if (!cplx) w2_.assign(nb, nan);
        if (p.vectors) vr_.assign((size_t)p.n * p.n * p.batch, T(nan));
        info_.assign(p.batch, -999);

        // Workspace query (lwork = -1) on a dummy matrix of the right size.
        std::vector<T> a((size_t)p.lda * p.n + 1), w(p.n + 1), v(p.vectors ? (size_t)p.n * p.n : 1);
        std::vector<R> wi(p.n + 1), rw(2 * (size_t)p.n + 1);
        T query{};
        const lapack_int q = geev_work('N', jobvr_, p.n, a.data(), p.lda, w.data(), wi.data(), nullptr, 1, v.data(),
                                       p.vectors ? p.n : 1, &query, -1, rw.data());
        if (q != 0) throw std::runtime_error("LAPACKE geev workspace query failed");
        lwork_ = std::max<lapack_int>(1, (lapack_int)std::real(query));

        const int threads = omp_get_max_threads();
        work_.assign(threads, std::vector<T>(lwork_));
        rwork_.assign(threads, std::vector<R>(2 * (size_t)p.n + 1));
    }

    void run(T *A, long long count) override {
        const int n = p_.n, lda = p_.lda, ldvr = p_.vectors ? n : 1;
        T *w1 = w1_.data();
        R *w2 = cplx ? nullptr : w2_.data();
        T *vr = p_.vectors ? vr_.data() : nullptr;
        int *info = info_.data();
        // Same scheduling as batcheig's host backend (dynamic chunks of 16), so
        // load balance is not what the comparison measures; a subset too small
        // to give every thread chunks of 16 takes chunks of 1, so that every
        // thread works (before session 86 a subset of 2 or 4 matrices ran on
        // one thread, and its extrapolation overstated the loop 3-10x).
        const int threads = omp_get_max_threads();
        const int chunk = count >= 16LL * threads ? 16 : 1;
#pragma omp parallel for schedule(dynamic, chunk)
        for (long long b = 0; b < count; ++b) {
            const int t = omp_get_thread_num();
            info[b] = (int)geev_work('N', jobvr_, n, A + (size_t)b * lda * n, lda, w1 + (size_t)b * n,
                                     w2 ? w2 + (size_t)b * n : nullptr, nullptr, 1,
                                     vr ? vr + (size_t)b * n * n : nullptr, ldvr, work_[t].data(), lwork_,
                                     rwork_[t].data());
        }
    }

    std::complex<double> eigenvalue(long long b, int i) const override {
        const size_t k = (size_t)b * p_.n + i;
        if constexpr (cplx) return {(double)w1_[k].real(), (double)w1_[k].imag()};
        else return {(double)w1_[k], (double)w2_[k]};
    }
    int info(long long b) const override { return info_[b]; }

    void release() override {
        std::vector<T>().swap(w1_);
        std::vector<R>().swap(w2_);
        std::vector<T>().swap(vr_);
        std::vector<int>().swap(info_);
        work_.clear();
        rwork_.clear();
    }

private:
    long long subset_ = 0;
    GeevProblem<T> p_;
    char jobvr_ = 'N';
    std::vector<T> w1_, vr_;
    std::vector<R> w2_;
    std::vector<int> info_;
    lapack_int lwork_ = 1;
    std::vector<std::vector<T>> work_;
    std::vector<std::vector<R>> rwork_;
};

// Entry i of eigenvector j, in double. Real types: LAPACK stores a complex
// pair (wi[j] > 0, wi[j+1] < 0) as the real and imaginary parts in columns j
// and j+1, the vector of j+1 being the conjugate of j's.
template <class T>
std::complex<double> vector_entry(const std::vector<T> &V, const std::vector<std::complex<double>> &mu, int n, int i,
                                  int j) {
    if constexpr (scalar_traits<T>::is_complex) {
        const T x = V[(size_t)j * n + i];
        return {(double)x.real(), (double)x.imag()};
    } else {
        if (mu[j].imag() == 0) return {(double)V[(size_t)j * n + i], 0.0};
        const bool first = mu[j].imag() > 0;
        const int c = first ? j : j - 1;
        const double re = V[(size_t)c * n + i], im = V[(size_t)(c + 1) * n + i];
        return {re, first ? im : -im};
    }
}

}  // namespace

template <class T>
int geev_reference(const T *A, int n, int lda, std::vector<std::complex<double>> &mu, std::vector<double> &kappa) {
    using R = typename scalar_traits<T>::real;
    std::vector<T> a((size_t)n * n), VL((size_t)n * n), VR((size_t)n * n), w(n);
    std::vector<R> wi(n), rw(2 * (size_t)n + 1);
    for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) a[(size_t)j * n + i] = A[(size_t)j * lda + i];
    mu.assign(n, 0.0);
    kappa.assign(n, std::numeric_limits<double>::infinity());
    T query{};
    lapack_int info = geev_work('V', 'V', n, a.data(), n, w.data(), wi.data(), VL.data(), n, VR.data(), n, &query,
                                -1, rw.data());
    if (info != 0) return (int)info;
    std::vector<T> work(std::max<lapack_int>(1, (lapack_int)std::real(query)));
    info = geev_work('V', 'V', n, a.data(), n, w.data(), wi.data(), VL.data(), n, VR.data(), n, work.data(),
                     (lapack_int)work.size(), rw.data());
    if (info != 0) return (int)info;
    for (int j = 0; j < n; ++j) {
        if constexpr (scalar_traits<T>::is_complex) mu[j] = {(double)w[j].real(), (double)w[j].imag()};
        else mu[j] = {(double)w[j], (double)wi[j]};
    }
    for (int j = 0; j < n; ++j) {
        std::complex<double> s = 0;
        for (int i = 0; i < n; ++i) s += std::conj(vector_entry(VL, mu, n, i, j)) * vector_entry(VR, mu, n, i, j);
        if (std::abs(s) > 0) kappa[j] = 1.0 / std::abs(s);
    }
    return 0;
}
template int geev_reference<float>(const float *, int, int, std::vector<std::complex<double>> &,
                                   std::vector<double> &);
template int geev_reference<double>(const double *, int, int, std::vector<std::complex<double>> &,
                                    std::vector<double> &);
template int geev_reference<std::complex<float>>(const std::complex<float> *, int, int,
                                                 std::vector<std::complex<double>> &, std::vector<double> &);
template int geev_reference<std::complex<double>>(const std::complex<double> *, int, int,
                                                  std::vector<std::complex<double>> &, std::vector<double> &);

template <class T> std::unique_ptr<GeevImpl<T>> make_geev_lapacke_omp(const Options &opt) {
    return std::make_unique<GeevLapackeOmp<T>>(opt.lapacke_subset);
}
template std::unique_ptr<GeevImpl<float>> make_geev_lapacke_omp<float>(const Options &);
template std::unique_ptr<GeevImpl<double>> make_geev_lapacke_omp<double>(const Options &);
template std::unique_ptr<GeevImpl<std::complex<float>>> make_geev_lapacke_omp<std::complex<float>>(const Options &);
template std::unique_ptr<GeevImpl<std::complex<double>>> make_geev_lapacke_omp<std::complex<double>>(const Options &);

}  // namespace bench
