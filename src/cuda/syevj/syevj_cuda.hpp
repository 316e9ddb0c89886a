// CUDA backend of syevjBatched / heevjBatched, callable from host-only
// translation units.
//
// Variants (the first three run core::jacobi::syevj_scalar, the two-sided
// method in its parallel-step form, with a CUDA team; syevj_kernels.cuh):
//   BATCHEIG_ALG_JACOBI_CUDA_WARP    p lanes of a warp per matrix; iterate,
//                                    vectors and scratch in shared memory.
//   BATCHEIG_ALG_JACOBI_CUDA_SHARED  one thread block per matrix, everything
//                                    in shared memory.
//   BATCHEIG_ALG_JACOBI_CUDA_GLOBAL  one thread block per matrix, iterate and
//                                    vectors in the workspace (every n).
//   BATCHEIG_ALG_JACOBI_CUDA_BLOCK   one-sided block Jacobi (core/jacobi_block.hpp),
//                                    one thread block per matrix, a warp per
//                                    pair of column blocks, U = A Q in A and
//                                    Q in the workspace (syevj_block.cuh).
//   BATCHEIG_ALG_JACOBI_CUDA_LANE    one-sided Jacobi with one-column blocks,
//                                    a column pair per lane, U = A Q and Q in
//                                    registers, n <= 128 (syevj_pair.cuh).
//   BATCHEIG_ALG_JACOBI_CUDA_CLUSTER one-sided block Jacobi, one thread-block
//                                    cluster per matrix, a block per pair of
//                                    column blocks, U = A Q and Q in shared
//                                    memory, sm_90+ (syevj_cluster.cuh).
//   BATCHEIG_ALG_JACOBI_CUDA_MIXED   double and complex double only: the
//                                    single-precision Jacobi (its AUTO variant)
//                                    for approximate vectors, then a double
//                                    finish by batched GEMMs and a per-matrix
//                                    update kernel (syevj_mixed.cuh); never
//                                    chosen by AUTO (about 6 n^2 elements of
//                                    workspace per matrix).
//   BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG  the same finish after a
//                                    single-precision tridiagonal stage
//                                    (reduction, bisection, inverse
//                                    iteration, back-transformation;
//                                    syevj_tridiag.cuh); never chosen by AUTO.
//   BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG the tridiagonal method in working
//                                    precision, one block per matrix in
//                                    shared memory, n <= 64
//                                    (syevj_tri_shared.cuh).
//   BATCHEIG_ALG_JACOBI_CUDA_GRID    one-sided block Jacobi, a thread block
//                                    per pair of column blocks and matrix,
//                                    one cooperative launch, a grid barrier
//                                    after each round-robin step, U = A Q in
//                                    A and Q in the workspace, n >= 32
//                                    (syevj_grid.cuh).
// Every matrix iterates until it has converged, independently of the others
// (a team that has converged leaves the kernel), all sweeps in one launch
// (GRID: its blocks leave together once no matrix iterates).
//
// Arrays in device (or managed) memory: the work is enqueued on the handle's
// stream and the call returns at once. Arrays in host memory: the batch is
// staged through device buffers owned by the handle, and the call returns
// when the results are back in host memory. The params' per-matrix output
// arrays (sweeps, residual) live in the same memory as A.
#pragma once

#include <cstddef>

#include "batcheig.h"
#include "common/context.hpp"
#include "common/problem.hpp"

namespace batcheig::cuda {

// Device workspace of a call on device arrays. inner: MIXED's
// single-precision variant (ignored by the others).
template <class T>
std::size_t syevj_workspace_bytes(batcheigAlgorithm_t variant, int n, bool want_v, int lda, int batch,
                                  batcheigAlgorithm_t inner = BATCHEIG_ALG_AUTO);

// True when one problem of order n fits in the shared memory of one block of
// the current device (WARP and SHARED variants).
template <class T>
bool syevj_fits_shared(int n, bool want_v);

// True when the block variant can run order n on the current device (its
// shared memory grows with n only through n-entry buffers).
template <class T>
bool syevj_block_fits(int n);

// True when the cluster variant can run order n on the current device
// (clusters supported, at most 16 pairs, the shared memory fits).
template <class T>
bool syevj_cluster_fits(int n);

// True when the mixed tridiagonal variant (double and complex double) can
// run order n on the current device: its single-precision stage's shared
// memory fits (syevj_tridiag_fits in syevj_tridiag.cuh).
template <class T>
bool syevj_mixed_tridiag_fits(int n);

// True when the tridiagonal variant (n <= 64, syevj_tri_shared.cuh) can run
// order n on the current device (its shared memory fits).
template <class T>
bool syevj_tri_shared_fits(int n);
// n > 64: the global-memory form (syevj_tri_global.cuh), n^2 elements of workspace per matrix.
template <class T>
bool syevj_tri_global_fits(int n);
// Whether BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG claims order n: one of its two forms fits.
template <class T>
bool syevj_tri_fits(int n) {
    return syevj_tri_shared_fits<T>(n) || syevj_tri_global_fits<T>(n);
}

// True when the grid variant claims order n (n >= 32, its state fits in w,
// the device has cooperative launch).
template <class T>
bool syevj_grid_fits(int n);

// Largest n of BATCHEIG_ALG_JACOBI_CUDA_LANE (a column pair per slot, N = 128
// columns in 64 slots).
inline constexpr int kSyevjLaneMaxN = 128;

// inner: MIXED's single-precision variant, a variant of the single-precision
// type chosen by the dispatcher (ignored by the other variants).
template <class T>
batcheigStatus_t syevj(Context &ctx, batcheigAlgorithm_t variant, const SyevjProblem<T> &p, void *work,
                       std::size_t lwork, batcheigAlgorithm_t inner = BATCHEIG_ALG_AUTO);

}  // namespace batcheig::cuda
