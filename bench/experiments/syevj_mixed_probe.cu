// syevj_mixed_probe.cu: the double finish of core/jacobi_refine.hpp on the
// GPU, end to end, timed against cusolverDnXsyevBatched in the same run.
// The prototype of BATCHEIG_ALG_JACOBI_CUDA_MIXED (src/cuda/syevj/
// syevj_mixed.cuh), kept to time the finish's pieces apart: random Hermitian
// matrices (entries uniform in [-1, 1]), device arrays, then
//   1. A rounded to single precision (lower triangle, mirrored; no scaling:
//      the probe's matrices are in range),
//   2. batcheigSsyevjBatched / batcheigCheevjBatched with vectors (AUTO),
//   3. the vectors widened into X,
//   4. `--iters` iterations: P = A X and G = X^H [X P] by cuBLAS strided
//      batched GEMMs, refine_update() by one thread block per matrix (the
//      core routine with cuda::BlockTeam, matrices in global memory), and
//      X <- X F by a third GEMM,
//   5. eigenvalues sorted with their vectors into A and W.
// Prints the time of the whole pipeline, of the single-precision stage
// alone and of XsyevBatched in double on the same matrices (CUDA events,
// median of --reps after a warm-up), the largest off(S)/||A||_F and ||R||_F
// at the start of each iteration, and on --check matrices the ratios of
// bench/experiments/syevj_refine_model.cpp against LAPACKE in double.
// Built on request (CUDA builds):
//   ninja -C build/release batcheig_syevj_mixed_probe
//   build/release/bench/batcheig_syevj_mixed_probe --precision d|z --n 128 --batch 200 --iters 2 [--gemm cublas|own|dmma]
// --ftol T: the single-precision stage's tolerance (default: its own, 2u
// of float); the stage's mean and largest sweep counts are printed.
// --gemm own|dmma: the library's batched GEMMs (syevj_mixed.cuh) on the
// FP64 CUDA cores or on the FP64 tensor cores, instead of cuBLAS.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <lapacke.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "batcheig.h"
#include "core/jacobi_refine.hpp"
#include "cuda/syevj/syevj_mixed.cuh"
#include "cuda/team.cuh"

namespace core = batcheig::core;

