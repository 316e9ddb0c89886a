// gehrd_rows_probe.cu: how fast could the Hessenberg reduction of many small
// real matrices be with each matrix's rows in registers? A prototype, not the
// library (whose reduction launch, core::gehd2_team over a matrix in shared
// memory, takes about a fifth of the eigenvalue call at double n = 30 and
// more at smaller n; docs/performance.md, sessions 59-60 and 66).
//
// A team of P lanes (P = 16 or 32, two or one teams per warp) holds one
// n x n matrix (n <= P), lane i row i in P registers. The k-loop is unrolled
// at compile time, so every register index is a constant and the passes over
// columns k+1..P-1 shrink with k. Per reflector (xGEHD2's order: from the
// right, then from the left):
//   - the column's sum of squares by a butterfly over the team; beta, tau
//     and the scaling of v from them (the fast path of xLARFG, no guard
//     against over- or underflow: random matrices only);
//   - from the right: v through shared memory (one store per lane, then
//     broadcast loads), each lane's y = A(i, k+1:) v and its update;
//   - from the left: each lane stores v_i A(i, k+1:) into a padded tile,
//     lane c sums column c, the sums go back through shared memory.
// No balancing. The output is H, n x n column-major, zeros below the
// subdiagonal.
//
// Checks H against LAPACKE_?gehrd on a sample (max |difference| / (||A||_F n
// u)), then times the kernel with CUDA events (median of REPS, after a
// warm-up) on a batch of random matrices uniform in [-1, 1].
// The same reduction built into the library's reduction launches (slower
// there, not kept; docs/performance.md, session 66) is kept as a patch
// against the library: bench/experiments/gehd2_rows_library.patch
// (`git apply` from the repository's root).
// Built on request (CUDA builds):
//   ninja -C build/release batcheig_gehrd_rows_probe
//   batcheig_gehrd_rows_probe [N_LIST=15,20,25,30] [BATCH=100000] [REPS=7] [d|s]
#include <cuda_runtime.h>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cuda_util.hpp"

#define CHECK(x) bench::cuda::check((x), #x)

