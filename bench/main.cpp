// batcheig_bench: measure batcheig against the anchors a user would otherwise
// use, in one process, on the same data. See docs/performance.md.
//
//   batcheig_bench [workload] [options]       (workload: geev; default geev)
#include <batcheig.h>

#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <sstream>
#include <string>

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
        "  --vectors         also compute right eigenvectors (default: eigenvalues only)\n"
        "  --precision P     s, d, c or z (default d)\n"
        "  --threads T       OpenMP threads for batcheig and the anchors (default: all cores)\n"
        "  --reps R          timed repetitions; the median is reported (default 3)\n"
        "  --warmup N        matrices in each implementation's untimed warm-up call (default 10000)\n"
        "  --check K         matrices in the accuracy sample (default 50)\n"
        "  --backend B       batcheig backend: host (default), auto, cuda\n"
        "  --seed S          random seed (default 12345)\n"
        "  --csv FILE        also write the results as CSV\n"
        "  --help            this text\n");
}

std::vector<int> parse_list(const std::string &s) {
    std::vector<int> v;
    std::stringstream ss(s);
    std::string item;
    while (std::getline(ss, item, ',')) {
        if (item.empty()) continue;
        int a = 0, b = 0, step = 1;
        const int k = std::sscanf(item.c_str(), "%d:%d:%d", &a, &b, &step);
        if (k == 1) v.push_back(a);
        else if (k >= 2 && step > 0 && a <= b)
            for (int x = a; x <= b; x += step) v.push_back(x);
        else throw std::runtime_error("bad --n item '" + item + "'");
    }
    for (int x : v)
        if (x < 1) throw std::runtime_error("--n values must be positive");
    return v;
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
        else if (a == "--n") opt.ns = parse_list(value());
        else if (a == "--batch") opt.batch = std::atoll(value().c_str());
        else if (a == "--vectors") opt.vectors = true;
        else if (a == "--precision") {
            const std::string p = value();
            if (p.size() != 1 || std::string("sdcz").find(p[0]) == std::string::npos)
                throw std::runtime_error("--precision must be s, d, c or z");
            opt.precision = p[0];
        }
        else if (a == "--threads") opt.threads = std::atoi(value().c_str());
        else if (a == "--reps") opt.reps = std::atoi(value().c_str());
        else if (a == "--warmup") opt.warmup = std::atoll(value().c_str());
        else if (a == "--check") opt.check = std::atoi(value().c_str());
        else if (a == "--backend") opt.backend = value();
        else if (a == "--seed") opt.seed = std::strtoull(value().c_str(), nullptr, 10);
        else if (a == "--csv") opt.csv = value();
        else if (!a.empty() && a[0] != '-') opt.workload = a;
        else throw std::runtime_error("unknown option '" + a + "' (see --help)");
    }
    if (opt.batch < 1) throw std::runtime_error("--batch must be positive");
    if (opt.reps < 1) throw std::runtime_error("--reps must be positive");
    if (opt.check < 0) opt.check = 0;

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
    std::printf("batcheig: backend %s, workspace from _bufferSize supplied by the caller\n", opt.backend.c_str());
    std::printf("anchor lapacke: #pragma omp parallel for schedule(dynamic,16) over the workload's LAPACKE routine (geev: ?geev_work, syevj: ?syevd_work / ?heevd_work), per-thread workspace allocated "
                "outside the timed region; %s\n",
                blas_note.c_str());
    std::printf("timing: each implementation gets an untimed warm-up call, then %d timed calls on fresh copies of the "
                "same matrices (copies untimed); ratio = batcheig throughput / anchor throughput;\n"
                "acc.ratio = max |lambda_batcheig - lambda_lapacke| / (||A||_1 u) over %d sampled matrices after "
                "pairing\n",
                opt.reps, opt.check);

    bench::Report report(opt);
    wl->run(opt, report);
    return 0;
} catch (const std::exception &e) {
    std::fprintf(stderr, "batcheig_bench: error: %s\n", e.what());
    return 2;
}
