#include "bench_common.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <limits>
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
        // The first 15 columns are those of the earlier bench versions (docs/results/*.csv);
        // later columns are only ever appended (the last six: host arrays on the CUDA
        // backend, host_streaming.hpp). A row whose status is not empty was not
        // measured: its time columns are empty.
        std::fprintf(csv_,
                     "workload,precision,n,batch,vectors,threads,reps,implementation,median_s,min_s,"
                     "matrices_per_s,gflops,batcheig_speedup,accuracy_ratio,info_nonzero,"
                     "memory,timed_matrices,h2d_s,d2h_s,algorithm,status,vector_residual_ratio,"
                     "vector_orthogonality_ratio,host_memory,chunk,streams,devices,transfer_ratio,"
                     "gpu_scaling\n");
        std::fflush(csv_);
    }
}

Report::~Report() {
    if (csv_) std::fclose(csv_);
}

void Report::begin(const std::string &title, const std::vector<std::string> &impls) {
    name_width_ = 14;
    groups_ = 0;
    for (const auto &i : impls) name_width_ = std::max(name_width_, (int)i.size());
    std::printf("\n%s\n", title.c_str());
    std::printf("%5s %8s  %-*s %-6s %11s %13s %9s %8s %9s %7s %9s %9s  %s\n", "n", "batch", name_width_,
                "implementation", "memory", "time[ms]", "matrices/s", "GFLOP/s", "speedup", "acc.ratio", "info!=0",
                "h2d[ms]", "d2h[ms]", "note");
    std::fflush(stdout);
}

namespace {
// "-" for a value that does not apply (negative), else the value in ms.
std::string ms_or_dash(double s) {
    if (s < 0) return "-";
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", s * 1e3);
    return b;
}
}  // namespace

namespace {
// A CSV field: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string &v) {
    if (v.find_first_of(",\"\n") == std::string::npos) return v;
    std::string q = "\"";
    for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}
}  // namespace

