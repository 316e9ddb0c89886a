// geev_latency_probe.cu: where one matrix's time goes in the warp variant's
// one-launch eigenvalue kernel (small n, eigenvalues only), phase by phase.
// Each team of P lanes runs the library's core routines on its matrix in
// shared memory, as cuda/geev/geev_team.cuh's eigenvalues_in_shared does
// (copy in, max_abs, gebal, gehd2, lahqr_real), and its leader records the
// SM clock (clock64) at each phase boundary. A second launch runs the same
// with a team that counts its barriers (a proxy for the QR's chase steps).
// Only `active` teams of each warp take a matrix (the library: all 32 / P).
// gehd2 runs its one-sided form, the library's at P < 8 (from 8 lanes on
// the library's kernels take the two-sided form, not this probe).
// Built on request (CUDA builds):
//   ninja -C build/release batcheig_geev_latency_probe
//   batcheig_geev_latency_probe N BATCH [P=2] [ACTIVE=32/P] [SEED=1]
// (P: 2, 4, 8, 16 or 32)
// Prints, per phase, the cycles' mean, median, 99th percentile and maximum
// over the batch, and the kernel's time (CUDA events).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <type_traits>
#include <vector>

#include "core/geev.hpp"
#include "cuda/team.cuh"
#include "cuda_util.hpp"

