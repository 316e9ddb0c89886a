/*
 * heevj_example.c: eigenvalues and eigenvectors of a small batch of complex
 * Hermitian matrices with batcheigZheevjBatched (Jacobi), reading the
 * per-matrix sweep counts and final off-diagonal norms.
 *
 * Build against an installed batcheig:
 *   cc -std=c99 heevj_example.c $(pkg-config --cflags --libs batcheig) -lm
 * or with CMake: find_package(batcheig) and link batcheig::batcheig
 * (see CMakeLists.txt and Makefile beside this file).
 *
 * Exit status 0 when every residual ||A v - lambda v|| is small, 1 otherwise.
 */
#include <batcheig.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4
#define BATCH 3

#define CHECK(call)                                                             \
    do {                                                                        \
        batcheigStatus_t st_ = (call);                                          \
        if (st_ != BATCHEIG_STATUS_SUCCESS) {                                   \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call, \
                    batcheigGetStatusString(st_));                              \
            return 1;                                                           \
        }                                                                       \
    } while (0)

/* Column-major element (i, j) of matrix b of a batch with leading dimension N. */
#define AT(M, b, i, j) ((M)[(size_t)(b) * N * N + (size_t)(j) * N + (i)])

typedef batcheigDoubleComplex zc;

static zc zmul(zc a, zc b) { zc r = {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x}; return r; }
static double zabs(zc a) { return hypot(a.x, a.y); }

int main(void)
{
    /* Three 4x4 Hermitian matrices; only the lower triangle is set (uplo =
     * LOWER: the upper triangle is never read, so it is left as zeros):
     *  0: real diagonal 4, 1, -2, 3 (already diagonal: no sweep needed);
     *  1: a tridiagonal matrix with complex off-diagonal entries;
     *  2: a dense Hermitian matrix. */
    static const double lower[BATCH][N][N][2] = {
        {{{4, 0}}, {{0, 0}, {1, 0}}, {{0, 0}, {0, 0}, {-2, 0}}, {{0, 0}, {0, 0}, {0, 0}, {3, 0}}},
        {{{2, 0}}, {{1, 1}, {2, 0}}, {{0, 0}, {0, -1}, {2, 0}}, {{0, 0}, {0, 0}, {1, 0.5}, {2, 0}}},
        {{{1, 0}}, {{2, -1}, {0, 0}}, {{0.5, 3}, {1, 1}, {-1, 0}}, {{-2, 0}, {0, 2}, {1, -1}, {5, 0}}},
    };
    zc A[BATCH * N * N], A0[BATCH * N * N];
    double W[BATCH * N], resid[BATCH];
    int info[BATCH], sweeps[BATCH];
    memset(A, 0, sizeof A);
    for (int b = 0; b < BATCH; ++b)
        for (int i = 0; i < N; ++i)
            for (int j = 0; j <= i; ++j) {
                AT(A, b, i, j).x = lower[b][i][j][0];
                AT(A, b, i, j).y = lower[b][i][j][1];
            }
    memcpy(A0, A, sizeof A);

    batcheigHandle_t handle;
    batcheigParams_t params;
    CHECK(batcheigCreate(&handle));
    CHECK(batcheigCreateParams(&params));
    /* Optional: per-matrix diagnostics, arrays of `batch` entries. */
    CHECK(batcheigParamsSetJacobiOutputs(params, sweeps, resid));

    /* Workspace: query its size and pass it (or pass NULL and let the handle
     * allocate and cache it). */
    size_t lwork = 0;
    CHECK(batcheigZheevjBatched_bufferSize(handle, BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_FILL_MODE_LOWER, N, A, N, W,
                                           &lwork, params, BATCH));
    void *work = lwork ? malloc(lwork) : NULL;
    if (lwork && !work) return 1;

    /* A is overwritten by the eigenvectors; W receives the eigenvalues in
     * ascending order. */
    CHECK(batcheigZheevjBatched(handle, BATCHEIG_EIG_MODE_VECTOR, BATCHEIG_FILL_MODE_LOWER, N, A, N, W, work, lwork,
                                info, params, BATCH));

    int ok = 1;
    for (int b = 0; b < BATCH; ++b) {
        printf("matrix %d: info %d, %d sweeps, off(A)/||A||_F = %.2e\n  eigenvalues:", b, info[b], sweeps[b],
               resid[b]);
        for (int k = 0; k < N; ++k) printf(" %9.5f", W[b * N + k]);
        printf("\n");
        if (info[b] != 0) ok = 0;
        /* ||A v_k - lambda_k v_k||_inf with the full Hermitian A rebuilt from its lower triangle. */
        double worst = 0.0, anorm = 0.0;
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) {
                const zc a = i >= j ? AT(A0, b, i, j) : (zc){AT(A0, b, j, i).x, -AT(A0, b, j, i).y};
                anorm = fmax(anorm, zabs(a));
            }
        for (int k = 0; k < N; ++k)
            for (int i = 0; i < N; ++i) {
                zc s = {-W[b * N + k] * AT(A, b, i, k).x, -W[b * N + k] * AT(A, b, i, k).y};
                for (int j = 0; j < N; ++j) {
                    zc a = i >= j ? AT(A0, b, i, j) : (zc){AT(A0, b, j, i).x, -AT(A0, b, j, i).y};
                    if (i == j) a.y = 0.0; /* imaginary parts of the diagonal are ignored */
                    const zc t = zmul(a, AT(A, b, j, k));
                    s.x += t.x;
                    s.y += t.y;
                }
                worst = fmax(worst, zabs(s));
            }
        printf("  max |A v - lambda v| = %.2e (%.1f N ||A|| eps)\n", worst, worst / (N * anorm * DBL_EPSILON));
        if (!(worst <= 100.0 * N * anorm * DBL_EPSILON)) ok = 0;
    }

    free(work);
    batcheigDestroyParams(params);
    batcheigDestroy(handle);
    printf("%s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
