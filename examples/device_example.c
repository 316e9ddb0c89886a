/*
 * device_example.c: batcheig on data that already lives on the GPU, on a
 * stream of the caller's, with a workspace of the caller's, as cuSOLVER's
 * batched routines are used.
 *
 *   1. a CUDA handle (skips with exit status 0 when there is no usable GPU);
 *   2. a non-blocking user stream set on the handle;
 *   3. device arrays filled with cudaMemcpyAsync on that stream;
 *   4. the workspace size queried with the device pointers and allocated
 *      with cudaMalloc, so the batched calls allocate nothing (they are then
 *      safe under CUDA graph capture);
 *   5. batcheigDgeevBatched enqueued on the stream (returns at once), the
 *      results copied back on the same stream, one synchronisation;
 *   6. the same for batcheigDsyevjBatched (symmetric, Jacobi); versions
 *      without CUDA Jacobi kernels report BATCHEIG_STATUS_NOT_SUPPORTED,
 *      which the program reports and skips.
 *
 * Build against an installed batcheig and the CUDA runtime:
 *   cc -std=c99 device_example.c $(pkg-config --cflags --libs batcheig) \
 *      -I/usr/local/cuda/include -L/usr/local/cuda/lib64 -lcudart -lm
 * or with CMake: find_package(batcheig) + find_package(CUDAToolkit), link
 * batcheig::batcheig and CUDA::cudart (see CMakeLists.txt and Makefile).
 *
 * Exit status 0 when the residuals are small or when no GPU is present,
 * 1 otherwise.
 */
#include <batcheig.h>
#include <cuda_runtime.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 12
#define BATCH 20000

#define CHECK(call)                                                             \
    do {                                                                        \
        batcheigStatus_t st_ = (call);                                          \
        if (st_ != BATCHEIG_STATUS_SUCCESS) {                                   \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                    batcheigGetStatusString(st_));                              \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t e_ = (call);                                                \
        if (e_ != cudaSuccess) {                                                \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                    cudaGetErrorString(e_));                                    \
            exit(1);                                                            \
        }                                                                       \
    } while (0)

/* Element (i, j) of matrix b of a batch with leading dimension N. */
#define AT(M, b, i, j) ((M)[(size_t)(b) * N * N + (size_t)(j) * N + (i)])

static unsigned long long rng_state = 88172645463325252ULL;
static double uniform(void) /* in [-1, 1) */
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (double)(rng_state >> 11) * 0x1.0p-52 - 1.0;
}

/* max over eigenpairs of ||A v - lambda v||_2 / (N ||A||_1 eps), LAPACK packing of real geev vectors. */
static double geev_residual(const double *A, const double *wr, const double *wi, const double *VR, int b)
{
    double anorm = 0.0, worst = 0.0;
    for (int j = 0; j < N; ++j) {
        double s = 0.0;
        for (int i = 0; i < N; ++i) s += fabs(AT(A, b, i, j));
        if (s > anorm) anorm = s;
    }
    for (int j = 0; j < N; ++j) {
        const double lr = wr[(size_t)b * N + j], li = wi[(size_t)b * N + j];
        /* columns holding the real and imaginary parts of v_j */
        const int cr = li < 0 ? j - 1 : j, ci = li > 0 ? j + 1 : j;
        const double sgn = li < 0 ? -1.0 : 1.0;
        double r2 = 0.0;
        for (int i = 0; i < N; ++i) {
            double avr = 0.0, avi = 0.0;
            for (int k = 0; k < N; ++k) {
                const double vr = AT(VR, b, k, cr), vi = li != 0.0 ? sgn * AT(VR, b, k, ci) : 0.0;
                avr += AT(A, b, i, k) * vr;
                avi += AT(A, b, i, k) * vi;
            }
            const double vr = AT(VR, b, i, cr), vi = li != 0.0 ? sgn * AT(VR, b, i, ci) : 0.0;
            const double rr = avr - (lr * vr - li * vi), ri = avi - (lr * vi + li * vr);
            r2 += rr * rr + ri * ri;
        }
        const double ratio = sqrt(r2) / (N * (anorm > 0 ? anorm : 1.0) * DBL_EPSILON);
        if (!(ratio <= worst)) worst = ratio; /* NaN propagates */
    }
    return worst;
}

