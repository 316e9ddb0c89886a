/*
 * geev_example.c: eigenvalues and right eigenvectors of a small batch of real
 * non-symmetric matrices with batcheigDgeevBatched.
 *
 * Build against an installed batcheig:
 *   cc -std=c99 geev_example.c $(pkg-config --cflags --libs batcheig) -lm
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

/* Column-major element (i, j) of matrix b in a batch with leading dimension ld. */
#define AT(M, ld, b, i, j) ((M)[(size_t)(b) * (ld) * N + (size_t)(j) * (ld) + (i)])

static double norm1(const double *A, int ld, int b)
{
    double best = 0.0;
    for (int j = 0; j < N; ++j) {
        double s = 0.0;
        for (int i = 0; i < N; ++i) s += fabs(AT(A, ld, b, i, j));
        if (s > best) best = s;
    }
    return best;
}

int main(void)
{
    /* Three 4x4 matrices, written row by row for readability and stored
     * column-major below:
     *  0: upper triangular, eigenvalues 1, 2, 3, 4;
     *  1: companion matrix of x^4 - 1, eigenvalues 1, -1, +i, -i;
     *  2: a dense non-symmetric matrix with a complex-conjugate pair. */
    static const double rows[BATCH][N][N] = {
        {{1, 5, -2, 7}, {0, 2, 3, 1}, {0, 0, 3, -4}, {0, 0, 0, 4}},
        {{0, 0, 0, 1}, {1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}},
        {{4, -2, 1, 0.5}, {3, 1, -1, 2}, {0.5, 2, -3, 1}, {-1, 0, 2, 1}},
    };
    const int lda = N, ldvr = N, ldvl = 1;
    double A[BATCH * N * N], A0[BATCH * N * N];
    double wr[BATCH * N], wi[BATCH * N], VR[BATCH * N * N];
    int info[BATCH];

    for (int b = 0; b < BATCH; ++b)
        for (int i = 0; i < N; ++i)
            for (int j = 0; j < N; ++j) AT(A, lda, b, i, j) = rows[b][i][j];
    memcpy(A0, A, sizeof A); /* A is overwritten by the call */

    int version = 0;
    CHECK(batcheigGetVersion(&version));
    batcheigHandle_t handle = NULL;
    CHECK(batcheigCreateWithBackend(&handle, BATCHEIG_BACKEND_HOST));
    batcheigBackend_t backend;
    CHECK(batcheigGetBackend(handle, &backend));
    printf("batcheig %d.%d.%d, backend %s\n", version / 10000, version / 100 % 100,
           version % 100, backend == BATCHEIG_BACKEND_CUDA ? "CUDA" : "host");

    /* Workspace: ask for the size, provide it ourselves (work == NULL would
     * let the handle allocate and cache it instead). */
    size_t lwork = 0;
    CHECK(batcheigDgeevBatched_bufferSize(handle, BATCHEIG_EIG_MODE_NOVECTOR,
                                          BATCHEIG_EIG_MODE_VECTOR, N, A, lda, wr, wi, NULL,
                                          ldvl, VR, ldvr, &lwork, NULL, BATCH));
    void *work = lwork ? malloc(lwork) : NULL;
    if (lwork && !work) {
        fprintf(stderr, "cannot allocate %zu bytes of workspace\n", lwork);
        return 1;
    }

    CHECK(batcheigDgeevBatched(handle, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_VECTOR, N, A,
                               lda, wr, wi, NULL, ldvl, VR, ldvr, work, lwork, info, NULL,
                               BATCH));

    /* Residual ||A v - lambda v||_2 / (n ||A||_1 eps) for every eigenpair.
     * Real geev packs a complex pair (j, j+1) as v = VR(:,j) + i VR(:,j+1). */
    const double threshold = 20.0;
    double worst = 0.0;
    int failures = 0;
    for (int b = 0; b < BATCH; ++b) {
        printf("matrix %d (info %d):\n", b, info[b]);
        if (info[b] != 0) {
            ++failures;
            continue;
        }
        const double anorm = norm1(A0, lda, b);
        for (int j = 0; j < N; ++j) {
            const double lr = wr[b * N + j], li = wi[b * N + j];
            const int pair = (li != 0.0);
            double r2 = 0.0, v2 = 0.0;
            for (int i = 0; i < N; ++i) {
                /* (A v)_i - lambda v_i, real and imaginary parts */
                double avr = 0.0, avi = 0.0;
                for (int k = 0; k < N; ++k) {
                    const double vr = AT(VR, ldvr, b, k, j - (li < 0));
                    const double vi = pair ? (li > 0 ? 1.0 : -1.0) * AT(VR, ldvr, b, k, j + (li > 0)) : 0.0;
                    avr += AT(A0, lda, b, i, k) * vr;
                    avi += AT(A0, lda, b, i, k) * vi;
                }
                const double vr = AT(VR, ldvr, b, i, j - (li < 0));
                const double vi = pair ? (li > 0 ? 1.0 : -1.0) * AT(VR, ldvr, b, i, j + (li > 0)) : 0.0;
                const double rr = avr - (lr * vr - li * vi);
                const double ri = avi - (lr * vi + li * vr);
                r2 += rr * rr + ri * ri;
                v2 += vr * vr + vi * vi;
            }
            const double ratio = sqrt(r2) / (N * (anorm > 0 ? anorm : 1.0) * DBL_EPSILON);
            const double vnorm_err = fabs(sqrt(v2) - 1.0) / DBL_EPSILON;
            if (ratio > worst) worst = ratio;
            if (ratio > threshold || vnorm_err > threshold * N) ++failures;
            printf("  lambda_%d = %+.12f %+.12fi   residual ratio %.2f\n", j, lr, li, ratio);
        }
    }

    free(work);
    CHECK(batcheigDestroy(handle));
    printf("worst residual ratio %.2f (threshold %.0f): %s\n", worst, threshold,
           failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
