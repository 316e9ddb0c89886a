// dmma_shapes.cu: the FP64 tensor-core shapes of sm_80 / sm_90 side by side.
// For each of mma.sync m8n8k4 (sm_80, what dmma_kernel in
// src/cuda/syevj/syevj_mixed.cuh issues) and m16n8k4 / m16n8k8 / m16n8k16
// (sm_90), in double:
//   1. a layout check: one warp loads A (M x K) and B (K x N) of small
//      integers into its fragments by the mapping below (the PTX ISA's
//      fragment tables as this file reads them), multiplies, stores D by the
//      mapping and compares with the exact product on the host;
//   2. a throughput run: every warp of a full grid repeats the product on
//      four independent accumulators; TFLOP/s = 2 M N K per instruction.
// Not part of the library or its tests; built on request (CUDA builds):
//   ninja -C build/release batcheig_dmma_shapes
//   build/release/bench/batcheig_dmma_shapes [iterations]
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                                         \
    do {                                                                              \
        cudaError_t e_ = (x);                                                         \
        if (e_ != cudaSuccess) {                                                      \
            std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
            std::exit(1);                                                             \
        }                                                                             \
    } while (0)

// Fragment maps: lane l, g = l / 4, t = l % 4; entry i of the lane's A, B
// and C fragments -> (row, column) of the M x K, K x N and M x N tiles.
struct Pos {
    int r, c;
};

struct M8N8K4 {
    static constexpr int M = 8, N = 8, K = 4, NA = 1, NB = 1, NC = 2;
    static constexpr const char *name = "m8n8k4 (sm_80)";
    __host__ __device__ static Pos a(int l, int) { return {l / 4, l % 4}; }
    __host__ __device__ static Pos b(int l, int) { return {l % 4, l / 4}; }
    __host__ __device__ static Pos c(int l, int i) { return {l / 4, 2 * (l % 4) + i}; }
    __device__ static void mma(double (&d)[NC], const double (&a)[NA], const double (&b)[NB]) {
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                     : "+d"(d[0]), "+d"(d[1])
                     : "d"(a[0]), "d"(b[0]));
    }
};

// The m16n8kK shapes: A rows g and g + 8 at columns t, t + 4, ...; B rows
// t, t + 4, ... at column g; C rows g, g + 8 at columns 2 t, 2 t + 1.
template <int KK>
struct M16N8 {
    static constexpr int M = 16, N = 8, K = KK, NA = KK / 2, NB = KK / 4, NC = 4;
    __host__ __device__ static Pos a(int l, int i) { return {l / 4 + 8 * (i % 2), l % 4 + 4 * (i / 2)}; }
    __host__ __device__ static Pos b(int l, int i) { return {l % 4 + 4 * i, l / 4}; }
    __host__ __device__ static Pos c(int l, int i) { return {l / 4 + 8 * (i / 2), 2 * (l % 4) + i % 2}; }
};
// The sm_90 shapes trap when built for an older architecture.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define BATCHEIG_SM90_MMA(...) __trap()
#else
#define BATCHEIG_SM90_MMA(...) __VA_ARGS__
#endif
struct M16N8K4 : M16N8<4> {
    static constexpr const char *name = "m16n8k4 (sm_90)";
    __device__ static void mma(double (&d)[NC], const double (&a)[NA], const double (&b)[NB]) {
        BATCHEIG_SM90_MMA(asm volatile(
            "mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};\n"
            : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
            : "d"(a[0]), "d"(a[1]), "d"(b[0])));
    }
};
struct M16N8K8 : M16N8<8> {
    static constexpr const char *name = "m16n8k8 (sm_90)";
    __device__ static void mma(double (&d)[NC], const double (&a)[NA], const double (&b)[NB]) {
        BATCHEIG_SM90_MMA(asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
            : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
            : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1])));
    }
};
struct M16N8K16 : M16N8<16> {
    static constexpr const char *name = "m16n8k16 (sm_90)";
    __device__ static void mma(double (&d)[NC], const double (&a)[NA], const double (&b)[NB]) {
        BATCHEIG_SM90_MMA(asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
            "{%12,%13,%14,%15}, {%0,%1,%2,%3};\n"
            : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
            : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]),
              "d"(b[1]), "d"(b[2]), "d"(b[3])));
    }
};

