// Shared pieces of batcheig_bench: options, timing, random data, the result
// table and CSV. A workload (bench/workload_*.cpp) measures the library and
// its anchors on one set of inputs and reports one CaseResult per problem size.
#pragma once

#include <chrono>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

struct Options {
    std::string workload = "geev";
    std::vector<int> ns;              // matrix sizes (workload default when empty)
    long long batch = 500000;         // matrices per call
    bool vectors = false;             // also compute (right) eigenvectors
    bool vectors_given = false;       // --vectors or --no-vectors was on the command line
    char precision = 'd';             // s, d, c, z
    int threads = 0;                  // 0: all cores (OpenMP default)
    int reps = 3;                     // timed repetitions, median reported (--reps / --repeat)
    long long warmup = 10000;         // matrices in the untimed warm-up call of each implementation
    int check = 50;                   // matrices in the accuracy sample
    double max_acc_ratio = -1;        // --max-acc-ratio: fail (exit 3) above it (< 0: off)
    std::string csv;                  // CSV output file (empty: none)
    std::string backend = "host";     // batcheig backend: host, cuda, auto
    bool backend_given = false;       // --backend was on the command line
    std::string memory = "host";      // geev, syevj: where batcheig's arrays live: host, device
    // geev, syevj with --memory host on the CUDA backend (host_streaming.hpp):
    std::string host_memory = "pageable";  // batcheig's host arrays: pageable, pinned (cudaMallocHost)
    bool host_memory_given = false;        // --host-memory was on the command line
    int chunk = 0, streams = 0;            // batcheigParamsSetStreaming (0: automatic)
    bool streaming_given = false;          // --chunk or --streams was on the command line
    std::vector<int> devices;              // batcheigSetDevices (empty: not called, the current device)
    long long cusolver_subset = 200;  // geev: matrices the cusolverDnXgeev loop is timed on (0: anchor off);
                                      // syevj: 0 turns the cuSOLVER anchors off (they are batched: whole batch)
    long long lapacke_subset = 0;     // geev: matrices the LAPACKE loop is timed on, extrapolated (0: all)
    int algorithm = 0;                // batcheig variant forced through the params (0: BATCHEIG_ALG_AUTO)
    std::uint64_t seed = 12345;
};

// ---- timing -------------------------------------------------------------------
using Clock = std::chrono::steady_clock;
inline double seconds(Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}
double median(std::vector<double> v);

// ---- random data: counter-based so parallel generation is deterministic ------
inline std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}
// Uniform [-1, 1) from (seed, matrix, element).
inline double uniform_pm1(std::uint64_t seed, std::uint64_t matrix, std::uint64_t k) {
    const std::uint64_t z = splitmix64(seed ^ splitmix64(matrix * 0x100000001B3ULL + k));
    return 2.0 * ((z >> 11) * 0x1.0p-53) - 1.0;
}

// ---- memory spaces ----------------------------------------------------------------
enum class Memory { host, device };
inline const char *memory_name(Memory m) { return m == Memory::host ? "host" : "device"; }

// ---- command-line lists ---------------------------------------------------------
// A list of values and ranges a:b[:step] (--n, --devices), each >= `least`.
inline std::vector<int> parse_list(const std::string &s, const char *option = "--n", int least = 1) {
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
        else throw std::runtime_error(std::string("bad ") + option + " item '" + item + "'");
    }
    for (int x : v)
        if (x < least)
            throw std::runtime_error(std::string(option) +
                                     (least == 1 ? " values must be positive" : " values must not be negative"));
    return v;
}

// ---- precision traits ----------------------------------------------------------
template <class T> struct scalar_traits {
    using real = T;
    static constexpr bool is_complex = false;
    static constexpr double flop_factor = 1.0;  // real flops per "flop" of the n^3 estimate
};
template <class R> struct scalar_traits<std::complex<R>> {
    using real = R;
    static constexpr bool is_complex = true;
    static constexpr double flop_factor = 4.0;  // a complex multiply-add is ~4x a real one (8 vs 2 flops)
};
template <class T> constexpr char precision_char();
template <> constexpr char precision_char<float>() { return 's'; }
template <> constexpr char precision_char<double>() { return 'd'; }
template <> constexpr char precision_char<std::complex<float>>() { return 'c'; }
template <> constexpr char precision_char<std::complex<double>>() { return 'z'; }