namespace {

#define PROBE_CHECK(x)                                                                     \
    do {                                                                                   \
        const long long e_ = static_cast<long long>(x);                                    \
        if (e_ != 0) {                                                                     \
            std::fprintf(stderr, "%s:%d: %s returned %lld\n", __FILE__, __LINE__, #x, e_); \
            std::exit(1);                                                                  \
        }                                                                                  \
    } while (0)

template <class T> struct Types;
template <> struct Types<double> {
    using C = double;                 // core type
    using F = float;                  // single precision
    using Cu = double;                // cuBLAS type
    static constexpr cudaDataType kCuda = CUDA_R_64F;
};
template <> struct Types<std::complex<double>> {
    using C = core::complex<double>;
    using F = std::complex<float>;
    using Cu = cuDoubleComplex;
    static constexpr cudaDataType kCuda = CUDA_C_64F;
};

__host__ __device__ inline float to_float(double x) { return float(x); }
__host__ __device__ inline core::complex<float> to_float(core::complex<double> x) {
    return {float(x.re), float(x.im)};
}
__host__ __device__ inline double to_double(float x) { return x; }
__host__ __device__ inline core::complex<double> to_double(core::complex<float> x) { return {x.re, x.im}; }

// A (lower triangle) -> the full Hermitian A32, one block per matrix.
template <class C, class CF>
__global__ void round_kernel(int n, const C *a, CF *a32) {
    const std::size_t off = std::size_t(blockIdx.x) * n * n;
    for (int j = threadIdx.x; j < n; j += blockDim.x)
        for (int i = 0; i < n; ++i) {
            const C x = i >= j ? a[off + std::size_t(j) * n + i] : core::conj(a[off + std::size_t(i) * n + j]);
            a32[off + std::size_t(j) * n + i] = to_float(x);
        }
}

// The single-precision vectors into the first half of Y = [X P].
template <class C, class CF>
__global__ void widen_kernel(int n, const CF *x32, C *y) {
    const std::size_t nn = std::size_t(n) * n;
    for (std::size_t k = threadIdx.x; k < nn; k += blockDim.x) y[2 * nn * blockIdx.x + k] = to_double(x32[nn * blockIdx.x + k]);
}

// Per-matrix scratch of refine_update, carved from one arena.
template <class C>
struct Arena {
    core::index_t *ints;  // 2n per matrix
    C *mats;              // n^2 per matrix: q (it and tmp go to the dead A X half of Y)
    double *reals;        // 3n per matrix
    core::jacobi::Rotation<C> *rot;  // players(n)/2 per matrix
};

// One block per matrix: G = X^H [Y0 Y1]; X sits in half hx of Y, so C = X^H X
// is half hx of G and S half 1 - hx. F goes over C. The scratch it and tmp
// share Y's other half, A X, which is dead once G is formed.
template <class C>
__global__ void refine_kernel(int n, C *g, C *y, int hx, double *lam, Arena<C> ar, double *norms) {
    __shared__ unsigned long long red[32];
    const batcheig::cuda::BlockTeam tm{red};
    const std::size_t b = blockIdx.x, nn = std::size_t(n) * n;
    C *gb = g + 2 * nn * b;
    const core::MatView<C> cv{gb + nn * hx, n, 1}, sv{gb + nn * (1 - hx), n, 1};
    batcheig::cuda::syevj_mixed_detail::Arrays<C> arr{};
    arr.ints = ar.ints;
    arr.q = ar.mats;
    arr.reals = ar.reals;
    arr.rot = ar.rot;
    const auto ws = batcheig::cuda::syevj_mixed_detail::refine_scratch(arr, n, b, ar.ints + 2 * n * b,
                                                                          y + 2 * nn * b + nn * (1 - hx));
    const auto r = core::jacobi::refine_update(tm, n, cv, sv, core::VecView<double>{lam + n * b, 1}, ws);
    if (tm.leader()) {
        norms[4 * b] = r.off;
        norms[4 * b + 1] = r.rnorm;
        norms[4 * b + 2] = core::jacobi::refine_converged(r, n) ? 1 : 0;
        norms[4 * b + 3] = r.orth_only ? 1 : 0;
    }
}

// Sorted eigenvalues and their vectors (half hx of Y) into W and A.
template <class C>
__global__ void output_kernel(int n, const C *y, int hx, const double *lam, C *a, double *w) {
    const std::size_t b = blockIdx.x, nn = std::size_t(n) * n;
    const core::VecView<double> lv{const_cast<double *>(lam) + n * b, 1};
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
        const int pos = core::jacobi::sorted_position(n, lv, j);
        w[n * b + pos] = lv[j];
        for (int i = 0; i < n; ++i) a[nn * b + std::size_t(pos) * n + i] = y[2 * nn * b + nn * hx + std::size_t(j) * n + i];
    }
}

cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, int m, int n, int k, const double *a, int lda,
                            long long sa, const double *b, int ldb, long long sb, double *c, int ldc, long long sc,
                            int batch) {
    const double one = 1, zero = 0;
    return cublasDgemmStridedBatched(h, ta, CUBLAS_OP_N, m, n, k, &one, a, lda, sa, b, ldb, sb, &zero, c, ldc, sc,
                                     batch);
}
cublasStatus_t gemm_batched(cublasHandle_t h, cublasOperation_t ta, int m, int n, int k, const cuDoubleComplex *a,
                            int lda, long long sa, const cuDoubleComplex *b, int ldb, long long sb, cuDoubleComplex *c,
                            int ldc, long long sc, int batch) {
    const cuDoubleComplex one{1, 0}, zero{0, 0};
    return cublasZgemmStridedBatched(h, ta == CUBLAS_OP_T ? CUBLAS_OP_C : ta, CUBLAS_OP_N, m, n, k, &one, a, lda, sa,
                                     b, ldb, sb, &zero, c, ldc, sc, batch);
}

// --gemm own|dmma: the library's batched GEMMs of the mixed variant
// (cuda/syevj/syevj_mixed.cuh; summation order independent of the batch),
// on the FP64 CUDA cores or on the FP64 tensor cores. Every matrix is
// marked as iterating in `g_states`.
bool g_dmma = false;
batcheig::cuda::syevj_mixed_detail::State *g_states = nullptr;