namespace {

using batcheig::core::index_t;
constexpr int kPhases = 5;  // copy, max_abs, gebal, gehd2, lahqr
const char *const kPhaseNames[kPhases] = {"copy in", "max_abs", "gebal", "gehd2", "lahqr"};

// A warp team that counts its barriers in a register of each member.
template <int P>
struct CountingTeam : batcheig::cuda::WarpTeam<P> {
    int *count;
    __device__ void sync() const {
        ++*count;
        batcheig::cuda::WarpTeam<P>::sync();
    }
};

template <int P, bool Count>
__global__ void probe_kernel(int n, std::int64_t batch, int active, const double *a, double *w,
                             long long *cycles, int *barriers, int *info) {
    extern __shared__ double smem[];
    const int ld = n | 1;
    const int slice = ld * n + 2 * n + 1;  // a, tau, scale (odd length)
    const int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    const int team_in_warp = lane / P;
    const int warps_per_block = blockDim.x / 32;
    const std::int64_t b = (std::int64_t(blockIdx.x) * warps_per_block + warp) * active + team_in_warp;
    if (team_in_warp >= active || b >= batch) return;
    double *sa = smem + std::size_t(warp * active + team_in_warp) * slice;
    int counted = 0;
    auto base = batcheig::cuda::WarpTeam<P>::make();
    std::conditional_t<Count, CountingTeam<P>, batcheig::cuda::WarpTeam<P>> tm;
    static_cast<batcheig::cuda::WarpTeam<P> &>(tm) = base;
    if constexpr (Count) tm.count = &counted;
    long long t[kPhases + 1];
    int bars[kPhases + 1];
    t[0] = clock64();
    bars[0] = counted;
    const double *g = a + b * std::int64_t(n) * n;
    for (int e = tm.first(0); e < n * n; e += tm.size()) sa[e % n + (e / n) * ld] = g[e];
    tm.sync();
    t[1] = clock64();
    bars[1] = counted;
    const batcheig::core::SharedView<double> h{sa, ld}, none{nullptr, ld};
    double *tau = sa + std::size_t(ld) * n, *scale = tau + n;
    const double anrm = batcheig::core::detail::max_abs(tm, n, h);
    tm.sync();
    t[2] = clock64();
    bars[2] = counted;
    index_t ilo = 0, ihi = 0;
    batcheig::core::gebal(tm, n, h, ilo, ihi, batcheig::core::VecView<double>{scale, 1});
    tm.sync();
    t[3] = clock64();
    bars[3] = counted;
    batcheig::core::gehd2(tm, n, ilo, ihi, h, batcheig::core::VecView<double>{tau, 1},
                          batcheig::core::VecView<double>{nullptr, 1});
    tm.sync();
    t[4] = clock64();
    bars[4] = counted;
    double *wr = w + b * 2 * n, *wi = wr + n;
    const index_t r = batcheig::core::lahqr_real(tm, false, false, n, ilo, ihi, h, batcheig::core::VecView<double>{wr, 1},
                                                 batcheig::core::VecView<double>{wi, 1}, ilo, ihi, none, 0);
    tm.sync();
    t[5] = clock64();
    bars[5] = counted;
    if (tm.leader()) {
        for (int k = 0; k < kPhases; ++k) {
            cycles[b * kPhases + k] = t[k + 1] - t[k];
            barriers[b * kPhases + k] = bars[k + 1] - bars[k];
        }
        info[b] = int(r) + (anrm != anrm ? 1000 : 0);
    }
}

template <int P, bool Count>
float run(int n, std::int64_t batch, int active, const double *a, double *w, long long *cycles, int *barriers,
          int *info) {
    const int slice = (n | 1) * n + 2 * n + 1;
    const int warps_per_block = 4;
    const std::int64_t per_block = std::int64_t(warps_per_block) * active;
    const unsigned blocks = unsigned((batch + per_block - 1) / per_block);
    const std::size_t bytes = std::size_t(warps_per_block) * active * slice * sizeof(double);
    bench::cuda::check(cudaFuncSetAttribute(probe_kernel<P, Count>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            int(bytes)),
                       "shared memory");
    cudaEvent_t e0, e1;
    bench::cuda::check(cudaEventCreate(&e0), "event");
    bench::cuda::check(cudaEventCreate(&e1), "event");
    float best = 1e30f;
    for (int rep = 0; rep < 5; ++rep) {
        cudaEventRecord(e0);
        probe_kernel<P, Count><<<blocks, warps_per_block * 32, bytes>>>(n, batch, active, a, w, cycles, barriers, info);
        cudaEventRecord(e1);
        bench::cuda::check(cudaEventSynchronize(e1), "probe kernel");
        float ms = 0;
        cudaEventElapsedTime(&ms, e0, e1);
        best = std::min(best, ms);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return best;
}

template <class V>
void summary(const char *name, std::vector<V> v) {
    std::sort(v.begin(), v.end());
    double sum = 0;
    for (V x : v) sum += double(x);
    const std::size_t k = v.size();
    std::printf("  %-10s mean %9.0f  median %9.0f  p99 %9.0f  max %9.0f\n", name, sum / double(k), double(v[k / 2]),
                double(v[std::min(k - 1, k * 99 / 100)]), double(v[k - 1]));
}

template <int P>
int probe(int n, std::int64_t batch, int active, unsigned seed) {
    if (active <= 0 || active > 32 / P) active = 32 / P;
    std::vector<double> ha(std::size_t(batch) * n * n);
    std::uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
    for (double &x : ha) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        x = double(s >> 11) * 0x1p-52 - 1.0;
    }
    double *a, *w;
    long long *cycles;
    int *bars, *info;
    bench::cuda::check(cudaMalloc(&a, ha.size() * sizeof(double)), "malloc");
    bench::cuda::check(cudaMalloc(&w, std::size_t(batch) * 2 * n * sizeof(double)), "malloc");
    bench::cuda::check(cudaMalloc(&cycles, std::size_t(batch) * kPhases * sizeof(long long)), "malloc");
    bench::cuda::check(cudaMalloc(&bars, std::size_t(batch) * kPhases * sizeof(int)), "malloc");
    bench::cuda::check(cudaMalloc(&info, std::size_t(batch) * sizeof(int)), "malloc");
    bench::cuda::check(cudaMemcpy(a, ha.data(), ha.size() * sizeof(double), cudaMemcpyHostToDevice), "copy");
    // Each launch overwrites a (the kernel reduces in shared memory only).
    const float ms = run<P, false>(n, batch, active, a, w, cycles, bars, info);
    std::vector<long long> hc(std::size_t(batch) * kPhases);
    bench::cuda::check(cudaMemcpy(hc.data(), cycles, hc.size() * sizeof(long long), cudaMemcpyDeviceToHost), "copy");
    const float ms_count = run<P, true>(n, batch, active, a, w, cycles, bars, info);
    std::vector<int> hb(std::size_t(batch) * kPhases), hi(static_cast<std::size_t>(batch));
    bench::cuda::check(cudaMemcpy(hb.data(), bars, hb.size() * sizeof(int), cudaMemcpyDeviceToHost), "copy");
    bench::cuda::check(cudaMemcpy(hi.data(), info, hi.size() * sizeof(int), cudaMemcpyDeviceToHost), "copy");
    int failed = 0;
    for (int x : hi) failed += x != 0;
    std::printf("n = %d, batch %lld, P = %d, %d teams per warp: kernel %.4f ms (counting team %.4f ms), %d not "
                "converged\n",
                n, (long long)batch, P, active, ms, ms_count, failed);
    std::vector<long long> total(static_cast<std::size_t>(batch), 0);
    for (int k = 0; k < kPhases; ++k) {
        std::vector<long long> c(static_cast<std::size_t>(batch));
        for (std::int64_t b = 0; b < batch; ++b) {
            c[std::size_t(b)] = hc[std::size_t(b) * kPhases + k];
            total[std::size_t(b)] += c[std::size_t(b)];
        }
        summary(kPhaseNames[k], c);
    }
    summary("all", total);
    std::printf("  barriers per phase (counting launch):\n");
    for (int k = 0; k < kPhases; ++k) {
        std::vector<int> c(static_cast<std::size_t>(batch));
        for (std::int64_t b = 0; b < batch; ++b) c[std::size_t(b)] = hb[std::size_t(b) * kPhases + k];
        summary(kPhaseNames[k], c);
    }
    cudaFree(a);
    cudaFree(w);
    cudaFree(cycles);
    cudaFree(bars);
    cudaFree(info);
    return 0;
}

}  // namespace

int main(int argc, char **argv) try {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s N BATCH [P=2] [ACTIVE=32/P] [SEED=1]\n", argv[0]);
        return 2;
    }
    const int n = std::atoi(argv[1]);
    const std::int64_t batch = std::atoll(argv[2]);
    const int p = argc > 3 ? std::atoi(argv[3]) : 2;
    const int active = argc > 4 ? std::atoi(argv[4]) : 0;
    const unsigned seed = argc > 5 ? unsigned(std::atoi(argv[5])) : 1u;
    if (n < 1 || n > 32 || batch < 1) {
        std::fprintf(stderr, "N in 1..32, BATCH >= 1\n");
        return 2;
    }
    switch (p) {
        case 2: return probe<2>(n, batch, active, seed);
        case 4: return probe<4>(n, batch, active, seed);
        case 8: return probe<8>(n, batch, active, seed);
        case 16: return probe<16>(n, batch, active, seed);
        case 32: return probe<32>(n, batch, active, seed);
        default: std::fprintf(stderr, "P: 2, 4, 8, 16 or 32\n"); return 2;
    }
} catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