/* max_j ||A v_j - w_j v_j||_2 / (N ||A||_1 eps) of a symmetric matrix given by its lower triangle. */
static double syevj_residual(const double *A, const double *W, const double *V, int b)
{
    double anorm = 0.0, worst = 0.0;
#define SYM(i, j) ((i) >= (j) ? AT(A, b, i, j) : AT(A, b, j, i))
    for (int j = 0; j < N; ++j) {
        double s = 0.0;
        for (int i = 0; i < N; ++i) s += fabs(SYM(i, j));
        if (s > anorm) anorm = s;
    }
    for (int j = 0; j < N; ++j) {
        double r2 = 0.0;
        for (int i = 0; i < N; ++i) {
            double r = -W[(size_t)b * N + j] * AT(V, b, i, j);
            for (int k = 0; k < N; ++k) r += SYM(i, k) * AT(V, b, k, j);
            r2 += r * r;
        }
        const double ratio = sqrt(r2) / (N * (anorm > 0 ? anorm : 1.0) * DBL_EPSILON);
        if (!(ratio <= worst)) worst = ratio;
    }
#undef SYM
    return worst;
}

int main(void)
{
    /* 1. A handle on the CUDA backend, or a graceful skip. */
    batcheigHandle_t handle = NULL;
    batcheigStatus_t st = batcheigCreateWithBackend(&handle, BATCHEIG_BACKEND_CUDA);
    if (st == BATCHEIG_STATUS_NOT_SUPPORTED) {
        printf("device_example: no usable GPU (or batcheig was built without CUDA): "
               "batcheigCreateWithBackend(CUDA) returned \"%s\"; skipping\n",
               batcheigGetStatusString(st));
        return 0;
    }
    CHECK(st);

    int dev = 0;
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDevice(&dev));
    CUDA_CHECK(cudaGetDeviceProperties(&prop, dev));
    printf("device %d: %s; %d matrices of size %d\n", dev, prop.name, BATCH, N);

    /* 2. The caller's stream: every call on the handle is enqueued on it. */
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(batcheigSetStream(handle, stream)); /* batcheigStream_t is cudaStream_t */

    /* Host data: random non-symmetric matrices; the same values serve as the
     * lower triangles of the symmetric matrices below. Pinned host memory
     * makes the asynchronous copies truly asynchronous. */
    const size_t nA = (size_t)BATCH * N * N, nW = (size_t)BATCH * N;
    double *hA, *hwr, *hwi, *hV;
    int *hinfo;
    CUDA_CHECK(cudaMallocHost((void **)&hA, nA * sizeof(double)));
    CUDA_CHECK(cudaMallocHost((void **)&hV, nA * sizeof(double)));
    CUDA_CHECK(cudaMallocHost((void **)&hwr, nW * sizeof(double)));
    CUDA_CHECK(cudaMallocHost((void **)&hwi, nW * sizeof(double)));
    CUDA_CHECK(cudaMallocHost((void **)&hinfo, BATCH * sizeof(int)));
    for (size_t k = 0; k < nA; ++k) hA[k] = uniform();

    /* 3. Device arrays. */
    double *dA, *dwr, *dwi, *dV;
    int *dinfo;
    CUDA_CHECK(cudaMalloc((void **)&dA, nA * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void **)&dV, nA * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void **)&dwr, nW * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void **)&dwi, nW * sizeof(double)));
    CUDA_CHECK(cudaMalloc((void **)&dinfo, BATCH * sizeof(int)));

    /* 4. One user workspace, large enough for both routines. */
    size_t lwork_geev = 0, lwork_syevj = 0;
    CHECK(batcheigDgeevBatched_bufferSize(handle, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_VECTOR, N, dA, N,
                                          dwr, dwi, NULL, 1, dV, N, &lwork_geev, NULL, BATCH));
    st = batcheigDsyevjBatched_bufferSize(handle, BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_FILL_MODE_LOWER, N, dA, N, dwr,
                                          &lwork_syevj, NULL, BATCH);
    if (st != BATCHEIG_STATUS_SUCCESS) lwork_syevj = 0; /* reported below, at the call */
    const size_t lwork = lwork_geev > lwork_syevj ? lwork_geev : lwork_syevj;
    void *dwork = NULL;
    if (lwork) CUDA_CHECK(cudaMalloc(&dwork, lwork));
    printf("user workspace: %zu bytes (geev %zu, syevj %zu)\n", lwork, lwork_geev, lwork_syevj);

    cudaEvent_t t0, t1;
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    int failures = 0;

    /* 5. geev: copy in, compute, copy out, all on the stream; the call
     * returns as soon as the work is enqueued. dA is overwritten. */
    CUDA_CHECK(cudaMemcpyAsync(dA, hA, nA * sizeof(double), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaEventRecord(t0, stream));
    CHECK(batcheigDgeevBatched(handle, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_VECTOR, N, dA, N, dwr, dwi,
                               NULL, 1, dV, N, dwork, lwork, dinfo, NULL, BATCH));
    CUDA_CHECK(cudaEventRecord(t1, stream));
    CUDA_CHECK(cudaMemcpyAsync(hwr, dwr, nW * sizeof(double), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(hwi, dwi, nW * sizeof(double), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(hV, dV, nA * sizeof(double), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(hinfo, dinfo, BATCH * sizeof(int), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
    {
        double worst = 0.0;
        int bad = 0;
        for (int b = 0; b < BATCH; ++b) {
            if (hinfo[b] != 0) { ++bad; continue; }
            const double r = geev_residual(hA, hwr, hwi, hV, b);
            if (!(r <= worst)) worst = r;
            if (!(r <= 20.0)) ++bad;
        }
        printf("geev:  %.3f ms on the GPU (%.0f matrices/s), worst residual ratio %.2f, %d failure(s)\n", ms,
               BATCH / (ms * 1e-3), worst, bad);
        failures += bad;
    }

    /* 6. syevj on the same stream and workspace: lower triangles of hA. */
    CUDA_CHECK(cudaMemcpyAsync(dA, hA, nA * sizeof(double), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaEventRecord(t0, stream));
    st = batcheigDsyevjBatched(handle, BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_FILL_MODE_LOWER, N, dA, N, dwr, dwork,
                               lwork, dinfo, NULL, BATCH);
    if (st == BATCHEIG_STATUS_NOT_SUPPORTED) {
        printf("syevj: device arrays are not supported by this batcheig build (\"%s\"); skipped\n",
               batcheigGetStatusString(st));
    } else {
        CHECK(st);
        CUDA_CHECK(cudaEventRecord(t1, stream));
        CUDA_CHECK(cudaMemcpyAsync(hwr, dwr, nW * sizeof(double), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaMemcpyAsync(hV, dA, nA * sizeof(double), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaMemcpyAsync(hinfo, dinfo, BATCH * sizeof(int), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaStreamSynchronize(stream));
        CUDA_CHECK(cudaEventElapsedTime(&ms, t0, t1));
        double worst = 0.0;
        int bad = 0;
        for (int b = 0; b < BATCH; ++b) {
            if (hinfo[b] != 0) { ++bad; continue; }
            const double r = syevj_residual(hA, hwr, hV, b);
            if (!(r <= worst)) worst = r;
            if (!(r <= 60.0)) ++bad;
        }
        printf("syevj: %.3f ms on the GPU (%.0f matrices/s), worst residual ratio %.2f, %d failure(s)\n", ms,
               BATCH / (ms * 1e-3), worst, bad);
        failures += bad;
    }

    CUDA_CHECK(cudaEventDestroy(t0));
    CUDA_CHECK(cudaEventDestroy(t1));
    CUDA_CHECK(cudaFree(dwork));
    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dV));
    CUDA_CHECK(cudaFree(dwr));
    CUDA_CHECK(cudaFree(dwi));
    CUDA_CHECK(cudaFree(dinfo));
    CUDA_CHECK(cudaFreeHost(hA));
    CUDA_CHECK(cudaFreeHost(hV));
    CUDA_CHECK(cudaFreeHost(hwr));
    CUDA_CHECK(cudaFreeHost(hwi));
    CUDA_CHECK(cudaFreeHost(hinfo));
    CHECK(batcheigDestroy(handle)); /* before the stream it uses */
    CUDA_CHECK(cudaStreamDestroy(stream));
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
