/**
 * @file batcheig.h
 * @brief batcheig: batched dense eigensolvers for many small and medium matrices.
 *
 * The whole public C API of libbatcheig. The header needs no CUDA header:
 * batcheigStream_t is the same type as cudaStream_t, and the complex types
 * are layout-compatible with cuComplex / cuDoubleComplex, std::complex and
 * Fortran complex(c_float_complex) / complex(c_double_complex).
 *
 * Conventions shared by every routine:
 * - Column-major storage. Matrix b of a batch starts at `A + b*lda*n`, its
 *   eigenvalues at `W + b*n` (`wr + b*n`, `wi + b*n` for real geev), its
 *   eigenvectors at `V + b*ldv*n`, its status at `info[b]`.
 * - All arrays of one call live in the same memory space as the handle's
 *   backend expects (host memory for the host backend).
 * - Argument errors return ::BATCHEIG_STATUS_INVALID_VALUE, write nothing,
 *   and record the 1-based position of the offending argument (the handle is
 *   argument 1), readable with batcheigGetErrorArgument().
 * - `n == 0` or `batch == 0` is a successful quick return, even with NULL
 *   pointers.
 * - Per-matrix results go to `info[b]` (see ::batcheigInfoCode_t).
 * - A handle is not thread-safe; distinct handles are independent. The
 *   library never prints, never exits and never throws across this API.
 */
#ifndef BATCHEIG_H
#define BATCHEIG_H

#include <stddef.h>

#include "batcheig_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @brief Major version of this header. */
#define BATCHEIG_VERSION_MAJOR 0
/** @brief Minor version of this header. */
#define BATCHEIG_VERSION_MINOR 1
/** @brief Patch version of this header. */
#define BATCHEIG_VERSION_PATCH 0

/** @brief Opaque library context: backend, stream, cached workspace. */
typedef struct batcheigContext *batcheigHandle_t;
/** @brief Opaque per-call options (tolerances, iteration caps, algorithm). */
typedef struct batcheigParamsInfo *batcheigParams_t;
/** @brief A CUDA stream; the same type as `cudaStream_t`. NULL is the default stream. */
typedef struct CUstream_st *batcheigStream_t;

/** @brief Single-precision complex number, layout-compatible with `cuComplex`. */
typedef struct batcheigComplex {
    float x; /**< real part */
    float y; /**< imaginary part */
} batcheigComplex;

/** @brief Double-precision complex number, layout-compatible with `cuDoubleComplex`. */
typedef struct batcheigDoubleComplex {
    double x; /**< real part */
    double y; /**< imaginary part */
} batcheigDoubleComplex;

/** @brief Return status of every entry point. */
typedef enum batcheigStatus_t {
    BATCHEIG_STATUS_SUCCESS = 0,          /**< The call succeeded (per-matrix results are in `info`). */
    BATCHEIG_STATUS_NOT_INITIALIZED = 1,  /**< The handle (or params object) passed is NULL. */
    BATCHEIG_STATUS_ALLOC_FAILED = 2,     /**< The library could not allocate memory it needed. */
    BATCHEIG_STATUS_INVALID_VALUE = 3,    /**< An argument is invalid; see batcheigGetErrorArgument(). */
    BATCHEIG_STATUS_NOT_SUPPORTED = 4,    /**< The backend or algorithm asked for is not available in this build or on this machine. */
    BATCHEIG_STATUS_EXECUTION_FAILED = 5, /**< A backend operation (e.g. a kernel launch) failed. */
    BATCHEIG_STATUS_INTERNAL_ERROR = 6    /**< An internal inconsistency; please report it. */
} batcheigStatus_t;

/** @brief Where a handle runs its work. */
typedef enum batcheigBackend_t {
    BATCHEIG_BACKEND_AUTO = 0, /**< CUDA when the build has it and a usable GPU exists, else host. */
    BATCHEIG_BACKEND_HOST = 1, /**< CPU: OpenMP across the batch, host pointers. */
    BATCHEIG_BACKEND_CUDA = 2  /**< NVIDIA GPU on the handle's stream. */
} batcheigBackend_t;

/** @brief Whether eigenvectors are computed (`jobvl`, `jobvr`, `jobz`). */
typedef enum batcheigEigMode_t {
    BATCHEIG_EIG_MODE_NOVECTOR = 0, /**< Eigenvalues only; the vector array may be NULL. */
    BATCHEIG_EIG_MODE_VECTOR = 1    /**< Eigenvalues and eigenvectors. */
} batcheigEigMode_t;

/**
 * @brief Algorithm override, set with batcheigParamsSetAlgorithm().
 *
 * ::BATCHEIG_ALG_AUTO lets the dispatcher choose. Any other value forces a
 * variant; a variant that does not belong to the routine or the handle's
 * backend makes the call return ::BATCHEIG_STATUS_NOT_SUPPORTED.
 */
