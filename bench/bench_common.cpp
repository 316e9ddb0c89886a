#include "bench_common.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <stdexcept>

namespace bench {

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t k = v.size() / 2;
    return v.size() % 2 ? v[k] : 0.5 * (v[k - 1] + v[k]);
}

std::string cpu_model() {
    std::ifstream f("/proc/cpuinfo");
    std::string line;
    while (std::getline(f, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto p = line.find(':');
            if (p != std::string::npos) {
                std::string s = line.substr(p + 1);
                s.erase(0, s.find_first_not_of(" \t"));
                return s;
            }
        }
    }
    return "unknown CPU";
}

std::string limit_blas_threads() {
    // OpenBLAS exports openblas_set_num_threads; look it up at run time so the
    // bench also links against other BLAS/LAPACK implementations.
    using fn_t = void (*)(int);
    if (auto f = reinterpret_cast<fn_t>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"))) {
        f(1);
        return "OpenBLAS threads set to 1 inside the OpenMP loop";
    }
    return "BLAS is not OpenBLAS (no openblas_set_num_threads); set its thread count to 1 yourself";
}

Report::Report(const Options &opt) : opt_(opt) {
    if (!opt_.csv.empty()) {
        csv_ = std::fopen(opt_.csv.c_str(), "w");
        if (!csv_)
            throw std::runtime_error("cannot open CSV file '" + opt_.csv + "': " + std::strerror(errno));
        std::fprintf(csv_,
                     "workload,precision,n,batch,vectors,threads,reps,implementation,median_s,min_s,"
                     "matrices_per_s,gflops,batcheig_speedup,accuracy_ratio,info_nonzero\n");
        std::fflush(csv_);
    }
}

Report::~Report() {
    if (csv_) std::fclose(csv_);
}

namespace {
// Column labels and widths shared by the header and the rows.
int col_width(const std::string &label, size_t min) { return (int)std::max(min, label.size()); }
}  // namespace

void Report::begin(const std::string &title, const std::vector<std::string> &impls) {
    impls_ = impls;
    std::printf("\n%s\n", title.c_str());
    std::printf("%6s %10s", "n", "batch");
    for (const auto &i : impls_) std::printf("  %*s", col_width("t_" + i + "[s]", 12), ("t_" + i + "[s]").c_str());
    for (const auto &i : impls_) std::printf("  %*s", col_width("mat/s_" + i, 12), ("mat/s_" + i).c_str());
    for (const auto &i : impls_) std::printf("  %*s", col_width("GFLOP/s_" + i, 10), ("GFLOP/s_" + i).c_str());
    for (size_t k = 1; k < impls_.size(); ++k)
        std::printf("  %*s", col_width("ratio_vs_" + impls_[k], 10), ("ratio_vs_" + impls_[k]).c_str());
    std::printf("  %9s\n", "acc.ratio");
    std::fflush(stdout);
}

void Report::add(const CaseResult &r) {
    auto width = col_width;
    std::printf("%6d %10lld", r.n, r.batch);
    for (size_t k = 0; k < r.m.size(); ++k)
        std::printf("  %*.4f", width("t_" + impls_[k] + "[s]", 12), r.m[k].median_s);
    for (size_t k = 0; k < r.m.size(); ++k)
        std::printf("  %*.0f", width("mat/s_" + impls_[k], 12), r.batch / r.m[k].median_s);
    for (size_t k = 0; k < r.m.size(); ++k)
        std::printf("  %*.2f", width("GFLOP/s_" + impls_[k], 10), r.batch * r.flops_per_matrix / r.m[k].median_s * 1e-9);
    for (size_t k = 1; k < r.m.size(); ++k)
        std::printf("  %*.3f", width("ratio_vs_" + impls_[k], 10), r.m[k].median_s / r.m[0].median_s);
    std::printf("  %9.2f", r.m[0].accuracy);
    long long bad = 0;
    for (const auto &x : r.m) bad += x.info_nonzero;
    if (bad) {
        std::printf("  info!=0:");
        for (const auto &x : r.m) std::printf(" %s=%lld", x.impl.c_str(), x.info_nonzero);
    }
    std::printf("\n");
    std::fflush(stdout);

    if (csv_) {
        for (size_t k = 0; k < r.m.size(); ++k) {
            const Measurement &x = r.m[k];
            std::fprintf(csv_, "%s,%c,%d,%lld,%d,%d,%d,%s,%.6e,%.6e,%.6e,%.6e,%.6f,", r.workload.c_str(),
                         r.precision, r.n, r.batch, r.vectors ? 1 : 0, r.threads, r.reps, x.impl.c_str(),
                         x.median_s, x.min_s, r.batch / x.median_s,
                         r.batch * r.flops_per_matrix / x.median_s * 1e-9, x.median_s / r.m[0].median_s);
            if (x.accuracy >= 0) std::fprintf(csv_, "%.4f", x.accuracy);
            std::fprintf(csv_, ",%lld\n", x.info_nonzero);
        }
        std::fflush(csv_);
    }
}

}  // namespace bench
