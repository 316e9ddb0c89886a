// Workloads `syevj` and `syevj-block`: eigenvalues and eigenvectors (jobz =
// VECTOR by default; --no-vectors: eigenvalues only) of a batch of random
// symmetric (precision s, d) or Hermitian (c, z: heevj) matrices, entries
// uniform in [-1, 1] (real and imaginary parts), real diagonal, generated
// once per size. Every implementation runs on copies of the same data in the
// same process:
//
//   batcheig         host arrays (--memory host), the --backend handle;
//                    `syevj` lets the dispatcher choose the Jacobi variant
//                    (or --algorithm), `syevj-block` forces the host
//                    one-sided block variant (unless --algorithm is given);
//                    on a CUDA handle (host_streaming.hpp) pageable or
//                    pinned (--host-memory), --chunk, --streams, --devices
//   batcheig-1gpu    with --devices listing two or more GPUs: the same call
//                    on the first one alone (the batcheig row's note gives
//                    the scaling)
//   pinned-transfer  batcheig on host arrays of a CUDA handle: the bare
//                    pinned copies of A host->device and of the outputs (W,
//                    info, A = V with vectors, and the sweeps and residuals
//                    the call returns through batcheigParamsSetJacobiOutputs)
//                    device->host on the first device; each batcheig row's
//                    note gives its time / this time
//   batcheig-device  device arrays (--memory device), CUDA handle
//   lapacke          all-core OpenMP loop over LAPACKE ?syevd_work /
//                    ?heevd_work; the accuracy reference
//   cusolver-syevjBatched / cusolver-heevjBatched   (with a usable GPU)
//                    cusolverDn?syevjBatched / ?heevjBatched, n <= 32 only
//   cusolver-XsyevBatched                           (with a usable GPU)
//                    cusolverDnXsyevBatched (CUDA >= 12.6)
//
// An implementation that cannot run a size, or fails (an allocation, a
// status), gets a row with a short status instead of a time ("n/a (n>32)",
// "OOM", the cuSOLVER status name, ...) and the run goes on.
//
// Timing: one untimed warm-up call per implementation (host: on --warmup
// matrices; GPU, batcheig on a CUDA handle included: on the whole batch),
// then --reps timed calls, each on a fresh copy of A (untimed: A is
// overwritten); the median is reported (the minimum goes to the CSV). Host
// implementations: wall clock around the call (batcheig on a CUDA handle
// included: the call returns when the results are in host memory). Device
// implementations: CUDA events on their stream around the call, A restored
// from a pristine device copy before each call; the host->device copy of A
// and the device->host copy of the outputs (W, info, V; pinned host memory,
// events) are reported separately on the batcheig-device row, never inside
// the time.
//
// Without --batch the workloads are used: 1000 matrices for n <= 32,
// 200 for n > 32 (default sizes 4, 8, 16, 24, 32, 64, 128, 256, 512).
// GFLOP/s counts LAPACK's work, not Jacobi's: 4/3 n^3 (eigenvalues only) or
// 9 n^3 (with vectors) real flops per matrix, x4 for complex types, so the
// column compares useful work; Jacobi executes several times more flops.
//
// Checks, on a sample of --check matrices spread over the batch: every
// implementation's eigenvalues against LAPACKE's (acc.ratio =
// max_i |lambda_i - lambda_i(LAPACKE)| / (||A||_1 u), both ascending); with
// vectors, batcheig's eigenvectors (on a sample capped so that it costs
// about 2^28 n^3-flops at most): residual max_j ||A v_j - lambda_j v_j||_2 /
// (||A||_1 u) and orthogonality max_ij |(V^H V - I)_ij| / u, printed under
// the size's rows and written to the CSV.
#include <batcheig.h>
#include <omp.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>

#include "algorithm_names.hpp"
#include "gpu.hpp"
#include "host_streaming.hpp"
#include "syevj_impl.hpp"
#include "workloads.hpp"