namespace {

constexpr int kWarpsPerBlock = 4;

template <int P, class T>
__device__ T team_sum(T v) {
#pragma unroll
    for (int o = P / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o, P);
    return v;
}

// One step (reflector K) of the reduction for the team's matrix.
template <int P, int K, class T>
__device__ __forceinline__ void step(T (&r)[P], int lane, T *vv, T *ww, T (*tile)[P + 1]) {
    const T xk = r[K];
    const T alpha = __shfl_sync(0xffffffffu, xk, K + 1, P);
    const T sq = team_sum<P>(lane >= K + 2 ? xk * xk : T(0));
    const T nrm = sqrt(alpha * alpha + sq);
    const T b = alpha >= T(0) ? -nrm : nrm;
    const bool refl = sq != T(0);  // xLARFG: H = I when x(2:) is zero
    const T tau = refl ? (b - alpha) / b : T(0);
    const T scal = refl ? T(1) / (alpha - b) : T(0);
    const T v = lane == K + 1 ? T(1) : (lane >= K + 2 ? xk * scal : T(0));
    if (lane == K + 1) r[K] = refl ? b : alpha;
    if (lane >= K + 2) r[K] = T(0);
    // From the right: rows 0..n-1, columns K+1..P-1.
    vv[lane] = v;
    __syncwarp();
    T y = T(0);
#pragma unroll
    for (int c = K + 1; c < P; ++c) y = fma(r[c], vv[c], y);
    const T ty = tau * y;
#pragma unroll
    for (int c = K + 1; c < P; ++c) r[c] = fma(-ty, vv[c], r[c]);
    // From the left: rows K+1..n-1 (v nonzero), columns K+1..P-1.
#pragma unroll
    for (int c = K + 1; c < P; ++c) tile[lane][c] = v * r[c];
    __syncwarp();
    T w = T(0);
#pragma unroll
    for (int i = K + 1; i < P; ++i) w += tile[i][lane];
    ww[lane] = w;
    __syncwarp();
    const T tv = tau * v;
#pragma unroll
    for (int c = K + 1; c < P; ++c) r[c] = fma(-tv, ww[c], r[c]);
}

template <int P, int K, class T>
__device__ __forceinline__ void steps(T (&r)[P], int lane, int n, T *vv, T *ww, T (*tile)[P + 1]) {
    if constexpr (K < P - 2) {
        if (K + 2 >= n) return;  // uniform over the launch
        step<P, K>(r, lane, vv, ww, tile);
        steps<P, K + 1>(r, lane, n, vv, ww, tile);
    }
}

template <int P, class T>
__global__ void __launch_bounds__(32 * kWarpsPerBlock) gehrd_rows_kernel(const T *__restrict__ a, T *__restrict__ h,
                                                                         int n, long long batch) {
    constexpr int teams = kWarpsPerBlock * (32 / P);
    __shared__ T tile_s[teams][P][P + 1];
    __shared__ T vec_s[teams][2][P];
    const int lane = threadIdx.x & (P - 1);
    const int team = threadIdx.x / P;
    const long long mat = static_cast<long long>(blockIdx.x) * teams + team;
    // Teams past the batch run on zeros with the others of their warp and
    // store nothing.
    const bool live = mat < batch;
    const long long nn = static_cast<long long>(n) * n;
    const T *A = a + (live ? mat : 0) * nn;
    T r[P];
#pragma unroll
    for (int c = 0; c < P; ++c) r[c] = (live && lane < n && c < n) ? A[lane + static_cast<long long>(c) * n] : T(0);
    steps<P, 0>(r, lane, n, vec_s[team][0], vec_s[team][1], tile_s[team]);
    if (!live || lane >= n) return;
    T *H = h + mat * nn;
#pragma unroll
    for (int c = 0; c < P; ++c)
        if (c < n) H[lane + static_cast<long long>(c) * n] = lane <= c + 1 ? r[c] : T(0);
}

lapack_int gehrd(int n, double *a, double *tau) { return LAPACKE_dgehrd(LAPACK_COL_MAJOR, n, 1, n, a, n, tau); }
lapack_int gehrd(int n, float *a, float *tau) { return LAPACKE_sgehrd(LAPACK_COL_MAJOR, n, 1, n, a, n, tau); }

template <class T>
void run(int n, long long batch, int reps) {
    const long long nn = static_cast<long long>(n) * n;
    std::vector<T> a(batch * nn);
    std::mt19937_64 gen(2026);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    for (auto &x : a) x = T(dist(gen));
    bench::cuda::DeviceArray<T> a_dev(a.size()), h_dev(a.size());
    T *const da = a_dev.get(), *const dh = h_dev.get();
    CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(T), cudaMemcpyHostToDevice));
    const int P = n <= 16 ? 16 : 32;
    const int teams = kWarpsPerBlock * (32 / P);
    const unsigned blocks = static_cast<unsigned>((batch + teams - 1) / teams);
    auto launch = [&] {
        if (P == 16)
            gehrd_rows_kernel<16, T><<<blocks, 32 * kWarpsPerBlock>>>(da, dh, n, batch);
        else
            gehrd_rows_kernel<32, T><<<blocks, 32 * kWarpsPerBlock>>>(da, dh, n, batch);
    };
    launch();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    // Check a sample against LAPACKE.
    std::vector<T> h(a.size());
    CHECK(cudaMemcpy(h.data(), dh, h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    const long long sample = std::min<long long>(batch, 500);
    double worst = 0;
    std::vector<T> ref(nn), tau(n);
    for (long long m = 0; m < sample; ++m) {
        const long long at = (m * 7919) % batch;
        std::copy(a.begin() + at * nn, a.begin() + (at + 1) * nn, ref.begin());
        double fro = 0;
        for (auto x : ref) fro += double(x) * double(x);
        gehrd(n, ref.data(), tau.data());
        double diff = 0;
        for (int c = 0; c < n; ++c)
            for (int i = 0; i <= std::min(c + 1, n - 1); ++i)
                diff = std::max(diff, std::abs(double(h[at * nn + i + c * n]) - double(ref[i + c * n])));
        worst = std::max(worst, diff / (std::sqrt(fro) * n * std::numeric_limits<T>::epsilon()));
    }
    bench::cuda::EventTimer timer;
    std::vector<double> ms;
    for (int r = 0; r < reps; ++r) {
        timer.start(nullptr);
        launch();
        ms.push_back(timer.stop(nullptr) * 1e3);
    }
    std::sort(ms.begin(), ms.end());
    cudaFuncAttributes attr{};
    if (P == 16)
        CHECK(cudaFuncGetAttributes(&attr, gehrd_rows_kernel<16, T>));
    else
        CHECK(cudaFuncGetAttributes(&attr, gehrd_rows_kernel<32, T>));
    std::printf("%s n = %2d  P = %2d  batch %lld: median %.4f ms (min %.4f)  registers %d  local %zu B  "
                "shared %zu B  max |H - LAPACKE| / (||A||_F n u) = %.3g over %lld matrices\n",
                sizeof(T) == 8 ? "double" : "float ", n, P, batch, ms[ms.size() / 2], ms.front(), attr.numRegs,
                attr.localSizeBytes, attr.sharedSizeBytes, worst, sample);
}

}  // namespace

int main(int argc, char **argv) {
    std::vector<int> ns;
    {
        std::stringstream ss(argc > 1 ? argv[1] : "15,20,25,30");
        std::string tok;
        while (std::getline(ss, tok, ',')) ns.push_back(std::stoi(tok));
    }
    const long long batch = argc > 2 ? std::atoll(argv[2]) : 100000;
    const int reps = argc > 3 ? std::atoi(argv[3]) : 7;
    const bool single = argc > 4 && argv[4][0] == 's';
    for (int n : ns) {
        if (n < 3 || n > 32) {
            std::fprintf(stderr, "n must be in 3..32\n");
            return 2;
        }
        try {
            if (single)
                run<float>(n, batch, reps);
            else
                run<double>(n, batch, reps);
        } catch (const std::exception &e) {
            std::fprintf(stderr, "%s\n", e.what());
            return 1;
        }
    }
    return 0;
}