// ---- results -------------------------------------------------------------------
struct Measurement {
    std::string impl;             // "batcheig" first, then the anchors
    std::string memory = "host";  // where the implementation's arrays live: host, device
    double median_s = 0, min_s = 0;  // one call on the whole batch (extrapolated when timed < batch)
    long long timed = 0;          // matrices actually timed (0: the whole batch); fewer: times
                                  // extrapolated linearly to the batch
    long long info_nonzero = 0;   // matrices with info != 0 (among the timed ones)
    double accuracy = -1;         // worst accuracy ratio vs the reference anchor (-1: not applicable)
    bool reference = false;       // this implementation is the accuracy reference
    double h2d_s = -1, d2h_s = -1;  // device memory: median host->device copy of A and
                                    // device->host copy of the outputs, whole batch (-1: not reported)
    int algorithm = -1;           // batcheig rows: the variant forced through the params (0: auto); -1: n/a
    // Not measured: a short status shown in place of the time and written to
    // the CSV's status column ("n/a (n>32)", "OOM", a library status, ...),
    // with the reason in `note`. Empty: measured.
    std::string status;
    std::string note;               // printed at the end of the row (and extrapolation notes)
    // syevj with vectors, batcheig rows: worst eigenvector residual
    // max_j ||A v_j - lambda_j v_j||_2 / (||A||_1 u) and orthogonality
    // max |V^H V - I|_ij / u over a sample (-1: not checked).
    double vec_residual = -1, vec_orthogonality = -1;
    // Host arrays on the CUDA backend (host_streaming.hpp); empty / -1: not applicable.
    std::string host_memory;        // batcheig rows: pageable or pinned; the pinned-transfer row: pinned
    int chunk = -1, streams = -1;   // batcheig rows: as passed to batcheigParamsSetStreaming (0: automatic)
    std::string devices;            // batcheig rows: the batcheigSetDevices list ("0;1"), "default" when not
                                    // set; the pinned-transfer row: the device it ran on
    double transfer_ratio = -1;     // batcheig rows: time / time of the pinned-transfer row
    double gpu_scaling = -1;        // the multi-GPU batcheig row: time(batcheig-1gpu) / time
    bool transfer_only = false;     // the pinned-transfer row: no flops, accuracy or info to show
};

struct CaseResult {
    std::string workload;
    char precision = 'd';
    int n = 0;
    long long batch = 0;
    bool vectors = false;
    int threads = 0;
    int reps = 0;
    double flops_per_matrix = 0;      // estimate, see docs/performance.md
    std::vector<Measurement> m;       // m[0] is batcheig
    std::string accuracy_note;        // what the accuracy ratio measures
};

// Prints the table as rows arrive and writes the CSV. Both have one line per
// (size, implementation), so new anchors add lines, not columns, and the
// printed columns are the CSV's (times in ms on screen, in s in the CSV).
class Report {
public:
    explicit Report(const Options &opt);
    ~Report();
    void begin(const std::string &title, const std::vector<std::string> &impls);
    void add(const CaseResult &r);
    // Worst accuracy ratio of the rows so far (NaN counts as infinity; 0
    // when no row had one), and the row that had it ("n=.. impl").
    double worst_accuracy() const { return worst_accuracy_; }
    const std::string &worst_accuracy_row() const { return worst_accuracy_row_; }

private:
    const Options &opt_;
    std::FILE *csv_ = nullptr;
    int name_width_ = 14;
    int groups_ = 0;  // sizes printed since begin()
    double worst_accuracy_ = 0;
    std::string worst_accuracy_row_;
};

// Machine description for the report header ("model name" from /proc/cpuinfo).
std::string cpu_model();
// Ask OpenBLAS (if it is the BLAS in use) to run single-threaded inside the
// anchors' OpenMP loops; returns a note on what was done.
std::string limit_blas_threads();

}  // namespace bench
