// batcheig_bench: measure batcheig against the anchors a user would otherwise
// use, in one process, on the same data. See docs/performance.md; host arrays
// on the CUDA backend (--host-memory, --chunk, --streams, --devices, the
// pinned-transfer row and multi-GPU scaling): host_streaming.hpp.
//
//   batcheig_bench [workload] [options]       (workload: geev, syevj, syevj-block; default geev)
#include <batcheig.h>

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <sstream>
#include <string>

#include "algorithm_names.hpp"
#include "bench_common.hpp"
#include "workloads.hpp"

namespace {

void usage(const char *prog) {
    std::printf(
        "usage: %s [workload] [options]\n"
        "workloads:\n",
        prog);
    for (const auto &w : bench::workloads) std::printf("  %-8s %s\n", w.name, w.description);
    std::printf(
        "options:\n"
        "  --n LIST          matrix sizes: comma-separated values and ranges a:b[:step] (default 5:30)\n"
        "  --batch N         matrices per call (default 500000)\n"
        "  --vectors         also compute eigenvectors (geev: right ones; default: eigenvalues only;\n"
        "                    syevj: jobz = VECTOR, the default there)\n"
        "  --no-vectors      eigenvalues only (the default of geev; syevj: jobz = NOVECTOR)\n"
        "  --precision P     s, d, c or z (default d)\n"
        "  --threads T       OpenMP threads for batcheig and the anchors (default: all cores)\n"
        "  --reps R          timed repetitions; the median is reported (default 3; --repeat R is the same)\n"
        "  --warmup N        matrices in each host implementation's untimed warm-up call (default 10000;\n"
        "                    GPU implementations warm up on all the matrices they time)\n"
        "  --check K         matrices in the accuracy sample (default 50)\n"
        "  --max-acc-ratio R exit with status 3 when a row's acc.ratio exceeds R or is NaN (default:\n"
        "                    no limit; the tests' thresholds: geev 20, syevj 60)\n"
        "  --backend B       batcheig backend: host (default), auto, cuda (without a usable CUDA device:\n"
        "                    a note, and the host backend)\n"
        "  --seed S          random seed (default 12345)\n"
        "  --csv FILE        also write the results as CSV (the printed columns; times in s)\n"
        "  --help            this text\n"
        "geev and syevj:\n"
        "  --memory M        where batcheig's arrays live: host (default) or device (cudaMalloc'ed\n"
        "                    A, eigenvalues, vectors, info and workspace; timed with CUDA events; the\n"
        "                    H2D copy of A and D2H copy of the outputs reported separately; implies\n"
        "                    --backend cuda unless --backend auto is given)\n"
        "  --cusolver-subset K  cuSOLVER anchors, run when a CUDA device is usable (0: none).\n"
        "                    geev: one cusolverDnXgeev per matrix, the first K matrices timed and\n"
        "                    extrapolated to the batch (default 200). syevj: cusolverDn?syevjBatched /\n"
        "                    ?heevjBatched (n <= 32) and cusolverDnXsyevBatched, each one call on the\n"
        "                    whole batch (K only switches them on)\n"
        "  --lapacke-subset K  geev: time the LAPACKE loop on the first K matrices only (at least\n"
        "                    4 per OpenMP thread) and extrapolate to the batch, labelled as such\n"
        "                    (default 0: the whole batch; the accuracy sample then comes from those\n"
        "                    matrices)\n"
        "  --algorithm A     force a batcheig variant through the params: a name or the enum value\n"
        "                    of batcheigAlgorithm_t (default auto = 0; syevj-block: jacobi-host-block).\n"
        "                    Names in this build:\n");
    for (const auto &a : bench::algorithm_names) std::printf("                      %-22s %d\n", a.name, (int)a.value);
    std::printf(
        "geev and syevj, host arrays on the CUDA backend (--memory host with --backend cuda, or auto\n"
        "with a GPU): the call streams the batch through the GPU(s), returns when the results are in\n"
        "host memory and is timed with the wall clock. A pinned-transfer row times, in the same run on\n"
        "the first device, the bare pinned copies of the call's input (A) host->device and of its\n"
        "outputs (eigenvalues, vectors, info; syevj: A = V with vectors, sweeps, residuals)\n"
        "device->host (CUDA events, median of --reps); each batcheig row's note gives its time / that\n"
        "time (CSV transfer_ratio). A pinned-transfer-duplex row moves the same bytes with the copies\n"
        "in and out at the same time on every device of the call (the floor of a pipeline that\n"
        "overlaps them); the batcheig row's note gives its time / that time. These options imply\n"
        "--backend cuda unless --backend is given:\n"
        "  --host-memory H   how batcheig's host arrays (A, eigenvalues, vectors, info) are allocated:\n"
        "                    pageable (default: plain memory, staged by the library's pinned ring) or\n"
        "                    pinned (cudaMallocHost: copied directly)\n"
        "  --chunk N         matrices per chunk (batcheigParamsSetStreaming; default 0: automatic)\n"
        "  --streams S       streams per device, 1 to 16 (batcheigParamsSetStreaming; default 0:\n"
        "                    automatic)\n"
        "  --devices LIST    comma-separated CUDA device ordinals that share the chunks\n"
        "                    (batcheigSetDevices; default: not called, the current device). With two or\n"
        "                    more, a batcheig-1gpu row runs the same call on the first device alone and\n"
        "                    the batcheig row's note gives the scaling time(batcheig-1gpu) /\n"
        "                    time(batcheig) (CSV gpu_scaling)\n");
}

// --algorithm: a name from the header's enumerators or a number (variants
// newer than this build's header are passed through as numbers).
int parse_algorithm(const std::string &s) {
    for (const auto &a : bench::algorithm_names)
        if (s == a.name) return (int)a.value;
    char *end = nullptr;
    const long v = std::strtol(s.c_str(), &end, 10);
    if (!s.empty() && end && *end == '\0' && v >= 0 && v <= 1000000) return (int)v;
    throw std::runtime_error("unknown --algorithm '" + s + "' (a name listed by --help or a number)");
}

}  // namespace