typedef enum batcheigAlgorithm_t {
    BATCHEIG_ALG_AUTO = 0,        /**< Let the dispatcher decide (default). */
    BATCHEIG_ALG_GEEV_HOST_QR = 1, /**< geev, host backend: one matrix per OpenMP task, Hessenberg + Francis QR. */
    BATCHEIG_ALG_JACOBI_HOST_SCALAR = 2, /**< syevj/heevj, host backend: two-sided cyclic Jacobi, round-robin steps of n/2 rotations. */
    BATCHEIG_ALG_JACOBI_HOST_BLOCK = 3,  /**< syevj/heevj, host backend: one-sided block Jacobi on 2nb x 2nb Gram blocks. */
    BATCHEIG_ALG_GEEV_CUDA_THREAD = 16,  /**< geev, CUDA backend: one matrix per thread, element-interleaved across the threads of a block in shared memory (small n) or across the batch in a global-memory copy (every n). */
    BATCHEIG_ALG_GEEV_CUDA_WARP = 17,    /**< geev, CUDA backend: p lanes of a warp per matrix (p by n), matrix, Schur vectors and scratch in shared memory (n while one matrix fits in a block's shared memory; the dispatcher uses it for small n). */
    BATCHEIG_ALG_GEEV_CUDA_BLOCK = 18,   /**< geev, CUDA backend: one thread block per matrix, everything in shared memory (n while one matrix fits in a block's shared memory). */
    BATCHEIG_ALG_GEEV_CUDA_GLOBAL = 19,  /**< geev, CUDA backend: one thread block per matrix, in place in global memory (every n); through the block variant's launches while one matrix with the call's vectors fits in a block's shared memory (same results). */
    BATCHEIG_ALG_JACOBI_CUDA_WARP = 20,   /**< syevj/heevj, CUDA backend: two-sided parallel Jacobi, p lanes of a warp per matrix (p by n), matrix, vectors and scratch in shared memory, all sweeps in one launch (n while one matrix fits in a block's shared memory; the dispatcher uses it for small n). */
    BATCHEIG_ALG_JACOBI_CUDA_SHARED = 21, /**< syevj/heevj, CUDA backend: two-sided parallel Jacobi, one thread block per matrix, everything in shared memory (n while one matrix fits in a block's shared memory). */
    BATCHEIG_ALG_JACOBI_CUDA_GLOBAL = 22, /**< syevj/heevj, CUDA backend: two-sided parallel Jacobi, one thread block per matrix, iterate in global memory (every n). */
    BATCHEIG_ALG_JACOBI_CUDA_BLOCK = 23,  /**< syevj/heevj, CUDA backend: one-sided block Jacobi (as ::BATCHEIG_ALG_JACOBI_HOST_BLOCK), one thread block per matrix, a warp per pair of column blocks, A Q in A and Q in the workspace (n while the block's shared memory holds a few n-entry buffers; the dispatcher uses it for large n). */
    BATCHEIG_ALG_JACOBI_CUDA_LANE = 24,   /**< syevj/heevj, CUDA backend: one-sided Jacobi with one-column blocks, a column pair per lane (its rows split over 2-8 lanes), the columns of A Q and Q in registers (n <= 128). */
    BATCHEIG_ALG_JACOBI_CUDA_CLUSTER = 25, /**< syevj/heevj, CUDA backend (sm_90 and later): one-sided block Jacobi, one thread-block cluster per matrix, a block per pair of column blocks, A Q and Q in the cluster's shared memory (n while that fits: up to 256 in double on Hopper). */
    BATCHEIG_ALG_JACOBI_CUDA_GRID = 26,    /**< syevj/heevj, CUDA backend: one-sided block Jacobi, the (pair of column blocks, matrix) items of each round-robin step spread over all the GPU's blocks in one cooperative launch with grid barriers between the steps, A Q in A and Q in the workspace (n >= 32; the dispatcher uses it for large n). */
    BATCHEIG_ALG_JACOBI_CUDA_MIXED = 27,   /**< syevjBatched (double) and heevjBatched (double complex), CUDA backend: the single-precision Jacobi (the Jacobi variant AUTO picks for a call that caps the sweeps) for approximate eigenvectors, then a double-precision finish (Ogita-Aishima refinement: batched GEMMs and a per-matrix update) until the tolerance is met; about 6 n x n elements of workspace per matrix, so AUTO never picks it. ::BATCHEIG_STATUS_NOT_SUPPORTED in single precision and on the host backend. */
    BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG = 28 /**< syevjBatched (double) and heevjBatched (double complex), CUDA backend: as ::BATCHEIG_ALG_JACOBI_CUDA_MIXED, but the approximate eigenvectors come from a single-precision tridiagonal reduction, bisection and inverse iteration instead of the single-precision Jacobi; the same double-precision finish, tolerance and outputs (the sweeps count the finish's updates only); about 6-6.5 n x n elements of workspace per matrix, so AUTO never picks it. ::BATCHEIG_STATUS_NOT_SUPPORTED in single precision and on the host backend. */,
    BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG = 29 /**< syevj/heevj, CUDA backend, every precision, n <= 2048 (double complex: n <= 1035): the tridiagonal method in working precision (Householder reduction, multisection on Sturm counts, inverse iteration with the vectors orthogonalized, back-transformation); n <= 64: one thread block per matrix in shared memory, one launch, no workspace; beyond, in global memory with n x n elements of workspace per matrix; the tolerance is max(tol, 32 n u) as for ::BATCHEIG_ALG_JACOBI_CUDA_MIXED, `sweeps` is 0 and `residual` is ||T Z - Z diag(w)||_F / ||A||_F of the tridiagonal problem (which bounds off(Z^T T Z) / ||A||_F); eigenvalues ascending. */
} batcheigAlgorithm_t;

/**
 * @brief Special per-matrix `info` values.
 *
 * Besides these, `info[b] == 0` means success and, for geev,
 * `1 <= info[b] <= n` means the QR algorithm did not converge (LAPACK
 * meaning: elements `info[b]+1 .. n` of the eigenvalues are valid, no
 * eigenvectors were computed).
 */
typedef enum batcheigInfoCode_t {
    /** The matrix holds NaN or Inf: its eigenvalues and vectors are set to NaN. */
    BATCHEIG_INFO_NONFINITE = -1,
    /** Jacobi (syevj/heevj) did not reach the tolerance within the maximum
     *  number of sweeps; the outputs hold the last iterate (see
     *  batcheigParamsSetJacobiOutputs() for its off-diagonal norm). */
    BATCHEIG_INFO_JACOBI_NOT_CONVERGED = -2
} batcheigInfoCode_t;

/* ------------------------------------------------------------------------ */
/** @name Handle */
/** @{ */

/**
 * @brief Create a handle with backend ::BATCHEIG_BACKEND_AUTO.
 * @param[out] handle receives the new handle.
 * @return ::BATCHEIG_STATUS_SUCCESS, ::BATCHEIG_STATUS_INVALID_VALUE (handle NULL),
 *         ::BATCHEIG_STATUS_ALLOC_FAILED.
 */
BATCHEIG_API batcheigStatus_t batcheigCreate(batcheigHandle_t *handle);

