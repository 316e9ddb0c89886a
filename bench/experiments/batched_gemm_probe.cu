// batched_gemm_probe.cu: times the cuBLAS and cuSOLVER batched building
// blocks of the double finish modelled in syevj_refine_model.cpp (strided
// batched GEMM in double, complex double and float, batched triangular
// solve and Cholesky), n x n matrices, a whole batch per call.
// Not part of the library or its tests; built on request (CUDA builds):
//   ninja -C build/release batcheig_batched_gemm_probe
//   build/release/bench/batcheig_batched_gemm_probe [n] [batch]
// Figures: docs/performance.md, session 44.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusolverDn.h>

#include <cstdio>
#include <vector>
#define CK(x)                                             \
    do {                                                  \
        auto e = (x);                                     \
        if ((int)e) {                                     \
            printf("err %d line %d\n", (int)e, __LINE__); \
            return 1;                                     \
        }                                                 \
    } while (0)
template <class F>
float timeit(F f, int reps = 20) {
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    f();
    cudaDeviceSynchronize();
    cudaEventRecord(a);
    for (int i = 0; i < reps; i++) f();
    cudaEventRecord(b);
    cudaEventSynchronize(b);
    float ms;
    cudaEventElapsedTime(&ms, a, b);
    return ms / reps;
}
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 128, batch = argc > 2 ? atoi(argv[2]) : 200;
    cublasHandle_t h;
    CK(cublasCreate(&h));
    size_t nn = (size_t)n * n;
    double *A, *B, *C;
    CK(cudaMalloc(&A, nn * batch * 8 * 2));
    CK(cudaMalloc(&B, nn * batch * 8 * 2));
    CK(cudaMalloc(&C, nn * batch * 8 * 2));
    std::vector<double> hA(nn * batch * 2);
    for (size_t i = 0; i < hA.size(); i++) hA[i] = ((i * 2654435761u) % 1000) / 1000.0 - 0.5;
    cudaMemcpy(A, hA.data(), nn * batch * 16, cudaMemcpyHostToDevice);
    cudaMemcpy(B, hA.data(), nn * batch * 16, cudaMemcpyHostToDevice);
    double one = 1, zero = 0;
    for (int mode = 0; mode < 2; mode++) {
        CK(cublasSetMathMode(h, mode ? CUBLAS_DEFAULT_MATH : CUBLAS_PEDANTIC_MATH));
        float t1 = timeit([&] {
            cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, nn, B, n, nn, &zero, C, n, nn,
                                      batch);
        });
        float t2 = timeit([&] {
            cublasDgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, n, 2 * n, n, &one, A, n, 2 * nn, B, n, 2 * nn, &zero,
                                      C, n, 2 * nn, batch);
        });

        printf("mode %s: D NN n^3 %.4f ms (%.2f TF)  D TN n x 2n %.4f ms (%.2f TF)\n", mode ? "default" : "pedantic",
               t1, 2.0 * n * n * n * batch / t1 / 1e9, t2, 4.0 * n * n * n * batch / t2 / 1e9);
        cuDoubleComplex zo{1, 0}, zz{0, 0};
        float t4 = timeit([&] {
            cublasZgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &zo, (cuDoubleComplex *)A, n, nn,
                                      (cuDoubleComplex *)B, n, nn, &zz, (cuDoubleComplex *)C, n, nn, batch);
        });
        printf("mode %s: Z NN n^3 %.4f ms (%.2f TF real)\n", mode ? "default" : "pedantic", t4,
               8.0 * n * n * n * batch / t4 / 1e9);
        float one_f = 1, zero_f = 0;
        float t5 = timeit([&] {
            cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one_f, (float *)A, n, nn, (float *)B, n,
                                      nn, &zero_f, (float *)C, n, nn, batch);
        });
        printf("mode %s: S NN n^3 %.4f ms (%.2f TF)\n", mode ? "default" : "pedantic", t5,
               2.0 * n * n * n * batch / t5 / 1e9);
    }
    // batched trsm (pointer array) and potrf
    std::vector<double *> pa(batch), pb(batch);
    for (int i = 0; i < batch; i++) {
        pa[i] = A + i * nn;
        pb[i] = C + i * nn;
    }
    double **dpa, **dpb;
    cudaMalloc(&dpa, batch * 8);
    cudaMalloc(&dpb, batch * 8);
    cudaMemcpy(dpa, pa.data(), batch * 8, cudaMemcpyHostToDevice);
    cudaMemcpy(dpb, pb.data(), batch * 8, cudaMemcpyHostToDevice);
    float t6 = timeit([&] {
        cublasDtrsmBatched(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_NON_UNIT, n, n, &one,
                           dpa, n, dpb, n, batch);
    });
    printf("D trsmBatched right n x n: %.4f ms\n", t6);
    // SPD matrices for potrf: C = A^T A + n I
    cublasDgemmStridedBatched(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, A, n, nn, A, n, nn, &zero, B, n, nn, batch);
    cusolverDnHandle_t sh;
    cusolverDnCreate(&sh);
    int *info;
    cudaMalloc(&info, batch * 4);
    std::vector<double *> pc(batch);
    for (int i = 0; i < batch; i++) pc[i] = C + i * nn;
    double **dpc;
    cudaMalloc(&dpc, batch * 8);
    cudaMemcpy(dpc, pc.data(), batch * 8, cudaMemcpyHostToDevice);
    float t7 = timeit([&] {
        cudaMemcpyAsync(C, B, nn * batch * 8, cudaMemcpyDeviceToDevice);
        cusolverDnDpotrfBatched(sh, CUBLAS_FILL_MODE_LOWER, n, dpc, n, info, batch);
    });
    float t8 = timeit([&] { cudaMemcpyAsync(C, B, nn * batch * 8, cudaMemcpyDeviceToDevice); });
    printf("D potrfBatched: %.4f ms (copy %.4f)\n", t7 - t8, t8);
    return 0;
}
