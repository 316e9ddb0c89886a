// The tuning table: every size threshold the dispatcher uses, each with a
// comment saying how it was chosen. (The host backend has a single geev
// variant; GPU thresholds are added with the CUDA kernels.)
#pragma once

namespace batcheig::plan::tuning {

// Host backend: matrices per OpenMP scheduling chunk. Small n costs a few
// microseconds per matrix, so dynamic chunks of 16 keep the scheduling
// overhead under 1% while load-balancing batches whose matrices converge in
// very different iteration counts.
inline constexpr int host_chunk = 16;

// ---- syevj / heevj (Jacobi), host backend ----------------------------------
// Widest column block of the one-sided block variant (the Gram blocks are
// 2nb x 2nb; core::jacobi_block_width() also caps nb at n/4). 16 keeps a
// complex-double Gram block and its eigenvectors (2 x 32 x 32 x 16 B = 32 KiB)
// in L1/L2 next to the n x 2nb GEMM panel; 8 and 32 were within a few per cent
// of it at n = 128..512 on the development machine (AMD EPYC, 2 cores,
// batcheig_bench syevj --precision d/z --vectors, 2026-11-21).
inline constexpr int host_jacobi_block_nb = 16;

// BATCHEIG_ALG_AUTO on the host picks the block variant for n >= this. The
// two-sided scalar variant was faster at every size measured (n = 4..512,
// d and z, with and without vectors; docs/performance.md): the block
// variant does ~1.5x the flops of a scalar sweep plus the Q^H (A Q) product
// of its convergence test, and a CPU core gains little from its
// column-block locality at these sizes. So AUTO always picks the scalar
// variant on the host; the block variant exists for the GPU issue to reuse
// and stays selectable through the params.
inline constexpr int host_jacobi_block_min_n = 1 << 30;

// ---- geev, CUDA backend ------------------------------------------------------
// Matrices per chunk of the one-matrix-per-thread variant: the chunk's
// interleaved copy of A (and of the vectors) is the variant's workspace.
// 131072 threads are ~4x what an H100/H200 keeps resident at this kernel's
// register count (the whole QR in one thread), so the GPU stays full while
// the workspace stays below ~1 GB up to n = 30 in double precision.
inline constexpr long long cuda_geev_thread_chunk = 131072;

// Host arrays on the CUDA backend: matrices per staging round trip. Large
// enough that each round trip fills the GPU (see cuda_geev_thread_chunk),
// small enough that the staging buffers stay near 1 GB at n = 30, double.
inline constexpr long long cuda_staging_chunk = 131072;

}  // namespace batcheig::plan::tuning