/**
 * @brief Create a handle on a given backend.
 * @param[out] handle  receives the new handle (set to NULL on failure).
 * @param[in]  backend ::BATCHEIG_BACKEND_AUTO, ::BATCHEIG_BACKEND_HOST or ::BATCHEIG_BACKEND_CUDA.
 * @return ::BATCHEIG_STATUS_NOT_SUPPORTED when the backend asked for is not
 *         compiled in or has no usable device; ::BATCHEIG_STATUS_INVALID_VALUE
 *         for an unknown backend value or a NULL `handle`.
 */
BATCHEIG_API batcheigStatus_t batcheigCreateWithBackend(batcheigHandle_t *handle, batcheigBackend_t backend);

/**
 * @brief Destroy a handle and release its cached workspace. NULL is accepted.
 * @return ::BATCHEIG_STATUS_SUCCESS.
 */
BATCHEIG_API batcheigStatus_t batcheigDestroy(batcheigHandle_t handle);

/**
 * @brief Set the stream that later calls are enqueued on (CUDA backend).
 *
 * The host backend records the stream and otherwise ignores it.
 */
BATCHEIG_API batcheigStatus_t batcheigSetStream(batcheigHandle_t handle, batcheigStream_t stream);

/** @brief Get the handle's stream. */
BATCHEIG_API batcheigStatus_t batcheigGetStream(batcheigHandle_t handle, batcheigStream_t *stream);

/** @brief Get the backend the handle actually runs on (never ::BATCHEIG_BACKEND_AUTO). */
BATCHEIG_API batcheigStatus_t batcheigGetBackend(batcheigHandle_t handle, batcheigBackend_t *backend);

/**
 * @brief Choose the GPUs that calls with host arrays on a CUDA handle use.
 *
 * A batch in host memory is cut into chunks (batcheigParamsSetStreaming())
 * and the chunks are shared out among the listed devices as each becomes
 * free, so devices of different speeds are all kept busy. The calling
 * thread enqueues every device's chunks and waits for them; the library
 * starts no thread per device. Each matrix's
 * results are bitwise the same as on one device of the same model. Calls
 * with device arrays are not affected: they run on the calling thread's
 * current device, on the handle's stream.
 *
 * @param handle  a handle on the CUDA backend.
 * @param count   number of devices in `devices`; 0 restores the default
 *                (the calling thread's current device at each call).
 * @param devices `count` distinct CUDA device ordinals (may be NULL when
 *                `count` is 0).
 * @return ::BATCHEIG_STATUS_NOT_SUPPORTED on a handle of another backend;
 *         ::BATCHEIG_STATUS_INVALID_VALUE for `count` < 0 (argument 2), or a
 *         NULL `devices` with `count` > 0, an ordinal that does not exist or
 *         appears twice (argument 3). The handle keeps its list on failure.
 */
BATCHEIG_API batcheigStatus_t batcheigSetDevices(batcheigHandle_t handle, int count, const int *devices);

/**
 * @brief Read the device list set with batcheigSetDevices().
 *
 * `*count` receives the length of the list (0: the default, the current
 * device); the first min(`capacity`, `*count`) ordinals go to `devices`,
 * which may be NULL when `capacity` is 0.
 * @return ::BATCHEIG_STATUS_INVALID_VALUE for `capacity` < 0 (argument 2),
 *         NULL `devices` with `capacity` > 0 (argument 3), NULL `count`
 *         (argument 4).
 */
BATCHEIG_API batcheigStatus_t batcheigGetDevices(batcheigHandle_t handle, int capacity, int *devices, int *count);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name Information */
/** @{ */

/**
 * @brief Library version as `major*10000 + minor*100 + patch`.
 * @param[out] version receives the version of the loaded library.
 */
BATCHEIG_API batcheigStatus_t batcheigGetVersion(int *version);

/**
 * @brief A constant English description of a status code, never NULL.
 */
BATCHEIG_API const char *batcheigGetStatusString(batcheigStatus_t status);

/**
 * @brief 1-based position of the argument that made the handle's last call
 *        return ::BATCHEIG_STATUS_INVALID_VALUE (the handle is argument 1);
 *        0 when the last call did not fail that way.
 */
BATCHEIG_API batcheigStatus_t batcheigGetErrorArgument(batcheigHandle_t handle, int *position);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name Parameters
 * A params object carries options for the routines. Every routine accepts
 * NULL for defaults. A params object may be shared by several calls and
 * handles, but must not be changed while a call that uses it runs. */
/** @{ */

/** @brief Create a params object holding the defaults. */
BATCHEIG_API batcheigStatus_t batcheigCreateParams(batcheigParams_t *params);

/** @brief Destroy a params object. NULL is accepted. */
BATCHEIG_API batcheigStatus_t batcheigDestroyParams(batcheigParams_t params);

/**
 * @brief Convergence tolerance (relative). `tol <= 0` restores the default.
 *
 * Used by the Jacobi routines; geev's QR uses LAPACK's deflation criterion
 * and ignores it.
 */
BATCHEIG_API batcheigStatus_t batcheigParamsSetTolerance(batcheigParams_t params, double tol);
/** @brief Read the tolerance (0 means default). */
BATCHEIG_API batcheigStatus_t batcheigParamsGetTolerance(batcheigParams_t params, double *tol);

/**
 * @brief Iteration cap of geev's QR algorithm per deflation, as LAPACK's
 *        ITMAX; `0` restores the default `30*max(10,n)`. Negative values are
 *        invalid (::BATCHEIG_STATUS_INVALID_VALUE; params calls have no handle, so no position is recorded).
 */
BATCHEIG_API batcheigStatus_t batcheigParamsSetMaxIterations(batcheigParams_t params, int maxIterations);
/** @brief Read the QR iteration cap (0 means default). */
BATCHEIG_API batcheigStatus_t batcheigParamsGetMaxIterations(batcheigParams_t params, int *maxIterations);

/** @brief Force an algorithm variant (see ::batcheigAlgorithm_t). */
BATCHEIG_API batcheigStatus_t batcheigParamsSetAlgorithm(batcheigParams_t params, batcheigAlgorithm_t algorithm);
/** @brief Read the algorithm override. */
BATCHEIG_API batcheigStatus_t batcheigParamsGetAlgorithm(batcheigParams_t params, batcheigAlgorithm_t *algorithm);