void Report::add(const CaseResult &r) {
    // batcheig is m[0]; speedups need its time (absent when it was not measured).
    const bool have_t0 = !r.m.empty() && r.m[0].status.empty() && r.m[0].median_s > 0;
    const double t0 = have_t0 ? r.m[0].median_s : 0.0;
    if (groups_++ > 0 && r.m.size() > 1) std::printf("\n");  // one block of rows per size
    for (const Measurement &x : r.m) {
        if (x.status.empty() && (x.accuracy >= 0 || std::isnan(x.accuracy))) {
            const double a = std::isnan(x.accuracy) ? std::numeric_limits<double>::infinity() : x.accuracy;
            if (worst_accuracy_row_.empty() || a > worst_accuracy_) {
                worst_accuracy_ = a;
                worst_accuracy_row_ = "n=" + std::to_string(r.n) + " " + x.impl;
            }
        }
        const long long timed = x.timed > 0 ? x.timed : r.batch;
        std::string note = x.note;
        if (x.status.empty() && timed < r.batch)
            note = "extrapolated from " + std::to_string(timed) + " matrices" + (note.empty() ? "" : "; " + note);
        if (!x.status.empty()) {
            // The status in place of the time, then the reason; no numbers.
            std::printf("%5d %8lld  %-*s %-6s %11s  %s\n", r.n, r.batch, name_width_, x.impl.c_str(),
                        x.memory.c_str(), x.status.c_str(), note.c_str());
            continue;
        }
        if (x.transfer_only) {
            // Bytes moved, no eigenvalues: no GFLOP/s, accuracy or info.
            char speedup[32] = "-";
            if (have_t0) std::snprintf(speedup, sizeof speedup, "%.2f", x.median_s / t0);
            std::printf("%5d %8lld  %-*s %-6s %11.3f %13.0f %9s %8s %9s %7s %9s %9s%s%s\n", r.n, r.batch,
                        name_width_, x.impl.c_str(), x.memory.c_str(), x.median_s * 1e3, r.batch / x.median_s, "-",
                        speedup, "-", "-", ms_or_dash(x.h2d_s).c_str(), ms_or_dash(x.d2h_s).c_str(),
                        note.empty() ? "" : "  ", note.c_str());
            continue;
        }
        std::string acc = "-";
        if (x.reference) acc = "ref";
        else if (x.accuracy >= 0) {
            char b[32];
            std::snprintf(b, sizeof b, "%.2f", x.accuracy);
            acc = b;
        }
        char speedup[32] = "-";
        if (have_t0) std::snprintf(speedup, sizeof speedup, "%.2f", x.median_s / t0);
        std::printf("%5d %8lld  %-*s %-6s %11.3f %13.0f %9.2f %8s %9s %7lld %9s %9s%s%s\n", r.n, r.batch,
                    name_width_, x.impl.c_str(), x.memory.c_str(), x.median_s * 1e3, r.batch / x.median_s,
                    r.batch * r.flops_per_matrix / x.median_s * 1e-9, speedup, acc.c_str(), x.info_nonzero,
                    ms_or_dash(x.h2d_s).c_str(), ms_or_dash(x.d2h_s).c_str(), note.empty() ? "" : "  ",
                    note.c_str());
    }
    std::fflush(stdout);

    if (csv_) {
        for (const Measurement &x : r.m) {
            std::fprintf(csv_, "%s,%c,%d,%lld,%d,%d,%d,%s,", r.workload.c_str(), r.precision, r.n, r.batch,
                         r.vectors ? 1 : 0, r.threads, r.reps, x.impl.c_str());
            const bool measured = x.status.empty();
            if (measured && x.transfer_only)
                std::fprintf(csv_, "%.6e,%.6e,%.6e,,", x.median_s, x.min_s, r.batch / x.median_s);
            else if (measured)
                std::fprintf(csv_, "%.6e,%.6e,%.6e,%.6e,", x.median_s, x.min_s, r.batch / x.median_s,
                             r.batch * r.flops_per_matrix / x.median_s * 1e-9);
            else std::fprintf(csv_, ",,,,");
            if (measured && have_t0) std::fprintf(csv_, "%.6f", x.median_s / t0);
            std::fprintf(csv_, ",");
            if (measured && x.accuracy >= 0) std::fprintf(csv_, "%.4f", x.accuracy);
            std::fprintf(csv_, ",");
            if (measured && !x.transfer_only) std::fprintf(csv_, "%lld", x.info_nonzero);
            std::fprintf(csv_, ",%s,%lld,", x.memory.c_str(), x.timed > 0 ? x.timed : r.batch);
            if (x.h2d_s >= 0) std::fprintf(csv_, "%.6e", x.h2d_s);
            std::fprintf(csv_, ",");
            if (x.d2h_s >= 0) std::fprintf(csv_, "%.6e", x.d2h_s);
            std::fprintf(csv_, ",");
            if (x.algorithm >= 0) std::fprintf(csv_, "%d", x.algorithm);
            std::fprintf(csv_, ",%s,", csv_field(x.status).c_str());
            if (x.vec_residual >= 0) std::fprintf(csv_, "%.4f", x.vec_residual);
            std::fprintf(csv_, ",");
            if (x.vec_orthogonality >= 0) std::fprintf(csv_, "%.4f", x.vec_orthogonality);
            std::fprintf(csv_, ",%s,", csv_field(x.host_memory).c_str());
            if (x.chunk >= 0) std::fprintf(csv_, "%d", x.chunk);
            std::fprintf(csv_, ",");
            if (x.streams >= 0) std::fprintf(csv_, "%d", x.streams);
            std::fprintf(csv_, ",%s,", csv_field(x.devices).c_str());
            if (measured && x.transfer_ratio >= 0) std::fprintf(csv_, "%.4f", x.transfer_ratio);
            std::fprintf(csv_, ",");
            if (measured && x.gpu_scaling >= 0) std::fprintf(csv_, "%.4f", x.gpu_scaling);
            std::fprintf(csv_, "\n");
        }
        std::fflush(csv_);
    }
}

}  // namespace bench
