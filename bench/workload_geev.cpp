// Workload `geev`: eigenvalues (optionally right eigenvectors) of a batch of
// random dense non-symmetric matrices, entries uniform in [-1, 1] (real and
// imaginary parts for complex types), generated once per size. batcheig and
// every anchor run on copies of the same data in the same process:
//
//   batcheig         host arrays (--memory host), the --backend handle; on a
//                    CUDA handle (host_streaming.hpp) pageable or pinned
//                    (--host-memory), --chunk, --streams, --devices
//   batcheig-1gpu    with --devices listing two or more GPUs: the same call
//                    on the first one alone (the batcheig row's note gives
//                    the scaling)
//   pinned-transfer  batcheig on host arrays of a CUDA handle: the bare
//                    pinned copies of A host->device and of the outputs
//                    (wr, wi or W, VR with --vectors, info) device->host on
//                    the first device; each batcheig row's note gives its
//                    time / this time
//   batcheig-device  device arrays (--memory device), CUDA handle
//   lapacke          all-core OpenMP loop over LAPACKE ?geev_work; the
//                    accuracy reference; with --lapacke-subset K timed on the
//                    first K matrices (at least 4 per thread) and
//                    extrapolated (the accuracy sample then comes from those
//                    matrices)
//   cusolver-loop    one cusolverDnXgeev per matrix on device arrays, timed on
//                    the first --cusolver-subset matrices and extrapolated
//                    (runs whenever a CUDA device is usable)
//
// Timing: one untimed warm-up call per implementation, then --reps timed
// calls, each on a fresh copy of A (untimed: geev overwrites A); the median is
// reported (the minimum goes to the CSV). Host implementations: wall clock
// around the call (batcheig on a CUDA handle included: the call returns when
// the results are in host memory; its warm-up call is on the whole batch).
// Device implementations: CUDA events on their stream around the call, A
// restored from a pristine device copy before each call; the host->device
// copy of A and the device->host copy of the outputs (pinned host memory,
// events) are reported separately, never inside the time.
//
// GFLOP/s are nominal: ~10 n^3 real flops per matrix for eigenvalues only,
// ~25 n^3 with right eigenvectors (Golub & Van Loan, Matrix Computations,
// 7.5.6), x4 for complex types, whatever the implementation executes.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <stdexcept>

#include "algorithm_names.hpp"
#include "geev_impl.hpp"
#include "gpu.hpp"
#include "host_streaming.hpp"
#include "workloads.hpp"