/**
 * @brief Chunking of calls with host arrays on the CUDA backend.
 *
 * Such a call moves the batch through the GPU in chunks of `chunk` matrices,
 * each on one of `streams` streams per device with its own device buffers:
 * while one chunk computes, the next one's input and the previous one's
 * results cross the bus. Arrays in pinned host memory (cudaMallocHost,
 * cudaHostRegister) are copied directly; pageable arrays go through pinned
 * staging buffers of one chunk per stream that the handle keeps, so memory
 * use on the device and in pinned host memory is bounded by
 * `streams * chunk` matrices whatever the batch size.
 *
 * @param chunk   matrices per chunk, or 0 for the automatic choice (by the
 *                bytes per matrix, docs/backends.md).
 * @param streams streams per device, 1 to 16, or 0 for automatic (6 on
 *                one device, 3 per device on several).
 * @return ::BATCHEIG_STATUS_INVALID_VALUE for `chunk` < 0 or `streams`
 *         outside 0..16.
 */
BATCHEIG_API batcheigStatus_t batcheigParamsSetStreaming(batcheigParams_t params, int chunk, int streams);
/** @brief Read the values set with batcheigParamsSetStreaming() (0: automatic); either pointer may be NULL. */
BATCHEIG_API batcheigStatus_t batcheigParamsGetStreaming(batcheigParams_t params, int *chunk, int *streams);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name Non-symmetric eigenproblems: geevBatched
 *
 * For each matrix A_b of the batch, compute its eigenvalues and optionally
 * its right eigenvectors (A v = lambda v) and left eigenvectors
 * (u^H A = lambda u^H), as LAPACK `xGEEV` does: balancing (permutation and
 * scaling), scaling of matrices whose norm is near underflow or overflow,
 * Householder reduction to Hessenberg form, shifted QR to Schur form,
 * eigenvectors by back-substitution. Each computed eigenvector is scaled to
 * unit Euclidean norm with its largest component real.
 *
 * Real types (S, D): eigenvalues as `wr + i*wi`; complex-conjugate pairs
 * appear consecutively with the positive imaginary part first. Eigenvectors
 * are stored as LAPACK stores them: a real eigenvalue j gives real column j;
 * a pair (j, j+1) gives v_j = V(:,j) + i*V(:,j+1), v_{j+1} = conj(v_j).
 *
 * Complex types (C, Z): eigenvalues in `W`, eigenvectors as complex columns.
 *
 * Argument positions (for batcheigGetErrorArgument()), real types:
 * 1 handle, 2 jobvl, 3 jobvr, 4 n, 5 A, 6 lda, 7 wr, 8 wi, 9 VL, 10 ldvl,
 * 11 VR, 12 ldvr, 13 work, 14 lwork, 15 info, 16 params, 17 batch.
 * Complex types: 1 handle, 2 jobvl, 3 jobvr, 4 n, 5 A, 6 lda, 7 W, 8 VL,
 * 9 ldvl, 10 VR, 11 ldvr, 12 work, 13 lwork, 14 info, 15 params, 16 batch.
 * The `_bufferSize` queries use the same positions up to `ldvr`, then the
 * output `lwork` pointer, params and batch.
 *
 * Requirements: `n >= 0`, `batch >= 0`, `lda >= max(1,n)`;
 * `ldvl >= max(1,n)` when `jobvl` is ::BATCHEIG_EIG_MODE_VECTOR, else
 * `ldvl >= 1`; the same for `ldvr`; `A`, the eigenvalue arrays and `info`
 * non-NULL; `VL`/`VR` non-NULL when the vectors are wanted; `lwork` at least
 * the size returned by the `_bufferSize` query when `work` is not NULL.
 *
 * On exit `A` is overwritten (its contents are unspecified, as in LAPACK).
 * A call that returns anything but ::BATCHEIG_STATUS_SUCCESS on an argument
 * check, ::BATCHEIG_STATUS_NOT_SUPPORTED included, writes nothing.
 * `info[b]`: 0 success; `k` in 1..n: QR did not converge, eigenvalues
 * `k+1..n` (1-based) are valid and the others and all vectors of that matrix
 * are set to NaN; ::BATCHEIG_INFO_NONFINITE: the input held NaN or Inf and
 * all outputs of that matrix are NaN. A failing matrix never changes the
 * results of the others.
 *
 * Memory spaces (CUDA backend): with device (or managed) arrays the call
 * is enqueued on the handle's stream and returns at once, like cuSOLVER;
 * with host arrays (pageable or pinned) the batch streams through the GPU
 * in chunks, transfers overlapping computation on several streams and, with
 * batcheigSetDevices(), several GPUs; buffers are the handle's (`work` is
 * then not used), the work is ordered after what the handle's stream already
 * holds, and the call returns when the results are in host memory, like
 * LAPACK (batcheigParamsSetStreaming()).
 *
 * Workspace: `work == NULL` makes the handle allocate and cache it;
 * otherwise `lwork` bytes at `work` are used and the call allocates nothing.
 * The host backend runs `min(threads, lwork / per-matrix size)` OpenMP
 * threads, so a workspace sized on one thread count stays valid on another.
 */
/** @{ */

/** @brief Workspace size in bytes of batcheigSgeevBatched(). Pointers may be NULL. */
BATCHEIG_API batcheigStatus_t batcheigSgeevBatched_bufferSize(
    batcheigHandle_t handle, batcheigEigMode_t jobvl, batcheigEigMode_t jobvr, int n,
    const float *A, int lda, const float *wr, const float *wi, const float *VL, int ldvl,
    const float *VR, int ldvr, size_t *lwork, batcheigParams_t params, int batch);
/** @brief Workspace size in bytes of batcheigDgeevBatched(). Pointers may be NULL. */
BATCHEIG_API batcheigStatus_t batcheigDgeevBatched_bufferSize(
    batcheigHandle_t handle, batcheigEigMode_t jobvl, batcheigEigMode_t jobvr, int n,
    const double *A, int lda, const double *wr, const double *wi, const double *VL, int ldvl,
    const double *VR, int ldvr, size_t *lwork, batcheigParams_t params, int batch);