namespace bench {
namespace {

// What this run compares, after looking for a GPU (as plan_geev() in
// workload_geev.cpp): the options as they are run and the notes printed
// above the table.
struct SyevjSetup {
    Options opt;
    bool cusolver = false;  // run the cuSOLVER anchors
    HostStreamingPlan host;  // host arrays on the CUDA backend
    std::vector<std::string> notes;
};

std::string algorithm_label(int alg) {
    std::string s = std::to_string(alg);
    for (const auto &a : algorithm_names)
        if ((int)a.value == alg) s = std::string(a.name) + " (" + s + ")";
    return s;
}

SyevjSetup plan_syevj(const Options &requested, batcheigAlgorithm_t default_alg) {
    SyevjSetup s;
    s.opt = requested;
    Options &o = s.opt;
    if (!o.vectors_given) o.vectors = true;  // the Jacobi targets are with vectors
    if (o.algorithm == 0) o.algorithm = (int)default_alg;
    const std::string no_gpu =
        resolve_memory_and_gpu(o, s.notes, "anchors cusolverDn?syevjBatched / cusolverDnXsyevBatched");
    s.cusolver = no_gpu.empty() && o.cusolver_subset > 0;
    if (no_gpu.empty() && o.cusolver_subset <= 0) s.notes.push_back("cuSOLVER anchors: off (--cusolver-subset 0)");

    s.notes.push_back(o.memory == "device"
                          ? "batcheig-device: batcheig on device arrays, handle --backend " + o.backend +
                                " (must run on CUDA), algorithm " + algorithm_label(o.algorithm)
                          : "batcheig: batcheig on host arrays, handle --backend " + o.backend + ", algorithm " +
                                algorithm_label(o.algorithm));
    s.host = plan_host_streaming(o, no_gpu.empty(),
                                 "A host -> device from pinned memory, then W, info, A (the eigenvectors) with "
                                 "vectors, and the per-matrix sweeps and residuals (batcheigParamsSetJacobiOutputs) "
                                 "device -> host into pinned memory",
                                 s.notes);
    if (o.memory == "device" || s.cusolver)
        s.notes.push_back("device timing: CUDA events on the implementation's stream around the call, after one "
                          "untimed warm-up call on the same matrices; A restored from a pristine device copy "
                          "before each call (untimed); h2d = pinned host -> device copy of the whole batch's A, "
                          "d2h = device -> pinned host copy of all outputs (W, info, V with vectors), both "
                          "median of --reps copies timed with events and not included in time");
    if (s.cusolver)
        s.notes.push_back("cusolver anchors on device arrays, whole batch, one call each, workspace from their "
                          "_bufferSize queries allocated outside the timed region: cusolverDn?syevjBatched / "
                          "?heevjBatched (syevjInfo defaults: tol = machine precision, 100 sweeps; n <= 32 only) "
                          "and cusolverDnXsyevBatched (CUDA >= 12.6); failures (OOM, statuses) are reported in "
                          "the row");
    return s;
}

// One implementation of the comparison: the object, or why it could not be
// created (the row then carries that status at every size).
template <class T> struct Slot {
    std::string name;
    Memory memory = Memory::host;
    std::unique_ptr<SyevjImpl<T>> impl;
    std::string error;
};

// The short status a row shows for a failure, from the exception's text.
std::string short_status(const std::string &what) {
    auto has = [&](const char *s) { return what.find(s) != std::string::npos; };
    if (has("cudaErrorMemoryAllocation") || has("CUSOLVER_STATUS_ALLOC_FAILED") || has("memory allocation failed") ||
        has("bad_alloc") || has("cannot allocate"))
        return "OOM";
    for (const char *prefix : {"CUSOLVER_STATUS_", "cudaError"}) {
        const size_t p = what.find(prefix);
        if (p != std::string::npos) {
            size_t e = p;
            while (e < what.size() && (std::isalnum((unsigned char)what[e]) || what[e] == '_')) ++e;
            return what.substr(p, e - p);
        }
    }
    if (has("not supported by this build")) return "not supported";
    if (has("invalid argument")) return "invalid value";
    if (has("backend execution failed")) return "exec failed";
    return "failed";
}

template <class T> std::vector<Slot<T>> make_syevj_impls(const SyevjSetup &s) {
    std::vector<Slot<T>> v;
    auto add = [&](const char *fallback_name, Memory mem, auto make) {
        Slot<T> slot;
        slot.name = fallback_name;
        slot.memory = mem;
        try {
            slot.impl = make();
            slot.name = slot.impl->name();
        } catch (const std::exception &e) {
            slot.error = e.what();
            gpu::clear_last_error();
        }
        v.push_back(std::move(slot));
    };
#if BATCHEIG_HAVE_CUDA
    if (s.opt.memory == "device")
        add("batcheig-device", Memory::device, [&] { return make_syevj_batcheig_device<T>(s.opt); });
    else add("batcheig", Memory::host, [&] { return make_syevj_batcheig<T>(s.opt); });
#else
    add("batcheig", Memory::host, [&] { return make_syevj_batcheig<T>(s.opt); });  // plan made the memory host
#endif
    if (s.host.scaling)
        add("batcheig-1gpu", Memory::host, [&] { return make_syevj_batcheig<T>(first_device_only(s.opt), "-1gpu"); });
    add("lapacke", Memory::host, [&] { return make_syevj_lapacke_omp<T>(s.opt); });
#if BATCHEIG_HAVE_CUDA
    if (s.cusolver) {
        add(scalar_traits<T>::is_complex ? "cusolver-heevjBatched" : "cusolver-syevjBatched", Memory::device,
            [&] { return make_syevj_cusolver_jacobi<T>(s.opt); });
        add("cusolver-XsyevBatched", Memory::device, [&] { return make_syevj_cusolver_xsyev<T>(s.opt); });
    }
#endif
    if (!v[0].impl) throw std::runtime_error("cannot set up batcheig: " + v[0].error);
    return v;
}

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

template <class T> void copy_parallel(T *dst, const T *src, size_t count) {
    const long long chunk = 1 << 20;
    const long long nchunks = (long long)((count + chunk - 1) / chunk);
#pragma omp parallel for schedule(static)
    for (long long c = 0; c < nchunks; ++c) {
        const size_t lo = (size_t)c * chunk, len = std::min<size_t>(chunk, count - lo);
        std::memcpy(dst + lo, src + lo, len * sizeof(T));
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

// Eigenvector checks of one implementation on `samples` matrices spread over
// the batch (skipping info != 0): {residual ratio, orthogonality ratio},
// {-1, -1} when it has no vectors here. In double (complex<double>).
template <class T>
std::pair<double, double> check_vectors(const SyevjImpl<T> &impl, const T *A0, int n, long long batch, int samples) {
    using R = typename scalar_traits<T>::real;
    using C = std::complex<double>;
    if (samples <= 0 || !impl.vectors(0)) return {-1.0, -1.0};
    const double u = std::numeric_limits<R>::epsilon() / 2;
    const size_t per = (size_t)n * n;
    double worst_res = 0, worst_orth = 0;
#pragma omp parallel for schedule(dynamic, 1) reduction(max : worst_res, worst_orth)
    for (int s = 0; s < samples; ++s) {
        const long long b = (long long)((double)s * batch / samples);
        if (impl.info(b) != 0) continue;
        const T *A = A0 + (size_t)b * per;
        const T *V = impl.vectors(b);
        const double an = std::max(norm1(A, n), std::numeric_limits<double>::min());
        std::vector<C> av(n);
        for (int j = 0; j < n; ++j) {
            const T *v = V + (size_t)j * n;
            std::fill(av.begin(), av.end(), C(0));
            for (int k = 0; k < n; ++k) {
                const C vk = C(v[k]);
                const T *a = A + (size_t)k * n;
                for (int i = 0; i < n; ++i) av[i] += C(a[i]) * vk;
            }
            const double lambda = impl.eigenvalue(b, j);
            double r2 = 0;
            for (int i = 0; i < n; ++i) r2 += std::norm(av[i] - lambda * C(v[i]));
            const double res = std::sqrt(r2) / (an * u);
            worst_res = std::max(worst_res, std::isnan(res) ? std::numeric_limits<double>::infinity() : res);
            for (int i = 0; i <= j; ++i) {
                const T *w = V + (size_t)i * n;
                C d = 0;
                for (int k = 0; k < n; ++k) d += std::conj(C(w[k])) * C(v[k]);
                const double o = std::abs(d - (i == j ? C(1) : C(0))) / u;
                worst_orth = std::max(worst_orth, std::isnan(o) ? std::numeric_limits<double>::infinity() : o);
            }
        }
    }
    return {worst_res, worst_orth};
}

template <class T>
void run_syevj_t(const Options &requested, Report &report, batcheigAlgorithm_t default_alg, const char *wname) {
    using R = typename scalar_traits<T>::real;
    const SyevjSetup setup = plan_syevj(requested, default_alg);
    const Options &opt = setup.opt;
    for (const auto &note : setup.notes) std::printf("%s\n", note.c_str());

    const std::vector<int> ns = opt.ns.empty() ? std::vector<int>{4, 8, 16, 24, 32, 64, 128, 256, 512} : opt.ns;
    const bool default_batch = opt.batch == Options{}.batch;  // --batch not given: the workloads
    auto slots = make_syevj_impls<T>(setup);
    const size_t batcheig_rows = setup.host.scaling ? 2 : 1;  // batcheig [, batcheig-1gpu]
    const size_t ref = batcheig_rows;                          // the accuracy reference: lapacke
    // Host arrays on a CUDA handle: the pinned-transfer row and the ratios.
    const bool streaming = setup.host.on_gpu && slots[0].impl->host_arrays_on_gpu();
    if (setup.host.on_gpu && !streaming)
        std::printf("batcheig's handle runs on the host backend: no pinned-transfer row\n");
    std::vector<std::string> names;
    for (auto &s : slots) names.push_back(s.name);
    if (streaming) add_transfer_names(names, setup.host);

    const double per_flop = opt.vectors ? 9.0 : 4.0 / 3.0;
    char title[768];
    std::snprintf(title, sizeof title,
                  "%s (%s), precision %c, %s, batch %s, uniform[-1,1] Hermitian, memory %s, algorithm %s, "
                  "%d threads, median of %d reps; GFLOP/s counts LAPACK's ~%g n^3 flops/matrix%s; "
                  "speedup = time / batcheig's time; acc.ratio vs lapacke (LAPACKE_%c%s_work loop)",
                  wname, scalar_traits<T>::is_complex ? "heevj" : "syevj", precision_char<T>(),
                  opt.vectors ? "eigenvalues + eigenvectors" : "eigenvalues only",
                  default_batch ? "1000 (n<=32) / 200 (n>32)" : std::to_string(opt.batch).c_str(),
                  opt.memory.c_str(), algorithm_label(opt.algorithm).c_str(), omp_get_max_threads(), opt.reps,
                  per_flop * scalar_traits<T>::flop_factor, scalar_traits<T>::is_complex ? " (complex: 4x real)" : "",
                  precision_char<T>(), scalar_traits<T>::is_complex ? "heevd" : "syevd");
    report.begin(title, names);

    for (int n : ns) {
        SyevjProblem p;
        p.n = n;
        p.batch = default_batch ? (n <= 32 ? 1000 : 200) : opt.batch;
        p.vectors = opt.vectors;
        const size_t per = (size_t)n * n;
        // Aw: the array the implementations work on (pinned with --host-memory pinned).
        std::vector<T> A0(per * p.batch);
        HostArray<T> Aw(opt.host_memory == "pinned");
        Aw.assign(per * p.batch, T(0));
        fill_hermitian(A0, n, p.batch, opt.seed + (std::uint64_t)n);

        // The bare pinned transfers of batcheig's bytes, measured (and their
        // buffers freed) before the implementations run.
        TransferRows transfers;
        if (streaming) {
            std::vector<size_t> out{(size_t)n * p.batch * sizeof(R), (size_t)p.batch * sizeof(int)};  // W, info
            if (p.vectors) out.push_back(per * p.batch * sizeof(T));  // A = V
            out.push_back((size_t)p.batch * sizeof(int));             // sweeps
            out.push_back((size_t)p.batch * sizeof(double));          // residuals
            transfers = measure_transfers(opt, setup.host, {per * p.batch * sizeof(T)}, out);
        }

        CaseResult r;
        r.workload = wname;
        r.precision = precision_char<T>();
        r.n = n;
        r.batch = p.batch;
        r.vectors = p.vectors;
        r.threads = omp_get_max_threads();
        r.reps = opt.reps;
        r.flops_per_matrix = per_flop * n * (double)n * n * scalar_traits<T>::flop_factor;

        // Why each implementation does not run this size (empty: it does).
        std::vector<std::string> status(slots.size()), detail(slots.size());
        for (size_t k = 0; k < slots.size(); ++k) {
            if (!slots[k].impl) {
                status[k] = short_status(slots[k].error);
                detail[k] = slots[k].error;
            } else {
                status[k] = slots[k].impl->unsupported(p);
            }
        }

        // The device copy of A for the implementations on device memory
        // (declared after A0, whose pages it keeps locked: destroyed first).
        bool on_device = false;
        for (size_t k = 0; k < slots.size(); ++k)
            on_device = on_device || (status[k].empty() && slots[k].memory == Memory::device);
        std::unique_ptr<gpu::DeviceInput> dev;
        std::vector<double> h2d;
        if (on_device) {
            try {
                dev = std::make_unique<gpu::DeviceInput>(A0.data(), per * sizeof(T), p.batch);
                dev->upload();  // warm-up, untimed
                for (int rep = 0; rep < opt.reps; ++rep) h2d.push_back(dev->upload());
            } catch (const std::exception &e) {
                dev.reset();
                gpu::clear_last_error();
                for (size_t k = 0; k < slots.size(); ++k)
                    if (status[k].empty() && slots[k].memory == Memory::device) {
                        status[k] = short_status(e.what());
                        detail[k] = std::string("device copy of A: ") + e.what();
                    }
            }
        }

        std::string batcheig_note;
        for (size_t k = 0; k < slots.size(); ++k) {
            Measurement m;
            m.impl = slots[k].name;
            m.memory = memory_name(slots[k].memory);
            if (k < batcheig_rows) m.algorithm = opt.algorithm;
            if (streaming && k < batcheig_rows) tag_host_streaming_row(m, k == 0 ? opt : first_device_only(opt));
            if (!status[k].empty()) {
                m.status = status[k];
                m.note = detail[k];
                r.m.push_back(m);
                continue;
            }
            SyevjImpl<T> &impl = *slots[k].impl;
            const bool device = slots[k].memory == Memory::device;
            T *A = device ? static_cast<T *>(dev->working()) : Aw.data();
            auto restore = [&](long long count) {  // untimed: every implementation overwrites A
                if (device) dev->restore(count);
                else copy_parallel(Aw.data(), A0.data(), per * count);
            };
            try {
                impl.prepare(p);
                // Warm-up (untimed): thread start-up, first touch, caches, GPU modules.
                const long long w =
                    impl.full_warmup() ? p.batch : std::min<long long>(p.batch, std::max<long long>(opt.warmup, 1));
                restore(w);
                impl.timed_run(A, w);
                std::vector<double> t, d2h;
                for (int rep = 0; rep < opt.reps; ++rep) {
                    restore(p.batch);
                    t.push_back(impl.timed_run(A, p.batch));
                    d2h.push_back(impl.fetch_outputs(p.batch));
                }
                m.median_s = median(t);
                m.min_s = *std::min_element(t.begin(), t.end());
                if (d2h.front() >= 0) {  // this implementation reports its transfers
                    m.d2h_s = median(d2h);
                    if (dev) m.h2d_s = median(h2d);
                }
                for (long long b = 0; b < p.batch; ++b) m.info_nonzero += impl.info(b) != 0;
                if (k == 0) {
                    const double sweeps = impl.mean_sweeps(p.batch);
                    char b[64];
                    if (sweeps >= 0) std::snprintf(b, sizeof b, "mean sweeps %.2f", sweeps);
                    else std::snprintf(b, sizeof b, "sweeps not reported");
                    batcheig_note = std::string(m.impl) + ": " + b;
                    // Vectors now: the host implementations' are in Aw, which the next one overwrites.
                    if (p.vectors) {
                        const double budget = 268435456.0;  // 2^28 n^3-flops of checking
                        const int vs = (int)std::min<double>(
                            {(double)opt.check, (double)p.batch, std::max(1.0, std::floor(budget / ((double)n * n * n)))});
                        const auto vc = check_vectors(impl, A0.data(), n, p.batch, vs);
                        m.vec_residual = vc.first;
                        m.vec_orthogonality = vc.second;
                        char c[160];
                        if (vc.first >= 0)
                            std::snprintf(c, sizeof c,
                                          "; vectors on %d matrices: max ||Av-lv||/(||A||_1 u) %.2f, "
                                          "max |V^H V - I|/u %.2f",
                                          vs, vc.first, vc.second);
                        else std::snprintf(c, sizeof c, "; vectors not checked (not available on the host)");
                        batcheig_note += c;
                    }
                }
                impl.release_device();  // the results stay on the host for the accuracy check
            } catch (const std::exception &e) {
                gpu::clear_last_error();
                impl.release();
                m = Measurement{};
                m.impl = slots[k].name;
                m.memory = memory_name(slots[k].memory);
                if (k < batcheig_rows) m.algorithm = opt.algorithm;
                if (streaming && k < batcheig_rows)
                    tag_host_streaming_row(m, k == 0 ? opt : first_device_only(opt));
                m.status = short_status(e.what());
                m.note = e.what();
                status[k] = m.status;
            }
            r.m.push_back(m);
        }
        r.m[ref].reference = status[ref].empty();

        // Accuracy: max_i |lambda_i - lambda_i(LAPACKE)| / (||A||_1 u), both ascending.
        const double u = std::numeric_limits<R>::epsilon() / 2;
        const int checks = (int)std::min<long long>(opt.check, p.batch);
        for (size_t k = 0; k < slots.size() && status[ref].empty(); ++k) {
            if (k == ref || !status[k].empty()) continue;
            const SyevjImpl<T> &impl = *slots[k].impl, &lapacke = *slots[ref].impl;
            double worst = 0;
            for (int s = 0; s < checks; ++s) {
                const long long b = (long long)((double)s * p.batch / checks);
                if (impl.info(b) != 0 || lapacke.info(b) != 0) continue;
                const double an = norm1(A0.data() + (size_t)b * per, n);
                for (int i = 0; i < n; ++i) {
                    const double d = std::abs(impl.eigenvalue(b, i) - lapacke.eigenvalue(b, i));
                    worst = std::max(worst, std::isnan(d) ? std::numeric_limits<double>::infinity()
                                                          : d / ((an > 0 ? an : 1.0) * u));
                }
            }
            r.m[k].accuracy = worst;
        }
        for (auto &s : slots)
            if (s.impl) s.impl->release();
        r.accuracy_note = batcheig_note;
        if (streaming)
            add_transfer_results(r, batcheig_rows, transfers, opt, setup.host);
        report.add(r);
        if (!r.accuracy_note.empty()) std::printf("       (n=%d: %s)\n", n, r.accuracy_note.c_str());
        std::fflush(stdout);
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