namespace bench {
namespace {

// What this run compares, after looking for a GPU: the options as they are
// run (a CUDA request falls back to the host without a device) and the notes
// printed above the table.
struct GeevSetup {
    Options opt;
    bool cusolver = false;  // run the cuSOLVER anchor
    HostStreamingPlan host;  // host arrays on the CUDA backend
    std::vector<std::string> notes;
};

GeevSetup plan_geev(const Options &requested) {
    GeevSetup s;
    s.opt = requested;
    Options &o = s.opt;
    const std::string no_gpu = resolve_memory_and_gpu(o, s.notes, "anchor cusolver-loop (cusolverDnXgeev per matrix)");
    s.cusolver = no_gpu.empty() && o.cusolver_subset > 0;
    if (no_gpu.empty() && o.cusolver_subset <= 0) s.notes.push_back("anchor cusolver-loop: off (--cusolver-subset 0)");

    std::string alg = std::to_string(o.algorithm);
    for (const auto &a : algorithm_names)
        if ((int)a.value == o.algorithm) alg = std::string(a.name) + " (" + alg + ")";
    s.notes.push_back(o.memory == "device"
                          ? "batcheig-device: batcheig on device arrays, handle --backend " + o.backend +
                                " (must run on CUDA), algorithm " + alg
                          : "batcheig: batcheig on host arrays, handle --backend " + o.backend + ", algorithm " + alg);
    s.host = plan_host_streaming(o, no_gpu.empty(),
                                 "A host -> device from pinned memory, then wr and wi (W for c, z), VR with "
                                 "--vectors and info device -> host into pinned memory",
                                 s.notes);
    if (o.memory == "device" || s.cusolver)
        s.notes.push_back("device timing: CUDA events on the implementation's stream around the call, after one "
                          "untimed warm-up call on the same matrices; A restored from a pristine device copy "
                          "before each call (untimed); h2d = pinned host -> device copy of the whole batch's A, "
                          "d2h = device -> pinned host copy of all outputs (eigenvalues, info, vectors), both "
                          "median of --reps copies timed with events and not included in time");
    if (o.lapacke_subset > 0)
        s.notes.push_back("lapacke: timed on the first " + std::to_string(o.lapacke_subset) +
                          " matrices (at least 4 per OpenMP thread; the row says how many) and extrapolated "
                          "linearly to the batch (--lapacke-subset); the accuracy sample comes from those matrices");
    if (s.cusolver)
        s.notes.push_back("cusolver-loop: one cusolverDnXgeev per matrix on device arrays (jobvl = N), workspace "
                          "from cusolverDnXgeev_bufferSize allocated once; timed on the first " +
                          std::to_string(o.cusolver_subset) +
                          " matrices and extrapolated linearly to the batch; accuracy on those matrices only");
    return s;
}

// The implementations compared, batcheig first (then batcheig-1gpu with
// --devices listing several GPUs: batcheig_rows() of them); next the
// accuracy reference (LAPACKE). Later anchors go at the end.
template <class T> std::vector<std::unique_ptr<GeevImpl<T>>> make_geev_impls(const GeevSetup &s) {
    std::vector<std::unique_ptr<GeevImpl<T>>> v;
#if BATCHEIG_HAVE_CUDA
    if (s.opt.memory == "device") v.push_back(make_geev_batcheig_device<T>(s.opt));
    else v.push_back(make_geev_batcheig<T>(s.opt));
#else
    v.push_back(make_geev_batcheig<T>(s.opt));  // plan_geev() made the memory host
#endif
    if (s.host.scaling) v.push_back(make_geev_batcheig<T>(first_device_only(s.opt), "batcheig-1gpu"));
    v.push_back(make_geev_lapacke_omp<T>(s.opt));
#if BATCHEIG_HAVE_CUDA
    if (s.cusolver) v.push_back(make_geev_cusolver<T>(s.opt));
#endif
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

// max(||A||_1, ||A||_inf) (>= ||A||_2), as the tests' eigenvalue check.
template <class T> double norm_max(const T *A, int n, int lda) {
    double col = 0;
    std::vector<double> row(n, 0.0);
    for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int i = 0; i < n; ++i) {
            const double x = std::abs(A[(size_t)j * lda + i]);
            s += x;
            row[i] += x;
        }
        col = std::max(col, s);
    }
    return std::max(col, *std::max_element(row.begin(), row.end()));
}

// Largest |a_i - b_j| / unit_j over the pairs of a greedy nearest pairing of
// two eigenvalue lists (a NaN distance counts as infinity).
double paired_ratio(const std::vector<std::complex<double>> &a, const std::vector<std::complex<double>> &b,
                    const std::vector<double> &unit) {
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
        worst = std::max(worst, std::isnan(x.d) ? std::numeric_limits<double>::infinity() : x.d / unit[x.j]);
        if (++paired == n) break;
    }
    return worst;
}