/** @brief Workspace size in bytes of batcheigCgeevBatched(). Pointers may be NULL. */
BATCHEIG_API batcheigStatus_t batcheigCgeevBatched_bufferSize(
    batcheigHandle_t handle, batcheigEigMode_t jobvl, batcheigEigMode_t jobvr, int n,
    const batcheigComplex *A, int lda, const batcheigComplex *W, const batcheigComplex *VL,
    int ldvl, const batcheigComplex *VR, int ldvr, size_t *lwork, batcheigParams_t params,
    int batch);
/** @brief Workspace size in bytes of batcheigZgeevBatched(). Pointers may be NULL. */
BATCHEIG_API batcheigStatus_t batcheigZgeevBatched_bufferSize(
    batcheigHandle_t handle, batcheigEigMode_t jobvl, batcheigEigMode_t jobvr, int n,
    const batcheigDoubleComplex *A, int lda, const batcheigDoubleComplex *W,
    const batcheigDoubleComplex *VL, int ldvl, const batcheigDoubleComplex *VR, int ldvr,
    size_t *lwork, batcheigParams_t params, int batch);

/** @brief Eigenvalues and optional left/right eigenvectors of a batch of real single-precision matrices. */
BATCHEIG_API batcheigStatus_t batcheigSgeevBatched(
    batcheigHandle_t handle, batcheigEigMode_t jobvl, batcheigEigMode_t jobvr, int n, float *A,
    int lda, float *wr, float *wi, float *VL, int ldvl, float *VR, int ldvr, void *work,
    size_t lwork, int *info, batcheigParams_t params, int batch);
/** @brief Eigenvalues and optional left/right eigenvectors of a batch of real double-precision matrices. */
BATCHEIG_API batcheigStatus_t batcheigDgeevBatched(
    batcheigHandle_t handle, batcheigEigMode_t jobvl, batcheigEigMode_t jobvr, int n, double *A,
    int lda, double *wr, double *wi, double *VL, int ldvl, double *VR, int ldvr, void *work,
    size_t lwork, int *info, batcheigParams_t params, int batch);
/** @brief Eigenvalues and optional left/right eigenvectors of a batch of single-complex matrices. */
BATCHEIG_API batcheigStatus_t batcheigCgeevBatched(
    batcheigHandle_t handle, batcheigEigMode_t jobvl, batcheigEigMode_t jobvr, int n,
    batcheigComplex *A, int lda, batcheigComplex *W, batcheigComplex *VL, int ldvl,
    batcheigComplex *VR, int ldvr, void *work, size_t lwork, int *info, batcheigParams_t params,
    int batch);
/** @brief Eigenvalues and optional left/right eigenvectors of a batch of double-complex matrices. */
BATCHEIG_API batcheigStatus_t batcheigZgeevBatched(
    batcheigHandle_t handle, batcheigEigMode_t jobvl, batcheigEigMode_t jobvr, int n,
    batcheigDoubleComplex *A, int lda, batcheigDoubleComplex *W, batcheigDoubleComplex *VL,
    int ldvl, batcheigDoubleComplex *VR, int ldvr, void *work, size_t lwork, int *info,
    batcheigParams_t params, int batch);