template <class C>
void own_gemm(cudaStream_t st, bool conj_a, int m, int n, int k, const C *a, int lda, long long sa, const C *b,
              int ldb, long long sb, C *c, int ldc, long long sc, int batch) {
    namespace md = batcheig::cuda::syevj_mixed_detail;
    const md::Gemm<C> g{m, n, k, a, lda, sa, b, ldb, sb, c, ldc, sc, g_states};
    if (conj_a) PROBE_CHECK(md::gemm<md::OpA::H>(st, g, batch, g_dmma));
    else PROBE_CHECK(md::gemm<md::OpA::N>(st, g, batch, g_dmma));
}

// The single-precision stage's params: --ftol sets its tolerance (0: the
// default), and its sweeps are read back.
batcheigParams_t g_params = nullptr;
double g_ftol = 0;

batcheigStatus_t float_solve(batcheigHandle_t h, int n, float *a, float *w, void *work, std::size_t lwork, int *info,
                             int batch) {
    return batcheigSsyevjBatched(h, BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_FILL_MODE_LOWER, n, a, n, w, work, lwork, info,
                                 g_params, batch);
}
batcheigStatus_t float_solve(batcheigHandle_t h, int n, std::complex<float> *a, float *w, void *work,
                             std::size_t lwork, int *info, int batch) {
    return batcheigCheevjBatched(h, BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_FILL_MODE_LOWER, n,
                                 reinterpret_cast<batcheigComplex *>(a), n, w, work, lwork, info, g_params, batch);
}
std::size_t float_lwork(batcheigHandle_t h, int n, float *a, float *w, int batch) {
    std::size_t l = 0;
    PROBE_CHECK(batcheigSsyevjBatched_bufferSize(h, BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_FILL_MODE_LOWER, n, a, n, w, &l,
                                                 g_params, batch));
    return l;
}
std::size_t float_lwork(batcheigHandle_t h, int n, std::complex<float> *a, float *w, int batch) {
    std::size_t l = 0;
    PROBE_CHECK(batcheigCheevjBatched_bufferSize(h, BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_FILL_MODE_LOWER, n,
                                                 reinterpret_cast<batcheigComplex *>(a), n, w, &l, g_params, batch));
    return l;
}

int lapacke_eigenvalues(int n, std::vector<double> &a, std::vector<double> &w) {
    return LAPACKE_dsyevd(LAPACK_COL_MAJOR, 'N', 'L', n, a.data(), n, w.data());
}
int lapacke_eigenvalues(int n, std::vector<std::complex<double>> &a, std::vector<double> &w) {
    return LAPACKE_zheevd(LAPACK_COL_MAJOR, 'N', 'L', n, reinterpret_cast<lapack_complex_double *>(a.data()), n,
                          w.data());
}

double conj_of(double x) { return x; }
std::complex<double> conj_of(std::complex<double> x) { return std::conj(x); }

double median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

