// Workload `geev`: eigenvalues (optionally right eigenvectors) of a batch of
// random dense non-symmetric matrices, entries uniform in [-1, 1] (real and
// imaginary parts for complex types), generated once per size. batcheig and
// every anchor run on copies of the same data in the same process.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "geev_impl.hpp"
#include "workloads.hpp"

namespace bench {
namespace {

// The implementations compared, batcheig first; the first anchor is the
// accuracy reference (LAPACKE). Later anchors (cuSOLVER) go at the end.
template <class T> std::vector<std::unique_ptr<GeevImpl<T>>> make_geev_impls(const Options &opt) {
    std::vector<std::unique_ptr<GeevImpl<T>>> v;
    v.push_back(make_geev_batcheig<T>(opt));
    v.push_back(make_geev_lapacke_omp<T>(opt));
    return v;
}

template <class T> void fill(std::vector<T> &A, int n, int lda, long long batch, std::uint64_t seed) {
    const size_t per = (size_t)lda * n;
#pragma omp parallel for schedule(static)
    for (long long b = 0; b < batch; ++b) {
        T *M = A.data() + (size_t)b * per;
        for (size_t k = 0; k < per; ++k) {
            if constexpr (scalar_traits<T>::is_complex)
                M[k] = T((typename scalar_traits<T>::real)uniform_pm1(seed, b, 2 * k),
                         (typename scalar_traits<T>::real)uniform_pm1(seed, b, 2 * k + 1));
            else
                M[k] = (T)uniform_pm1(seed, b, k);
        }
    }
}

template <class T> void copy_parallel(T *dst, const T *src, size_t count) {
    const long long chunk = 1 << 20;
    const long long nchunks = (long long)((count + chunk - 1) / chunk);
#pragma omp parallel for schedule(static)
    for (long long c = 0; c < nchunks; ++c) {
        const size_t lo = (size_t)c * chunk, len = std::min<size_t>(chunk, count - lo);
        std::memcpy(dst + lo, src + lo, len * sizeof(T));
    }
}

template <class T> double norm1(const T *A, int n, int lda) {
    double best = 0;
    for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int i = 0; i < n; ++i) s += std::abs(A[(size_t)j * lda + i]);
        best = std::max(best, s);
    }
    return best;
}

// Largest distance between two eigenvalue lists after greedy nearest pairing.
double paired_distance(const std::vector<std::complex<double>> &a, const std::vector<std::complex<double>> &b) {
    const int n = (int)a.size();
    struct C { double d; int i, j; };
    std::vector<C> c;
    c.reserve((size_t)n * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) c.push_back({std::abs(a[i] - b[j]), i, j});
    std::sort(c.begin(), c.end(), [](const C &x, const C &y) { return x.d < y.d; });
    std::vector<char> ua(n, 0), ub(n, 0);
    double worst = 0;
    int paired = 0;
    for (const C &x : c) {
        if (ua[x.i] || ub[x.j]) continue;
        ua[x.i] = ub[x.j] = 1;
        worst = std::max(worst, std::isnan(x.d) ? std::numeric_limits<double>::infinity() : x.d);
        if (++paired == n) break;
    }
    return worst;
}

template <class T> void run_geev_t(const Options &opt, Report &report) {
    using R = typename scalar_traits<T>::real;
    const std::vector<int> ns = opt.ns.empty() ? std::vector<int>{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                                                                  18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}
                                               : opt.ns;
    auto impls = make_geev_impls<T>(opt);
    std::vector<std::string> names;
    for (auto &i : impls) names.push_back(i->name());

    const double per_flop = opt.vectors ? 25.0 : 10.0;
    char title[256];
    std::snprintf(title, sizeof title,
                  "geev, precision %c, %s, batch %lld, uniform[-1,1] entries, %d threads, median of %d reps; "
                  "flops/matrix ~%g n^3%s",
                  precision_char<T>(), opt.vectors ? "eigenvalues + right eigenvectors" : "eigenvalues only",
                  opt.batch, omp_get_max_threads(), opt.reps, per_flop * scalar_traits<T>::flop_factor,
                  scalar_traits<T>::is_complex ? " (complex: 4x real)" : "");
    report.begin(title, names);

    for (int n : ns) {
        GeevProblem<T> p;
        p.n = n;
        p.lda = n;
        p.batch = opt.batch;
        p.vectors = opt.vectors;
        const size_t per = (size_t)p.lda * n;

        std::vector<T> A0(per * p.batch), Aw(per * p.batch);
        fill(A0, n, p.lda, p.batch, opt.seed + (std::uint64_t)n);

        CaseResult r;
        r.workload = "geev";
        r.precision = precision_char<T>();
        r.n = n;
        r.batch = p.batch;
        r.vectors = p.vectors;
        r.threads = omp_get_max_threads();
        r.reps = opt.reps;
        r.flops_per_matrix = per_flop * n * (double)n * n * scalar_traits<T>::flop_factor;

        for (auto &impl : impls) {
            impl->prepare(p);
            // Warm-up (untimed): thread start-up, first touch, caches.
            const long long w = std::min<long long>(p.batch, std::max<long long>(opt.warmup, 1));
            copy_parallel(Aw.data(), A0.data(), per * w);
            impl->run(Aw.data(), w);
            std::vector<double> t;
            for (int rep = 0; rep < opt.reps; ++rep) {
                copy_parallel(Aw.data(), A0.data(), per * p.batch);  // untimed: both overwrite A
                const auto t0 = Clock::now();
                impl->run(Aw.data(), p.batch);
                t.push_back(seconds(t0, Clock::now()));
            }
            Measurement m;
            m.impl = impl->name();
            m.median_s = median(t);
            m.min_s = *std::min_element(t.begin(), t.end());
            for (long long b = 0; b < p.batch; ++b) m.info_nonzero += impl->info(b) != 0;
            r.m.push_back(m);
        }

        // Accuracy: max |lambda_impl - lambda_lapacke| / (||A||_1 u) over a sample, after pairing.
        const double u = std::numeric_limits<R>::epsilon() / 2;
        const int check = (int)std::min<long long>(opt.check, p.batch);
        for (size_t k = 0; k < impls.size(); ++k) {
            if (k == 1) continue;  // the reference itself
            double worst = 0;
            for (int s = 0; s < check; ++s) {
                const long long b = (long long)((double)s * p.batch / check);
                if (impls[k]->info(b) != 0 || impls[1]->info(b) != 0) continue;
                std::vector<std::complex<double>> x(n), y(n);
                for (int i = 0; i < n; ++i) {
                    x[i] = impls[k]->eigenvalue(b, i);
                    y[i] = impls[1]->eigenvalue(b, i);
                }
                const double an = norm1(A0.data() + (size_t)b * per, n, p.lda);
                worst = std::max(worst, paired_distance(x, y) / ((an > 0 ? an : 1.0) * u));
            }
            r.m[k].accuracy = worst;
        }
        for (auto &impl : impls) impl->release();
        report.add(r);
    }
}

}  // namespace

void run_geev(const Options &opt, Report &report) {
    switch (opt.precision) {
    case 's': run_geev_t<float>(opt, report); break;
    case 'd': run_geev_t<double>(opt, report); break;
    case 'c': run_geev_t<std::complex<float>>(opt, report); break;
    case 'z': run_geev_t<std::complex<double>>(opt, report); break;
    default: throw std::runtime_error(std::string("unknown precision '") + opt.precision + "'");
    }
}

}  // namespace bench