/** @} */
/* ------------------------------------------------------------------------ */
/** @name Symmetric / Hermitian eigenproblems (Jacobi): syevjBatched, heevjBatched
 *
 * For each Hermitian (real: symmetric) matrix A_b of the batch, compute its
 * real eigenvalues and optionally orthonormal eigenvectors,
 * A_b = V diag(W) V^H, by Jacobi's method, as cuSOLVER's `?syevjBatched`:
 * - Only the triangle named by `uplo` is read (the other one may hold
 *   anything, NaN included); imaginary parts of the diagonal are ignored.
 * - `jobz` = ::BATCHEIG_EIG_MODE_VECTOR: A_b is overwritten by V (column j
 *   belongs to eigenvalue j). ::BATCHEIG_EIG_MODE_NOVECTOR: only W is
 *   computed and the contents of A on exit are unspecified (the host's
 *   scalar variant leaves A unchanged; the block variants and the CUDA
 *   backend may use it as scratch).
 * - W_b is sorted ascending, the vectors alike, unless sorting is switched
 *   off with batcheigParamsSetSortEigenvalues().
 * - Backends: host (OpenMP over the batch) and CUDA. On a CUDA handle, A, W
 *   and info may be device (or managed) arrays: the work is enqueued on the
 *   handle's stream and the call returns at once; or host arrays: the batch
 *   streams through the GPU(s) as for geevBatched and the call returns when
 *   the results are in host memory. The arrays of batcheigParamsSetJacobiOutputs() must
 *   then live in the same memory as A. Without vectors, host arrays A come
 *   back unchanged (A is not copied back); device arrays A are left
 *   unchanged by the two-sided CUDA variants, ::BATCHEIG_ALG_JACOBI_CUDA_LANE,
 *   ::BATCHEIG_ALG_JACOBI_CUDA_CLUSTER and ::BATCHEIG_ALG_JACOBI_CUDA_MIXED,
 *   and used as scratch by
 *   ::BATCHEIG_ALG_JACOBI_CUDA_BLOCK and ::BATCHEIG_ALG_JACOBI_CUDA_GRID.
 *
 * Method. The triangle is copied into a full working matrix and scaled by a
 * power of two (exactly) to max |a_ij| in [1, 2), so matrices near the
 * overflow or underflow threshold are handled without loss. Then sweeps of
 * Jacobi rotations (with the phase of a_pq for complex types) in the
 * parallel round-robin order, n/2 disjoint rotations per step, until
 *     off(A_k) <= tol * ||A||_F,   off(X) = sqrt(sum_{i != j} |x_ij|^2),
 * or `maxSweeps` sweeps ran. tol is set with batcheigParamsSetTolerance();
 * the default (tol <= 0) is the machine epsilon of the precision, 2u
 * (FLT_EPSILON or DBL_EPSILON). Variants (batcheigParamsSetAlgorithm()):
 * - ::BATCHEIG_ALG_JACOBI_HOST_SCALAR: two-sided cyclic Jacobi on the whole
 *   matrix; A_k is the rotated matrix.
 * - ::BATCHEIG_ALG_JACOBI_HOST_BLOCK: one-sided block Jacobi (Huang, Liu,
 *   Zhao 2023): pairs of nb-column blocks, each 2nb x 2nb Gram block
 *   Q_S^H (A Q)_S diagonalized by the scalar method; A_k = Q^H (A Q), and
 *   the eigenvalues are its diagonal. As A Q is updated rather than
 *   recomputed (in A itself), A_k carries rounding errors that rotations
 *   cannot remove, so the tolerance this variant uses is
 *   max(tol, 4 sqrt(n) u).
 * - ::BATCHEIG_ALG_JACOBI_CUDA_WARP, ::BATCHEIG_ALG_JACOBI_CUDA_SHARED,
 *   ::BATCHEIG_ALG_JACOBI_CUDA_GLOBAL (CUDA backend): the two-sided method
 *   with a team of threads per matrix (p lanes of a warp, or a block), each
 *   step's rotations applied as independent 2x2 blocks of J^H A J; iterate
 *   and vectors in shared memory (WARP, SHARED: while one problem fits in a
 *   block's shared memory, ::BATCHEIG_STATUS_NOT_SUPPORTED beyond) or in
 *   the workspace (GLOBAL, every n). A_k is the rotated matrix, as for
 *   the host's scalar variant.
 * - ::BATCHEIG_ALG_JACOBI_CUDA_BLOCK (CUDA backend): the one-sided block
 *   method of ::BATCHEIG_ALG_JACOBI_HOST_BLOCK (same tolerance floor), one
 *   thread block per matrix, the pairs of a step on its warps.
 * - ::BATCHEIG_ALG_JACOBI_CUDA_LANE (CUDA backend, n <= 128,
 *   ::BATCHEIG_STATUS_NOT_SUPPORTED beyond): the one-sided method with
 *   blocks of one column (same tolerance floor; twice it,
 *   max(tol, 8 sqrt(n) u), in the Gram form below), the two columns of a
 *   round-robin pair in the registers of one lane (or of the 2-8 lanes
 *   that split their rows), with their columns of A Q and Q; A_k is the
 *   Hermitian part of Q^H (A Q) (its other part is rounding that no
 *   rotation removes). It tests convergence after a sweep, so it runs at
 *   least one sweep. In double
 *   and single complex precision for n > 16, in double complex for
 *   n > 8 and in every precision for n > 64, it runs instead the Gram form: the same rotations computed from
 *   the columns of W = (A + sigma I) Q alone (Q is not kept), which become
 *   orthogonal as Q diagonalizes A; the eigenvectors are W's columns
 *   normalized and the eigenvalues their Rayleigh quotients with A. The
 *   shift sigma makes A + sigma I positive definite: first a bound that
 *   holds for most matrices (4 ||A||_F / sqrt(n), at most 1.34 ||A||_F),
 *   unless Gershgorin's bound on -lambda_min(A) is smaller; if an
 *   eigenvalue of A + sigma I then comes out below sigma / 4, the matrix
 *   is solved again: as -A with the same shift where the first try's
 *   eigenvalues show -A + sigma I positive definite (at most 30 sweeps),
 *   otherwise or after that with a shift that always holds, which raises
 *   the residual's floor (the sweeps of every try count; the first gets
 *   at most 30). Its A_k is Q^H A Q to first
 *   order: off(A_k) = sqrt(sum_{i != j} |w_i^H w_j|^2 /
 *   (||w_i|| + ||w_j||)^2). For a matrix that did not converge its
 *   vectors are only as orthogonal as that iterate's columns.
 * - ::BATCHEIG_ALG_JACOBI_CUDA_CLUSTER (CUDA backend, devices with thread
 *   block clusters, sm_90 and later): the one-sided block method (same
 *   tolerance floor), one cluster of thread blocks per matrix, a block per
 *   pair of column blocks of a step, A Q and Q in the blocks' shared memory
 *   (no workspace); n while that fits (::BATCHEIG_STATUS_NOT_SUPPORTED
 *   beyond, and on older devices). It runs at least one sweep.
 * - ::BATCHEIG_ALG_JACOBI_CUDA_GRID (CUDA backend, n >= 32,
 *   ::BATCHEIG_STATUS_NOT_SUPPORTED below): the one-sided block method
 *   (same tolerance floor), the pairs of column blocks of every matrix of
 *   a round-robin step spread over all the GPU's thread blocks in one
 *   cooperative launch (grid barriers between the steps), A Q in A and Q in
 *   the workspace; devices without cooperative launch return
 *   ::BATCHEIG_STATUS_NOT_SUPPORTED. It runs at least one sweep.
 * - ::BATCHEIG_ALG_JACOBI_CUDA_MIXED (CUDA backend, double and double
 *   complex only; ::BATCHEIG_STATUS_NOT_SUPPORTED in single precision): the
 *   scaled matrix rounded to single precision and solved with vectors by
 *   the single-precision AUTO variant (its tolerance: tol where tol is
 *   larger than that precision's floor; `maxSweeps` applies), then the
 *   double-precision refinement of Ogita and Aishima (2018): for the
 *   iterate X, C = X^H X and S = X^H A X by GEMMs and
 *       r = max(off(S) / ||A||_F, ||I - C||_F);
 *   X is final when r <= max(tol, 32 n u) and r is either at most an
 *   eighth of that or more than half the previous iterate's r (no longer
 *   improving); else X <- X F with F from C and S (near-equal eigenvalues
 *   solved together), at most 8 updates (16 for n > 256) and at most
 *   `maxSweeps` sweeps and updates together. The eigenvalues are the Rayleigh quotients
 *   s_ii / c_ii of the final X, the vectors its columns; A_k is S, and the
 *   reported residual is the maximum above (so ::BATCHEIG_INFO_JACOBI_NOT_CONVERGED
 *   also flags vectors short of orthonormality); the reported sweeps are
 *   the single-precision sweeps plus the updates. Workspace: about
 *   6 n x n elements per matrix plus the single-precision stage's. On the
 *   GPU it takes less time than the double-precision variants from about
 *   n = 128 (docs/performance.md).
 * - ::BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG (CUDA backend, double and
 *   double complex only; ::BATCHEIG_STATUS_NOT_SUPPORTED in single
 *   precision): the same refinement, tolerance, residual and info as
 *   ::BATCHEIG_ALG_JACOBI_CUDA_MIXED, from a first iterate computed in
 *   single precision by a Householder reduction to tridiagonal form,
 *   bisection and inverse iteration (tol and `maxSweeps` do not apply to
 *   that stage); the reported sweeps are the updates alone, and
 *   `maxSweeps` caps them (at most 8). Workspace: about 6 n x n (complex)
 *   to 6.5 n x n (real) elements per matrix. Orders up to what its
 *   reduction's shared memory allows (n <= 2070 in double complex, 4141 in
 *   double on 227 KiB; beyond, ::BATCHEIG_STATUS_NOT_SUPPORTED). The
 *   fastest variant on the GPU from about n = 128 (docs/performance.md).
 * - ::BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG (CUDA backend, every precision,
 *   n <= 2048, double complex n <= 1035 on 227 KiB of shared memory;
 *   beyond, ::BATCHEIG_STATUS_NOT_SUPPORTED): not Jacobi but the
 *   tridiagonal method in working precision: Householder reduction to real
 *   tridiagonal T, its eigenvalues by multisection on Sturm counts, its
 *   eigenvectors Z by
 *   inverse iteration with the clusters (closer than 1e-3 ||T||_1)
 *   orthogonalized, then V = Q Z. For n <= 64 one thread block per matrix
 *   in shared memory, no workspace (eigenvalues outside clusters as
 *   Rayleigh quotients; Z <- Z (3I - Z^T Z) / 2 at the end). Beyond, in
 *   global memory: the reduction in place in A (which, without vectors, is
 *   left as scratch), Z and V = Q Z in a workspace of n x n elements per
 *   matrix (the size of the input batch); two solves per vector and a
 *   first-order orthogonalization of each vector against its 16
 *   neighbours on either side. The reported sweeps are 0 and
 *   `maxSweeps` does not apply; the reported residual is
 *   ||T Z - Z diag(w)||_F / ||A||_F (which bounds off(Z^T T Z) / ||A||_F),
 *   and info is ::BATCHEIG_INFO_JACOBI_NOT_CONVERGED exactly when it
 *   exceeds max(tol, 32 n u). The eigenvalues come out ascending whatever
 *   the sort flag.
 * - ::BATCHEIG_ALG_AUTO: each backend picks by n (docs/backends.md,
 *   docs/performance.md); never ::BATCHEIG_ALG_JACOBI_CUDA_MIXED or
 *   ::BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG. On the CUDA backend,
 *   ::BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG takes the complex types from n = 33,
 *   double from n = 65 and float from n = 129, up to its largest n, when
 *   `maxSweeps` is left at its default (a call that caps the sweeps gets
 *   a Jacobi variant).
 * A variant that does not belong to the handle's backend makes the call
 * return ::BATCHEIG_STATUS_NOT_SUPPORTED.
 *
 * A call that returns anything but ::BATCHEIG_STATUS_SUCCESS on an argument
 * check, ::BATCHEIG_STATUS_NOT_SUPPORTED included, writes nothing.
 * `info[b]`: 0 success; ::BATCHEIG_INFO_JACOBI_NOT_CONVERGED: the tolerance
 * was not met in `maxSweeps` sweeps, W_b and V hold the last iterate (sorted,
 * V orthonormal to working accuracy); ::BATCHEIG_INFO_NONFINITE: the triangle
 * holds NaN or Inf, W_b and (with vectors) A_b are set to NaN. A failing
 * matrix never changes the results of the others. The executed sweeps and
 * the final off(A_k) / ||A||_F of every matrix are available through
 * batcheigParamsSetJacobiOutputs().
 *
 * Argument positions (for batcheigGetErrorArgument()), all precisions:
 * 1 handle, 2 jobz, 3 uplo, 4 n, 5 A, 6 lda, 7 W, 8 work, 9 lwork, 10 info,
 * 11 params, 12 batch. The `_bufferSize` queries: 1 handle, 2 jobz, 3 uplo,
 * 4 n, 5 A, 6 lda, 7 W, 8 lwork (output pointer), 9 params, 10 batch.
 * Arguments are checked in the order jobz, uplo, n, lda, batch, then (not
 * for the queries) A, W, info, then (queries) lwork, then the workspace size.
 *
 * Requirements: `n >= 0`, `batch >= 0`, `lda >= max(1,n)`; `A`, `W` and
 * `info` non-NULL; `lwork` at least the size returned by the `_bufferSize`
 * query when `work` is not NULL. `n == 0` or `batch == 0` returns
 * ::BATCHEIG_STATUS_SUCCESS at once and writes nothing.
 *
 * Workspace: as geevBatched. `work == NULL` makes the handle allocate and
 * cache it; otherwise `lwork` bytes at `work` are used and the call
 * allocates nothing. The size depends on `jobz`, n, batch, the variant (so on
 * the params) and the thread count, not on the data. On a CUDA handle the
 * workspace is device memory: none for the shared-memory variants, and for
 * ::BATCHEIG_ALG_JACOBI_CUDA_GLOBAL at most max(the bytes of the input batch,
 * one matrix's scratch), for ::BATCHEIG_ALG_JACOBI_CUDA_BLOCK n x n elements
 * per matrix of a launch and for ::BATCHEIG_ALG_JACOBI_CUDA_GRID n x n
 * elements per matrix (each at most the input batch). Calls with host arrays on a CUDA handle check
 * `lwork` but stage through buffers the handle owns.
 */