int main(int argc, char **argv) try {
    bench::Options opt;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--help" || a == "-h") { usage(argv[0]); return 0; }
        else if (a == "--n") opt.ns = bench::parse_list(value());
        else if (a == "--batch") opt.batch = std::atoll(value().c_str());
        else if (a == "--vectors") opt.vectors = opt.vectors_given = true;
        else if (a == "--no-vectors") {
            opt.vectors = false;
            opt.vectors_given = true;
        }
        else if (a == "--precision") {
            const std::string p = value();
            if (p.size() != 1 || std::string("sdcz").find(p[0]) == std::string::npos)
                throw std::runtime_error("--precision must be s, d, c or z");
            opt.precision = p[0];
        }
        else if (a == "--threads") opt.threads = std::atoi(value().c_str());
        else if (a == "--reps" || a == "--repeat") opt.reps = std::atoi(value().c_str());
        else if (a == "--warmup") opt.warmup = std::atoll(value().c_str());
        else if (a == "--check") opt.check = std::atoi(value().c_str());
        else if (a == "--backend") {
            opt.backend = value();
            opt.backend_given = true;
        }
        else if (a == "--memory") opt.memory = value();
        else if (a == "--host-memory") {
            opt.host_memory = value();
            opt.host_memory_given = true;
            if (opt.host_memory != "pageable" && opt.host_memory != "pinned")
                throw std::runtime_error("--host-memory must be pageable or pinned");
        }
        else if (a == "--chunk" || a == "--streams") {
            const std::string v = value();
            char *end = nullptr;
            const long x = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || !end || *end != '\0' || x < 0 || x > 2147483647L)
                throw std::runtime_error(a + " must be a non-negative integer (0: automatic)");
            (a == "--chunk" ? opt.chunk : opt.streams) = (int)x;
            opt.streaming_given = true;
        }
        else if (a == "--devices") {
            opt.devices = bench::parse_list(value(), "--devices", 0);
            if (opt.devices.empty()) throw std::runtime_error("--devices needs at least one ordinal");
            for (size_t k = 0; k < opt.devices.size(); ++k)
                for (size_t j = 0; j < k; ++j)
                    if (opt.devices[j] == opt.devices[k])
                        throw std::runtime_error("--devices lists device " + std::to_string(opt.devices[k]) +
                                                 " twice");
        }
        else if (a == "--cusolver-subset") opt.cusolver_subset = std::atoll(value().c_str());
        else if (a == "--lapacke-subset") opt.lapacke_subset = std::atoll(value().c_str());
        else if (a == "--algorithm") opt.algorithm = parse_algorithm(value());
        else if (a == "--max-acc-ratio") {
            const std::string v = value();
            char *end = nullptr;
            const double x = std::strtod(v.c_str(), &end);
            if (v.empty() || !end || *end != '\0' || !(x >= 0))
                throw std::runtime_error("--max-acc-ratio must be a non-negative number");
            opt.max_acc_ratio = x;
        }
        else if (a == "--seed") opt.seed = std::strtoull(value().c_str(), nullptr, 10);
        else if (a == "--csv") opt.csv = value();
        else if (!a.empty() && a[0] != '-') opt.workload = a;
        else throw std::runtime_error("unknown option '" + a + "' (see --help)");
    }
    if (opt.batch < 1) throw std::runtime_error("--batch must be positive");
    if (opt.reps < 1) throw std::runtime_error("--reps must be positive");
    if (opt.check < 0) opt.check = 0;
    if (opt.cusolver_subset < 0) opt.cusolver_subset = 0;
    if (opt.lapacke_subset < 0) opt.lapacke_subset = 0;
    if (opt.memory != "host" && opt.memory != "device") throw std::runtime_error("--memory must be host or device");

    const bench::Workload *wl = nullptr;
    for (const auto &w : bench::workloads)
        if (opt.workload == w.name) wl = &w;
    if (!wl) throw std::runtime_error("unknown workload '" + opt.workload + "' (see --help)");

    if (opt.threads > 0) omp_set_num_threads(opt.threads);
    const std::string blas_note = bench::limit_blas_threads();

    int version = 0;
    batcheigGetVersion(&version);
    char date[64];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", std::gmtime(&now));
    std::printf("batcheig_bench: batcheig %d.%d.%d, %s\n", version / 10000, version / 100 % 100, version % 100, date);
    std::printf("machine: %s, %d logical CPUs; OpenMP threads %d\n", bench::cpu_model().c_str(), omp_get_num_procs(),
                omp_get_max_threads());
    std::printf("batcheig: --backend %s, workspace from _bufferSize supplied by the caller\n", opt.backend.c_str());
    std::printf("anchor lapacke: #pragma omp parallel for schedule(dynamic,16) over the workload's LAPACKE routine (geev: ?geev_work, syevj: ?syevd_work / ?heevd_work; a geev "
                "subset of fewer than 16 matrices per thread: chunks of 1), per-thread workspace allocated outside the timed region; %s\n",
                blas_note.c_str());
    std::printf("timing: each implementation gets an untimed warm-up call, then %d timed calls on fresh copies of the "
                "same matrices (copies untimed); time = median (ms on screen, s in the CSV); host implementations: "
                "wall clock around the call;\n"
                "speedup = time(row) / time(batcheig row), i.e. how many times faster batcheig is than that anchor; "
                "acc.ratio over %d sampled matrices: geev max |lambda_impl - mu_j| / (n u ||A|| max(kappa_j, 1)) "
                "after pairing, mu_j and its condition number kappa_j from LAPACKE ?geev with left and right "
                "vectors (the tests' eigenvalue ratio, threshold 20); syevj max |lambda_impl - lambda_lapacke| / "
                "(||A||_1 u), both sorted\n",
                opt.reps, opt.check);

    bench::Report report(opt);
    wl->run(opt, report);
    if (opt.max_acc_ratio >= 0 && report.worst_accuracy() > opt.max_acc_ratio) {
        std::fprintf(stderr, "batcheig_bench: acc.ratio %g (%s) exceeds --max-acc-ratio %g\n", report.worst_accuracy(),
                     report.worst_accuracy_row().c_str(), opt.max_acc_ratio);
        return 3;
    }
    return 0;
} catch (const std::exception &e) {
    std::fprintf(stderr, "batcheig_bench: error: %s\n", e.what());
    return 2;
}