template <class T> void run_geev_t(const Options &requested, Report &report) {
    using R = typename scalar_traits<T>::real;
    const GeevSetup setup = plan_geev(requested);
    const Options &opt = setup.opt;
    for (const auto &note : setup.notes) std::printf("%s\n", note.c_str());

    const std::vector<int> ns = opt.ns.empty() ? std::vector<int>{5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
                                                                  18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30}
                                               : opt.ns;
    auto impls = make_geev_impls<T>(setup);
    const size_t batcheig_rows = setup.host.scaling ? 2 : 1;  // batcheig [, batcheig-1gpu]
    const size_t ref = batcheig_rows;                          // the accuracy reference: lapacke
    // Host arrays on a CUDA handle: the pinned-transfer row and the ratios.
    const bool streaming = setup.host.on_gpu && impls[0]->host_arrays_on_gpu();
    if (setup.host.on_gpu && !streaming)
        std::printf("batcheig's handle runs on the host backend: no pinned-transfer row\n");
    std::vector<std::string> names;
    for (auto &i : impls) names.push_back(i->name());
    if (streaming) add_transfer_names(names, setup.host);

    const double per_flop = opt.vectors ? 25.0 : 10.0;
    char title[512];
    std::snprintf(title, sizeof title,
                  "geev, precision %c, %s, batch %lld, uniform[-1,1] entries, %d threads, median of %d reps; "
                  "GFLOP/s nominal: %g n^3 flops/matrix%s (Golub & Van Loan); speedup = time / batcheig's time; "
                  "acc.ratio: |lambda - mu_lapacke| / (n u ||A|| kappa), the tests' eigenvalue ratio (<= 20)",
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

        // Aw: the array the implementations work on (pinned with --host-memory pinned).
        std::vector<T> A0(per * p.batch);
        HostArray<T> Aw(opt.host_memory == "pinned");
        Aw.assign(per * p.batch, T(0));
        fill(A0, n, p.lda, p.batch, opt.seed + (std::uint64_t)n);

        // The bare pinned transfers of batcheig's bytes, measured (and their
        // buffers freed) before the implementations run.
        TransferRows transfers;
        if (streaming) {
            const size_t nb = (size_t)n * p.batch;
            std::vector<size_t> out{nb * sizeof(T)};  // wr or W
            if (!scalar_traits<T>::is_complex) out.push_back(nb * sizeof(R));  // wi
            if (p.vectors) out.push_back(per * p.batch * sizeof(T));          // VR (ldvr = n)
            out.push_back((size_t)p.batch * sizeof(int));                      // info
            transfers = measure_transfers(opt, setup.host, {per * p.batch * sizeof(T)}, out);
        }

        // The device copy of A for the implementations on device memory
        // (declared after A0, whose pages it keeps locked: destroyed first).
        long long on_device = 0;
        for (auto &impl : impls)
            if (impl->memory() == Memory::device) on_device = std::max(on_device, impl->timed_count(p.batch));
        std::unique_ptr<gpu::DeviceInput> dev;
        std::vector<double> h2d;
        if (on_device > 0) {
            dev = std::make_unique<gpu::DeviceInput>(A0.data(), per * sizeof(T), on_device);
            dev->upload();  // warm-up, untimed
            for (int rep = 0; rep < opt.reps; ++rep) h2d.push_back(dev->upload());
        }

        CaseResult r;
        r.workload = "geev";
        r.precision = precision_char<T>();
        r.n = n;
        r.batch = p.batch;
        r.vectors = p.vectors;
        r.threads = omp_get_max_threads();
        r.reps = opt.reps;
        r.flops_per_matrix = per_flop * n * (double)n * n * scalar_traits<T>::flop_factor;

        for (size_t k = 0; k < impls.size(); ++k) {
            auto &impl = impls[k];
            const bool device = impl->memory() == Memory::device;
            const long long timed = impl->timed_count(p.batch);
            T *A = device ? static_cast<T *>(dev->working()) : Aw.data();
            // Untimed: every implementation overwrites A.
            auto restore = [&](long long count) {
                if (device) dev->restore(count);
                else copy_parallel(Aw.data(), A0.data(), per * count);
            };
            impl->prepare(p);
            // Warm-up (untimed): thread start-up, first touch, caches, GPU modules.
            const long long w =
                impl->full_warmup() ? timed : std::min<long long>(timed, std::max<long long>(opt.warmup, 1));
            restore(w);
            impl->timed_run(A, w);
            std::vector<double> t, d2h;
            for (int rep = 0; rep < opt.reps; ++rep) {
                restore(timed);
                t.push_back(impl->timed_run(A, timed));
                d2h.push_back(impl->fetch_outputs(timed));
            }
            Measurement m;
            m.impl = impl->name();
            m.memory = memory_name(impl->memory());
            m.timed = timed;
            const double scale = (double)p.batch / (double)timed;  // 1 unless extrapolated
            m.median_s = median(t) * scale;
            m.min_s = *std::min_element(t.begin(), t.end()) * scale;
            if (d2h.front() >= 0) {  // this implementation reports its transfers
                m.d2h_s = median(d2h);
                if (dev && dev->count() == p.batch) m.h2d_s = median(h2d);
            }
            m.algorithm = impl->algorithm();
            if (streaming && k < batcheig_rows) tag_host_streaming_row(m, k == 0 ? opt : first_device_only(opt));
            for (long long b = 0; b < timed; ++b) m.info_nonzero += impl->info(b) != 0;
            r.m.push_back(m);
        }
        r.m[ref].reference = true;

        // Accuracy, as the tests' eigenvalue check (DESIGN.md section 5,
        // threshold 20): max |lambda_i - mu_j| / (n u ||A|| max(kappa_j, 1))
        // after pairing, over a sample spread over the matrices both the
        // implementation and the LAPACKE row computed; mu_j and its condition
        // number kappa_j = 1/|y_j^H x_j| from LAPACKE ?geev with left and
        // right vectors on that matrix (geev_reference). Both solvers being
        // backward stable, an eigenvalue may move by about kappa_j times the
        // backward error: the unscaled |lambda - mu| / (||A|| u) of an
        // ill-conditioned eigenvalue is large for any correct solver.
        const double u = std::numeric_limits<R>::epsilon() / 2;
        struct Reference {
            std::vector<std::complex<double>> mu;
            std::vector<double> unit;
        };
        std::map<long long, Reference> refs;  // by matrix, computed once
        auto reference = [&](long long b) -> const Reference * {
            auto it = refs.find(b);
            if (it == refs.end()) {
                Reference rf;
                std::vector<double> kappa;
                const T *Ab = A0.data() + (size_t)b * per;
                if (geev_reference(Ab, n, p.lda, rf.mu, kappa) == 0) {
                    const double an = std::max(norm_max(Ab, n, p.lda), std::numeric_limits<double>::min());
                    for (int j = 0; j < n; ++j) rf.unit.push_back(n * u * an * std::max(kappa[j], 1.0));
                }
                it = refs.emplace(b, std::move(rf)).first;
            }
            return it->second.unit.empty() ? nullptr : &it->second;
        };
        for (size_t k = 0; k < impls.size(); ++k) {
            if (k == ref) continue;
            const long long timed = std::min(impls[k]->timed_count(p.batch), impls[ref]->timed_count(p.batch));
            const int check = (int)std::min<long long>(opt.check, timed);
            double worst = 0;
            for (int s = 0; s < check; ++s) {
                const long long b = (long long)((double)s * timed / check);
                if (impls[k]->info(b) != 0 || impls[ref]->info(b) != 0) continue;
                const Reference *rf = reference(b);
                if (!rf) continue;
                std::vector<std::complex<double>> x(n);
                for (int i = 0; i < n; ++i) x[i] = impls[k]->eigenvalue(b, i);
                worst = std::max(worst, paired_ratio(x, rf->mu, rf->unit));
            }
            r.m[k].accuracy = worst;
        }
        for (auto &impl : impls) impl->release();
        if (streaming)
            add_transfer_results(r, batcheig_rows, transfers, opt, setup.host);
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