/** @{ */

/** @brief Which triangle of a Hermitian matrix is stored (values as cuBLAS's `cublasFillMode_t`). */
typedef enum batcheigFillMode_t {
    BATCHEIG_FILL_MODE_LOWER = 0, /**< The lower triangle (i >= j) is read. */
    BATCHEIG_FILL_MODE_UPPER = 1  /**< The upper triangle (i <= j) is read. */
} batcheigFillMode_t;

/**
 * @brief Maximum number of Jacobi sweeps per matrix; `0` restores the
 *        default 100. Negative values are invalid (::BATCHEIG_STATUS_INVALID_VALUE; params calls have no handle, so no position is recorded).
 */
BATCHEIG_API batcheigStatus_t batcheigParamsSetMaxSweeps(batcheigParams_t params, int maxSweeps);
/** @brief Read the sweep cap (0 means default). */
BATCHEIG_API batcheigStatus_t batcheigParamsGetMaxSweeps(batcheigParams_t params, int *maxSweeps);

/**
 * @brief Sort the eigenvalues ascending, the eigenvectors alike (`sort != 0`,
 *        the default), or leave them in the order the iteration produces
 *        (`sort == 0`).
 */
BATCHEIG_API batcheigStatus_t batcheigParamsSetSortEigenvalues(batcheigParams_t params, int sort);
/** @brief Read the sort flag (1 or 0). */
BATCHEIG_API batcheigStatus_t batcheigParamsGetSortEigenvalues(batcheigParams_t params, int *sort);