template <class T>
int run(int n, int batch, int iters, int reps, int check, bool own) {
    using Ty = Types<T>;
    using C = typename Ty::C;
    using F = typename Ty::F;
    using Cu = typename Ty::Cu;
    using CF = std::conditional_t<std::is_same_v<T, double>, float, core::complex<float>>;
    const std::size_t nn = std::size_t(n) * n, total = nn * batch;
    std::mt19937_64 rng(2026);
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<T> ha(total);
    for (int b = 0; b < batch; ++b)
        for (int j = 0; j < n; ++j)
            for (int i = j; i < n; ++i) {
                T x;
                if constexpr (std::is_same_v<T, double>) x = u(rng);
                else x = T(u(rng), i == j ? 0.0 : u(rng));
                ha[nn * b + std::size_t(j) * n + i] = x;
                ha[nn * b + std::size_t(i) * n + j] = conj_of(x);
            }

    C *d_in, *d_a, *d_y, *d_g, *d_mats;
    F *d_a32;
    float *d_w32;
    double *d_lam, *d_w, *d_norms, *d_reals;
    int *d_info;
    core::index_t *d_ints;
    core::jacobi::Rotation<C> *d_rot;
    const int rot_per = core::jacobi::players(n) / 2;
    PROBE_CHECK(cudaMalloc(&d_in, total * sizeof(C)));
    PROBE_CHECK(cudaMalloc(&d_a, total * sizeof(C)));
    PROBE_CHECK(cudaMalloc(&d_y, 2 * total * sizeof(C)));
    PROBE_CHECK(cudaMalloc(&d_g, 2 * total * sizeof(C)));
    PROBE_CHECK(cudaMalloc(&d_mats, total * sizeof(C)));
    PROBE_CHECK(cudaMalloc(&d_a32, total * sizeof(F)));
    PROBE_CHECK(cudaMalloc(&d_w32, std::size_t(n) * batch * sizeof(float)));
    PROBE_CHECK(cudaMalloc(&d_lam, std::size_t(n) * batch * sizeof(double)));
    PROBE_CHECK(cudaMalloc(&d_w, std::size_t(n) * batch * sizeof(double)));
    PROBE_CHECK(cudaMalloc(&d_norms, 4 * std::size_t(batch) * sizeof(double)));
    PROBE_CHECK(cudaMalloc(&d_reals, 3 * std::size_t(n) * batch * sizeof(double)));
    PROBE_CHECK(cudaMalloc(&d_info, std::size_t(batch) * sizeof(int)));
    PROBE_CHECK(cudaMalloc(&d_ints, 2 * std::size_t(n) * batch * sizeof(core::index_t)));
    PROBE_CHECK(cudaMalloc(&d_rot, std::size_t(rot_per) * batch * sizeof(core::jacobi::Rotation<C>)));
    PROBE_CHECK(cudaMemcpy(d_in, ha.data(), total * sizeof(C), cudaMemcpyHostToDevice));

    cudaStream_t st;
    PROBE_CHECK(cudaStreamCreate(&st));
    batcheigHandle_t bh;
    PROBE_CHECK(batcheigCreateWithBackend(&bh, BATCHEIG_BACKEND_CUDA));
    PROBE_CHECK(batcheigSetStream(bh, st));
    cublasHandle_t cb;
    PROBE_CHECK(cublasCreate(&cb));
    PROBE_CHECK(cublasSetStream(cb, st));
    int *d_sweeps;
    PROBE_CHECK(cudaMalloc(&d_sweeps, std::size_t(batch) * sizeof(int)));
    PROBE_CHECK(cudaMalloc(&g_states, std::size_t(batch) * sizeof(*g_states)));
    PROBE_CHECK(cudaMemset(g_states, 0, std::size_t(batch) * sizeof(*g_states)));
    PROBE_CHECK(batcheigCreateParams(&g_params));
    PROBE_CHECK(batcheigParamsSetTolerance(g_params, g_ftol));
    PROBE_CHECK(batcheigParamsSetJacobiOutputs(g_params, d_sweeps, nullptr));
    const std::size_t lwork = float_lwork(bh, n, d_a32, d_w32, batch);
    void *d_work = nullptr;
    if (lwork) PROBE_CHECK(cudaMalloc(&d_work, lwork));
    const Arena<C> ar{d_ints, d_mats, d_reals, d_rot};
    const int threads = n <= 32 ? 32 : n <= 64 ? 64 : 128;
    std::vector<double> norms_log;

    // The whole pipeline; with `log`, the norms of every iteration are read back.
    int hx = 0;
    auto pipeline = [&](bool log, bool float_only) {
        round_kernel<<<batch, 128, 0, st>>>(n, d_in, reinterpret_cast<CF *>(d_a32));
        PROBE_CHECK(float_solve(bh, n, d_a32, d_w32, d_work, lwork, d_info, batch));
        if (float_only) return;
        widen_kernel<<<batch, 256, 0, st>>>(n, reinterpret_cast<const CF *>(d_a32), d_y);
        hx = 0;
        for (int it = 0; it < iters; ++it) {
            C *x = d_y + nn * hx, *p = d_y + nn * (1 - hx);
            if (own) {
                own_gemm(st, false, n, n, n, d_in, n, nn, x, n, 2 * nn, p, n, 2 * nn, batch);
                own_gemm(st, true, n, 2 * n, n, x, n, 2 * nn, d_y, n, 2 * nn, d_g, n, 2 * nn, batch);
                refine_kernel<<<batch, threads, 0, st>>>(n, d_g, d_y, hx, d_lam, ar, d_norms);
                own_gemm(st, false, n, n, n, x, n, 2 * nn, d_g + nn * hx, n, 2 * nn, p, n, 2 * nn, batch);
            } else {
                PROBE_CHECK(gemm_batched(cb, CUBLAS_OP_N, n, n, n, reinterpret_cast<const Cu *>(d_in), n, nn,
                                         reinterpret_cast<const Cu *>(x), n, 2 * nn, reinterpret_cast<Cu *>(p), n,
                                         2 * nn, batch));
                PROBE_CHECK(gemm_batched(cb, CUBLAS_OP_T, n, 2 * n, n, reinterpret_cast<const Cu *>(x), n, 2 * nn,
                                         reinterpret_cast<const Cu *>(d_y), n, 2 * nn, reinterpret_cast<Cu *>(d_g), n,
                                         2 * nn, batch));
                refine_kernel<<<batch, threads, 0, st>>>(n, d_g, d_y, hx, d_lam, ar, d_norms);
                // X <- X F, F = half hx of G, into the other half of Y.
                PROBE_CHECK(gemm_batched(cb, CUBLAS_OP_N, n, n, n, reinterpret_cast<const Cu *>(x), n, 2 * nn,
                                         reinterpret_cast<const Cu *>(d_g + nn * hx), n, 2 * nn,
                                         reinterpret_cast<Cu *>(p), n, 2 * nn, batch));
            }
            if (log) {
                std::vector<double> h(4 * std::size_t(batch));
                PROBE_CHECK(cudaMemcpyAsync(h.data(), d_norms, h.size() * sizeof(double), cudaMemcpyDeviceToHost, st));
                PROBE_CHECK(cudaStreamSynchronize(st));
                double off = 0, rn = 0, done = 0, orth = 0;
                for (int b = 0; b < batch; ++b)
                    off = std::max(off, h[4 * b]), rn = std::max(rn, h[4 * b + 1]), done += h[4 * b + 2],
                    orth += h[4 * b + 3];
                norms_log.push_back(off);
                norms_log.push_back(rn);
                norms_log.push_back(done);
                norms_log.push_back(orth);
            }
            hx = 1 - hx;
        }
        output_kernel<<<batch, threads, 0, st>>>(n, d_y, hx, d_lam, d_a, d_w);
    };
    cudaEvent_t e0, e1;
    PROBE_CHECK(cudaEventCreate(&e0));
    PROBE_CHECK(cudaEventCreate(&e1));
    auto timed = [&](auto &&f) {
        f();
        PROBE_CHECK(cudaStreamSynchronize(st));
        std::vector<float> t;
        for (int r = 0; r < reps; ++r) {
            PROBE_CHECK(cudaEventRecord(e0, st));
            f();
            PROBE_CHECK(cudaEventRecord(e1, st));
            PROBE_CHECK(cudaEventSynchronize(e1));
            float ms = 0;
            PROBE_CHECK(cudaEventElapsedTime(&ms, e0, e1));
            t.push_back(ms);
        }
        PROBE_CHECK(cudaGetLastError());
        return median(t);
    };
    if (own) {
        // The own GEMMs against cuBLAS on the same operands: A X and X^H [X P]
        // (X the single-precision vectors widened, P = A X), relative to the
        // largest entry.
        pipeline(false, true);
        widen_kernel<<<batch, 256, 0, st>>>(n, reinterpret_cast<const CF *>(d_a32), d_y);
        C *x = d_y, *p = d_y + nn;
        std::vector<T> h1(2 * nn), h2(2 * nn);
        own_gemm(st, false, n, n, n, d_in, n, nn, x, n, 2 * nn, p, n, 2 * nn, batch);
        own_gemm(st, true, n, 2 * n, n, x, n, 2 * nn, d_y, n, 2 * nn, d_g, n, 2 * nn, batch);
        PROBE_CHECK(cudaMemcpyAsync(h1.data(), d_g + 2 * nn * (batch - 1), 2 * nn * sizeof(C), cudaMemcpyDeviceToHost, st));
        PROBE_CHECK(gemm_batched(cb, CUBLAS_OP_N, n, n, n, reinterpret_cast<const Cu *>(d_in), n, nn,
                                 reinterpret_cast<const Cu *>(x), n, 2 * nn, reinterpret_cast<Cu *>(p), n, 2 * nn, batch));
        PROBE_CHECK(gemm_batched(cb, CUBLAS_OP_T, n, 2 * n, n, reinterpret_cast<const Cu *>(x), n, 2 * nn,
                                 reinterpret_cast<const Cu *>(d_y), n, 2 * nn, reinterpret_cast<Cu *>(d_g), n, 2 * nn,
                                 batch));
        PROBE_CHECK(cudaMemcpyAsync(h2.data(), d_g + 2 * nn * (batch - 1), 2 * nn * sizeof(C), cudaMemcpyDeviceToHost, st));
        PROBE_CHECK(cudaStreamSynchronize(st));
        PROBE_CHECK(cudaGetLastError());
        double diff = 0, big = 0;
        for (std::size_t e = 0; e < h1.size(); ++e) diff = std::max(diff, std::abs(h1[e] - h2[e])), big = std::max(big, std::abs(h2[e]));
        std::printf("own GEMM against cuBLAS (last matrix, X^H [X AX]): max difference %.3e of max entry %.3e\n", diff, big);
    }
    pipeline(true, false);
    PROBE_CHECK(cudaStreamSynchronize(st));
    PROBE_CHECK(cudaGetLastError());
    const double t_all = timed([&] { pipeline(false, false); });
    const double t_float = timed([&] { pipeline(false, true); });
    pipeline(false, false);  // the outputs checked below
    PROBE_CHECK(cudaStreamSynchronize(st));

    // XsyevBatched in double on the same matrices.
    double t_x = -1;
    {
        cusolverDnHandle_t sh;
        cusolverDnParams_t sp;
        PROBE_CHECK(cusolverDnCreate(&sh));
        PROBE_CHECK(cusolverDnSetStream(sh, st));
        PROBE_CHECK(cusolverDnCreateParams(&sp));
        std::size_t dev_b = 0, host_b = 0;
        C *d_x;
        PROBE_CHECK(cudaMalloc(&d_x, total * sizeof(C)));
        PROBE_CHECK(cusolverDnXsyevBatched_bufferSize(sh, sp, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n,
                                                      Ty::kCuda, d_x, n, CUDA_R_64F, d_w, Ty::kCuda, &dev_b, &host_b,
                                                      batch));
        void *dw = nullptr;
        std::vector<unsigned char> hw(host_b);
        const cudaError_t alloc = cudaMalloc(&dw, dev_b);
        if (alloc == cudaSuccess) {
            t_x = timed([&] {
                PROBE_CHECK(cudaMemcpyAsync(d_x, d_in, total * sizeof(C), cudaMemcpyDeviceToDevice, st));
                PROBE_CHECK(cusolverDnXsyevBatched(sh, sp, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n,
                                                   Ty::kCuda, d_x, n, CUDA_R_64F, d_w + 0 * n, Ty::kCuda, dw, dev_b,
                                                   hw.empty() ? nullptr : hw.data(), host_b, d_info, batch));
            });
            const double t_copy = timed([&] {
                PROBE_CHECK(cudaMemcpyAsync(d_x, d_in, total * sizeof(C), cudaMemcpyDeviceToDevice, st));
            });
            t_x -= t_copy;
            cudaFree(dw);
        } else {
            std::printf("XsyevBatched: workspace of %zu bytes not allocated\n", dev_b);
        }
        cudaFree(d_x);
        cusolverDnDestroyParams(sp);
        cusolverDnDestroy(sh);
        pipeline(false, false);  // d_w again holds the probe's eigenvalues
        PROBE_CHECK(cudaStreamSynchronize(st));
    }

    {
        std::vector<int> hs(batch);
        PROBE_CHECK(cudaMemcpy(hs.data(), d_sweeps, hs.size() * sizeof(int), cudaMemcpyDeviceToHost));
        double mean = 0;
        for (int x : hs) mean += x;
        std::printf("single-precision stage (tolerance %s): mean sweeps %.2f, max %d\n",
                    g_ftol > 0 ? std::to_string(g_ftol).c_str() : "default", mean / batch,
                    *std::max_element(hs.begin(), hs.end()));
    }
    std::printf("%s GEMMs, ", !own ? "cuBLAS" : g_dmma ? "own DMMA" : "own FP64");
    std::printf("%s n=%d batch=%d iters=%d: pipeline %.4f ms (single-precision stage %.4f ms), XsyevBatched %.4f ms, "
                "ratio XsyevBatched/pipeline %.3f\n",
                std::is_same_v<T, double> ? "double" : "complex double", n, batch, iters, t_all, t_float, t_x,
                t_x / t_all);
    for (int it = 0; it < iters; ++it)
        std::printf("  iteration %d: max off(S) %.3e, max ||R||_F %.3e at its start; %.0f of %d matrices only "
                    "orthogonalized, %.0f final after it (refine_converged)\n",
                    it + 1, norms_log[4 * it], norms_log[4 * it + 1], norms_log[4 * it + 3], batch,
                    norms_log[4 * it + 2]);
    std::printf("  extra device memory beyond A: %.1f MB (Y, G, scratch, single-precision copy)\n",
                (2.0 + 2.0 + 1.0) * total * sizeof(C) / 1e6 + total * sizeof(F) / 1e6);

    // Accuracy on the first `check` matrices.
    const int nc = std::min(check, batch);
    std::vector<T> hv(nn * nc);
    std::vector<double> hw(std::size_t(n) * nc);
    PROBE_CHECK(cudaMemcpy(hv.data(), d_a, hv.size() * sizeof(T), cudaMemcpyDeviceToHost));
    PROBE_CHECK(cudaMemcpy(hw.data(), d_w, hw.size() * sizeof(double), cudaMemcpyDeviceToHost));
    const double uu = 0.5 * std::numeric_limits<double>::epsilon();
    double worst_res = 0, worst_orth = 0, worst_eig = 0;
    for (int b = 0; b < nc; ++b) {
        const T *A = ha.data() + nn * b, *V = hv.data() + nn * b;
        const double *W = hw.data() + std::size_t(n) * b;
        double a1 = 0;
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int i = 0; i < n; ++i) s += std::abs(A[std::size_t(j) * n + i]);
            a1 = std::max(a1, s);
        }
        for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int i = 0; i < n; ++i) {
                T acc = T(0);
                for (int k = 0; k < n; ++k) acc += A[std::size_t(k) * n + i] * V[std::size_t(j) * n + k];
                s += std::abs(acc - W[j] * V[std::size_t(j) * n + i]);
                T o = T(0);
                for (int k = 0; k < n; ++k) o += conj_of(V[std::size_t(i) * n + k]) * V[std::size_t(j) * n + k];
                worst_orth = std::max(worst_orth, std::abs(o - T(i == j ? 1 : 0)) / (n * uu));
            }
            worst_res = std::max(worst_res, s / (n * a1 * uu));
        }
        std::vector<T> c(A, A + nn);
        std::vector<double> ref(n);
        PROBE_CHECK(lapacke_eigenvalues(n, c, ref));
        for (int i = 0; i < n; ++i) worst_eig = std::max(worst_eig, std::abs(W[i] - ref[i]) / (a1 * uu));
    }
    std::printf("  %d matrices checked: residual %.3g, orthogonality %.3g, eigenvalues %.3g (the tests allow 60)\n", nc,
                worst_res, worst_orth, worst_eig);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    int n = 128, batch = 200, iters = 2, reps = 5, check = 10;
    std::string prec = "d";
    bool own = false;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        const char *v = argv[i + 1];
        if (k == "--n") n = std::atoi(v);
        else if (k == "--batch") batch = std::atoi(v);
        else if (k == "--iters") iters = std::atoi(v);
        else if (k == "--reps") reps = std::atoi(v);
        else if (k == "--check") check = std::atoi(v);
        else if (k == "--precision") prec = v;
        else if (k == "--ftol") g_ftol = std::atof(v);
        else if (k == "--gemm") own = std::string(v) != "cublas", g_dmma = std::string(v) == "dmma";
        else {
            std::fprintf(stderr, "unknown option %s\n", k.c_str());
            return 2;
        }
    }
    if (n < 1 || batch < 1 || iters < 1 || reps < 1) return 2;
    return prec == "z" ? run<std::complex<double>>(n, batch, iters, reps, check, own)
                       : run<double>(n, batch, iters, reps, check, own);
}