// 1. One warp: D = A B with A (M x K, row-major) and B (K x N, column-major).
template <class S>
__global__ void layout_kernel(const double *A, const double *B, double *D) {
    const int l = threadIdx.x;
    double a[S::NA], b[S::NB], d[S::NC] = {};
    for (int i = 0; i < S::NA; ++i) a[i] = A[S::a(l, i).r * S::K + S::a(l, i).c];
    for (int i = 0; i < S::NB; ++i) b[i] = B[S::b(l, i).c * S::K + S::b(l, i).r];
    S::mma(d, a, b);
    for (int i = 0; i < S::NC; ++i) D[S::c(l, i).r * S::N + S::c(l, i).c] = d[i];
}

// 2. Every warp: `iters` rounds of four independent products.
template <class S>
__global__ void throughput_kernel(int iters, double *out) {
    const int l = threadIdx.x & 31;
    double a[S::NA], b[S::NB], d[4][S::NC] = {};
    for (int i = 0; i < S::NA; ++i) a[i] = 1e-3 * (l + i);
    for (int i = 0; i < S::NB; ++i) b[i] = 1e-3 * (l - i);
    for (int it = 0; it < iters; ++it)
#pragma unroll
        for (int q = 0; q < 4; ++q) S::mma(d[q], a, b);
    double s = 0;
    for (int q = 0; q < 4; ++q)
        for (int i = 0; i < S::NC; ++i) s += d[q][i];
    if (s == 12345.678) out[0] = s;  // keeps the products
}

template <class S>
void run(int iters) {
    // 1. Layout.
    std::vector<double> A(S::M * S::K), B(S::K * S::N), D(S::M * S::N, -1), ref(S::M * S::N, 0);
    for (int r = 0; r < S::M; ++r)
        for (int k = 0; k < S::K; ++k) A[r * S::K + k] = (r * 7 + k * 3) % 11 - 5;
    for (int k = 0; k < S::K; ++k)
        for (int c = 0; c < S::N; ++c) B[c * S::K + k] = (k * 5 + c * 2) % 9 - 4;
    for (int r = 0; r < S::M; ++r)
        for (int c = 0; c < S::N; ++c)
            for (int k = 0; k < S::K; ++k) ref[r * S::N + c] += A[r * S::K + k] * B[c * S::K + k];
    double *dA, *dB, *dD, *dout;
    CK(cudaMalloc(&dA, A.size() * sizeof(double)));
    CK(cudaMalloc(&dB, B.size() * sizeof(double)));
    CK(cudaMalloc(&dD, D.size() * sizeof(double)));
    CK(cudaMalloc(&dout, sizeof(double)));
    CK(cudaMemcpy(dA, A.data(), A.size() * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B.data(), B.size() * sizeof(double), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dD, D.data(), D.size() * sizeof(double), cudaMemcpyHostToDevice));
    layout_kernel<S><<<1, 32>>>(dA, dB, dD);
    CK(cudaGetLastError());
    CK(cudaMemcpy(D.data(), dD, D.size() * sizeof(double), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (std::size_t i = 0; i < D.size(); ++i) bad += D[i] != ref[i];
    // 2. Throughput: 8 blocks of 4 warps per SM.
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int blocks = 8 * sms, threads = 128;
    throughput_kernel<S><<<blocks, threads>>>(iters / 10, dout);  // warm-up
    CK(cudaDeviceSynchronize());
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    throughput_kernel<S><<<blocks, threads>>>(iters, dout);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    const double flops = 2.0 * S::M * S::N * S::K * 4.0 * iters * (double(blocks) * threads / 32);
    std::printf("%-18s layout %s (%d of %d entries wrong)   %.3f ms   %.1f TFLOP/s\n", S::name,
                bad ? "WRONG" : "ok", bad, int(D.size()), ms, flops / (ms * 1e-3) / 1e12);
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dD);
    cudaFree(dout);
}

int main(int argc, char **argv) {
    const int iters = argc > 1 ? std::atoi(argv[1]) : 20000;
    cudaDeviceProp p{};
    CK(cudaGetDeviceProperties(&p, 0));
    std::printf("%s, %d SMs, sm_%d%d; %d iterations of 4 products per warp, 8 blocks of 4 warps per SM\n", p.name,
                p.multiProcessorCount, p.major, p.minor, iters);
    run<M8N8K4>(iters);
    if (p.major >= 9) {
        run<M16N8K4>(iters);
        run<M16N8K8>(iters);
        run<M16N8K16>(iters);
    }
    return 0;
}