/**
 * @brief Per-matrix Jacobi diagnostics: arrays the syevj/heevj calls that use
 *        these params fill, `sweeps[b]` with the number of sweeps executed
 *        and `residual[b]` with the final off(A_k) / ||A||_F (0 for the zero
 *        matrix and n = 1, NaN for a matrix holding NaN/Inf).
 *
 * Each array has `batch` elements and lives in the same memory space as the
 * call's other arrays; either may be NULL (not wanted; the default). The
 * pointers are stored, not copied: a params object used by calls with
 * different batches must be given arrays long enough for each. Calls that
 * return early (argument error, `n == 0`, `batch == 0`) write nothing.
 * `info[b] == ::BATCHEIG_INFO_JACOBI_NOT_CONVERGED` exactly when
 * `residual[b]` exceeds the tolerance the variant used.
 */
BATCHEIG_API batcheigStatus_t batcheigParamsSetJacobiOutputs(batcheigParams_t params, int *sweeps, double *residual);
/** @brief Read the diagnostic arrays set with batcheigParamsSetJacobiOutputs(); either pointer argument may be NULL. */
BATCHEIG_API batcheigStatus_t batcheigParamsGetJacobiOutputs(batcheigParams_t params, int **sweeps, double **residual);

/** @brief Workspace size in bytes of batcheigSsyevjBatched(). Pointers may be NULL. */
BATCHEIG_API batcheigStatus_t batcheigSsyevjBatched_bufferSize(
    batcheigHandle_t handle, batcheigEigMode_t jobz, batcheigFillMode_t uplo, int n, const float *A,
    int lda, const float *W, size_t *lwork, batcheigParams_t params, int batch);
/** @brief Workspace size in bytes of batcheigDsyevjBatched(). Pointers may be NULL. */
BATCHEIG_API batcheigStatus_t batcheigDsyevjBatched_bufferSize(
    batcheigHandle_t handle, batcheigEigMode_t jobz, batcheigFillMode_t uplo, int n, const double *A,
    int lda, const double *W, size_t *lwork, batcheigParams_t params, int batch);
/** @brief Workspace size in bytes of batcheigCheevjBatched(). Pointers may be NULL. */
BATCHEIG_API batcheigStatus_t batcheigCheevjBatched_bufferSize(
    batcheigHandle_t handle, batcheigEigMode_t jobz, batcheigFillMode_t uplo, int n,
    const batcheigComplex *A, int lda, const float *W, size_t *lwork, batcheigParams_t params,
    int batch);
/** @brief Workspace size in bytes of batcheigZheevjBatched(). Pointers may be NULL. */
BATCHEIG_API batcheigStatus_t batcheigZheevjBatched_bufferSize(
    batcheigHandle_t handle, batcheigEigMode_t jobz, batcheigFillMode_t uplo, int n,
    const batcheigDoubleComplex *A, int lda, const double *W, size_t *lwork,
    batcheigParams_t params, int batch);

/** @brief Eigenvalues and optional eigenvectors of a batch of real symmetric single-precision matrices. */
BATCHEIG_API batcheigStatus_t batcheigSsyevjBatched(
    batcheigHandle_t handle, batcheigEigMode_t jobz, batcheigFillMode_t uplo, int n, float *A,
    int lda, float *W, void *work, size_t lwork, int *info, batcheigParams_t params, int batch);
/** @brief Eigenvalues and optional eigenvectors of a batch of real symmetric double-precision matrices. */
BATCHEIG_API batcheigStatus_t batcheigDsyevjBatched(
    batcheigHandle_t handle, batcheigEigMode_t jobz, batcheigFillMode_t uplo, int n, double *A,
    int lda, double *W, void *work, size_t lwork, int *info, batcheigParams_t params, int batch);
/** @brief Eigenvalues and optional eigenvectors of a batch of single-complex Hermitian matrices. */
BATCHEIG_API batcheigStatus_t batcheigCheevjBatched(
    batcheigHandle_t handle, batcheigEigMode_t jobz, batcheigFillMode_t uplo, int n,
    batcheigComplex *A, int lda, float *W, void *work, size_t lwork, int *info,
    batcheigParams_t params, int batch);
/** @brief Eigenvalues and optional eigenvectors of a batch of double-complex Hermitian matrices. */
BATCHEIG_API batcheigStatus_t batcheigZheevjBatched(
    batcheigHandle_t handle, batcheigEigMode_t jobz, batcheigFillMode_t uplo, int n,
    batcheigDoubleComplex *A, int lda, double *W, void *work, size_t lwork, int *info,
    batcheigParams_t params, int batch);

/** @} */

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* BATCHEIG_H */
