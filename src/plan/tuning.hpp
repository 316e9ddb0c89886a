// The tuning table: every size threshold the dispatcher uses, each with a
// comment saying how it was chosen.
#pragma once

#include <cstddef>

namespace batcheig::plan::tuning {

// Host backend: matrices per OpenMP scheduling chunk. Small n costs a few
// microseconds per matrix, so dynamic chunks of 16 keep the scheduling
// overhead under 1% while load-balancing batches whose matrices converge in
// very different iteration counts.
inline constexpr int host_chunk = 16;

// ---- syevj / heevj (Jacobi), host backend ----------------------------------
// Widest column block of the one-sided block variant (the Gram blocks are
// 2nb x 2nb; core::jacobi_block_width() also caps nb at n/4 so that small
// problems still split into several blocks). Measured 2026-11-21 on the
// development machine (AMD EPYC, 2 cores, single thread, best of 3, CPU
// time of core::syevj with vectors on a random matrix): n = 128, nb = 4 / 8 /
// 16 / 32: 86 / 85 / 70 / 69 ms (double), 188 / 187 / 162 / 158 ms (complex
// double); n = 64, nb = 4 / 8 / 16: 11.7 / 12.0 / 11.9 ms. 16 is within 3% of
// 32 and keeps the Gram block and its eigenvectors (2 x 32 x 32 x 16 B =
// 32 KiB in complex double) in L1/L2.
inline constexpr int host_jacobi_block_nb = 16;

// BATCHEIG_ALG_AUTO on the host picks the block variant for n >= this, for
// accuracy; below it the two-sided scalar variant, for speed.
// Speed: the scalar variant was faster at every size measured: same
// machine and method as above, scalar vs block at n = 32 / 64 / 128 (nb =
// 8 / 16 / 16, the widths the plan uses): 0.39 / 2.9 / 20 ms vs 1.7 / 11.9 /
// 70 ms (double), 0.96 / 7.3 / 43 ms vs 3.3 / 25 / 162 ms (complex double).
// The block variant solves every 2nb x 2nb Gram block to convergence (most
// of its time) and forms Q^H (A Q) for its convergence test; a CPU core
// gains little from its column-block locality. At n = 512 (session 45,
// one matrix, wall time beside other work): 10.2 / 17.4 s (double), 13.8 /
// 31.9 s (complex double).
// Accuracy: the scalar variant's eigenvalues are the diagonal of the
// rotated matrix, whose rounding grows like sqrt(2 n sweeps) u ||A||; the
// block variant's are Rayleigh quotients with the input. On the tests'
// clustered spectrum under orthogonal similarity (1 and n - 1 copies of
// sqrt(u), random signs), the largest eigenvalue error against the exact
// spectrum, in ||A||_1 u, over the unit, near-overflow and near-underflow
// scalings (session 45, double / complex double; LAPACKE ?syev/?heev
// 0.7-3.4 throughout):
//   scalar: n = 192: 24 / 27, 256: 32 / 41, 320: 40 / 51, 384: 51 / 63,
//           512: 66 / 81 (the tests' limit is 60)
//   block:  n = 512: 3.1 / 3.1
// So AUTO keeps the scalar variant through n = 256 (at most 41) and takes
// the block variant beyond.
inline constexpr int host_jacobi_block_min_n = 257;

// ---- geev, CUDA backend ------------------------------------------------------
// Variant choice of BATCHEIG_ALG_AUTO (plan/geev_plan.hpp). Measured
// 2026-11-21 on an NVIDIA H100 80GB HBM3 with
//   batcheig_bench geev --memory device --reps 2 --cusolver-subset 0 --algorithm A ...
// (double, uniform [-1, 1] entries, device arrays, median of 2; ms per
// 100 000 matrices for eigenvalues only, per 50 000 with right vectors):
//   eigenvalues, thread vs warp:  n = 8: 2.1 / 2.4, 10: 3.5 / 5.5, 12: 6.0 / 7.1,
//                                 14: 9.5 / 8.9, 16: 14.6 / 10.9, 30: 99 / 47
//   right vectors, thread / warp / block: n = 10: 7.3 / 15.8 / 24.3,
//                                 20: 58.4 / 57.4 / 72.5, 30: 190 / 89 / 170
//   eigenvalues, batch 10 000, warp / block / global / thread:
//                                 n = 40: 11.2 / 16.6 / 22.6 / 66,
//                                 64: 86 / 62 / 76 / 281, 100: 424 / 380 / 307 / 1064
// Single precision follows the same crossovers (n = 15: thread 6.5, warp 5.4).
// With vectors the thread variant stays ahead a little longer (to n ~ 18),
// but AUTO must not depend on the jobs: each variant rounds differently, and
// the eigenvalues may not change when vectors are requested (as LAPACK). So
// one set of thresholds serves both; the shared-memory test assumes both
// vector matrices.
// Re-measured 2026-11-21 on an NVIDIA H200 after the shared-memory thread
// form (n <= 8) and the lane table below (same tool, double, batch 200 000,
// eigenvalues, ms): thread vs warp, n = 8: 3.48 / 4.63, 9: 6.19 / 5.60,
// 10: 8.05 / 6.53, 11: 10.3 / 7.73, 13: 16.5 / 10.1; right vectors, batch
// 50 000: n = 10: 6.94 / 9.04, 15: 22.3 / 16.8. Eigenvalues (the main
// workload) decide: the thread variant up to n = 8.
// Re-checked 2026-11-22 on the H200 after the cheaper QR step (core/hqr.hpp:
// direct bulge reflector, one-division bulge-start test; same tool, batch
// 200 000, ms): thread vs warp, n = 8: 2.70 / 3.30, 9: 5.29 / 4.07,
// 10: 6.97 / 4.76 -- the crossover stays after n = 8.
// Re-measured 2026-11-22 on an H100 after the warp variant gained 2 and 4
// lanes per matrix and bank-spread team slices (cuda/geev/geev_team.cuh;
// same tool, batch 100 000, ms, thread variant / warp variant with the
// lanes of cuda_geev_warp_lanes):
//   double          n = 3: 0.132 / 0.129, 4: 0.231 / 0.215, 5: 0.374 / 0.318,
//                   8: 1.315 / 0.928
//   float           n = 2: 0.054 / 0.047, 3: 0.111 / 0.106, 4: 0.185 / 0.160
//   complex double  n = 5: 0.724 / 0.913, 6: 1.515 / 1.216, 7: 2.231 / 2.196
//   complex float   n = 4: 0.277 / 0.307, 6: 0.617 / 0.624, 8: 1.384 / 1.271
// So the thread variant keeps n <= 2 in the real types (float is 7 µs
// faster per 100 000 matrices with 2 lanes at n = 2; double n = 2 was not
// measured), n <= 5 in complex double and n <= 6 in complex float.
inline int cuda_geev_thread_max_n(bool is_complex, std::size_t real_bytes) {
    if (!is_complex) return 2;
    return real_bytes >= 8 ? 5 : 6;
}

// BATCHEIG_ALG_GEEV_CUDA_THREAD keeps each thread's matrix, vectors and
// scratch in shared memory (instead of an interleaved copy in global memory)
// up to this n, when 32 threads' problems with both vector matrices fit in
// cuda_geev_thread_shared_bytes (so the rule depends on precision and n
// only), in blocks of the most threads (128, 64 or 32) whose problems fit
// there. Measured 2026-11-21 on an NVIDIA H200 with
//   batcheig_bench geev --memory device --algorithm geev-cuda-thread --reps 3
//       --cusolver-subset 0 --n 5,8,10,13 [--vectors]
// (double, ms; eigenvalues only, batch 500 000 / right vectors, batch 100 000),
// global memory vs shared memory with a budget of 64 KB / 120 KB / 200 KB:
//   eigenvalues: n = 5: 3.93 vs 2.32 / 2.31 / 2.32;  8: 11.1 vs 8.37 / 9.29 / 9.31;
//                10: 18.9 vs - / 19.1 / 28.5;       13: 39.8 vs - / - / 47.5
//   vectors:     n = 5: 2.39 vs 2.03 / 2.06 / 2.06; 8: 7.26 vs 7.74 / 7.72 / 7.41;
//                10: 13.7 vs - / 15.6 / 21.7;       13: 28.8 vs - / - / 39.0
// ("-": does not fit that budget). Larger budgets mean fewer resident blocks;
// beyond n = 8 the few matrices an SM then holds cannot hide the latency of
// the serial QR of each thread, and global memory (with its L1/L2 caching
// and full occupancy) is as fast or faster.
inline constexpr int cuda_geev_thread_shared_max_n = 8;
inline constexpr long long cuda_geev_thread_shared_bytes = 64 * 1024;
// The warp variant, under AUTO, up to this n (where a matrix with both
// vector matrices fits in shared memory); then the block variant.
// Measured 2026-12-04 on an H200 (batcheig_bench geev --memory device
// --reps 3 --cusolver-subset 0 --algorithm geev-cuda-warp|geev-cuda-block,
// ms, warp / block; eigenvalues batch 20 000, right vectors batch 5 000;
// docs/results/geev-warp-block-h200-2026-12-04-s85.txt):
//   float:          eigenvalues n = 48: 6.00 / 6.38, 56: 8.83 / 9.23,
//                   64: 12.38 / 12.54; vectors 48: 3.77 / 4.98,
//                   56: 6.09 / 7.41, 64: 8.93 / 11.14
//   double:         eigenvalues n = 48: 11.81 / 11.51, 56: 17.83 / 17.56,
//                   64: 27.15 / 26.24; vectors 48: 8.54 / 11.88,
//                   56: 13.98 / 18.68, 64: 21.84 / 29.03
//   complex float:  eigenvalues n = 48: 27.9 / 26.7, 56: 44.4 / 41.5;
//                   vectors 48: 25.2 / 29.2, 56: 50.3 / 46.9
//   complex double: eigenvalues n = 48: 78.2 / 75.6; vectors 48: 90.3 / 84.9
// Float gains on both jobs, so it takes the warp variant to n = 64. Double
// would gain 25 % with vectors at n = 56-64 and lose 1.5-3.5 % on the
// eigenvalues (the main workload; as at n = 24 in cuda_geev_warp_lanes'
// table, such a trade is not taken) and keeps 48 (measured on an H100 on
// 2026-11-21); so do the complex types.
inline int cuda_geev_warp_max_n(bool is_complex, std::size_t real_bytes) {
    return !is_complex && real_bytes < 8 ? 64 : 48;
}
// The block variant, under AUTO, up to this n where a matrix with both
// vector matrices fits in one block's shared memory (geev_plan.hpp); the
// global variant beyond. The choice can only differ with vectors: without
// them the global variant runs the block variant's two launches where
// cuda_geev_global_band_max_n allows (cuda/geev/geev_team.cuh,
// global_uses_band), so the figures with vectors decide. Measured
// 2026-12-04 on an H200 (batcheig_bench geev --memory device --reps 3
// --cusolver-subset 0 --algorithm geev-cuda-block|geev-cuda-global
// --vectors, ms, block / global; docs/performance.md, session 85):
//   double, batch 5 000:        n = 64: 29.1 / 77.3, 80: 65.3 / 135,
//                               88: 146 / 201, 96: 167 / 283
//   float, batch 2 000:         n = 100: 26.9 / 76.6, 120: 68.7 / 131,
//                               136: 93.7 / 182
//   complex float, batch 2 000: n = 80: 70.5 / 93.7, 84: 80.5 / 96.8,
//                               88: 158 / 123, 92: 172 / 142, 96: 183 / 164
//   complex double, batch 2 000: n = 56: 66.9 / 52.6, 64: 169 / 75.9,
//                               68: 190 / 92.4
// So the real types take the block variant wherever it fits (double to
// n ~ 97, float to ~ 138), complex float to n = 84, complex double never
// (the warp variant to 48, then the global one). Until session 85 the
// bound was n = 80 for every type (measured 2026-11-21 on an H100, before
// the block variant's eigenvalues ran on the band).
inline int cuda_geev_block_max_n(bool is_complex, std::size_t real_bytes) {
    if (!is_complex) return 1 << 30;
    return real_bytes >= 8 ? cuda_geev_warp_max_n(true, real_bytes) : 84;
}
// The global variant's eigenvalues (no vectors) run as the block variant's
// do, the reduction with a block per matrix in shared memory and the QR
// iteration on the band, up to this n where the matrix and the band fit
// (cuda/geev/geev_team.cuh, global_uses_band); beyond, in place in global
// memory. The eigenvalues are bitwise the same either way (the same
// reduction with the same block, and a QR iteration whose results do not
// depend on the team). Measured 2026-12-04 on an H200 (batcheig_bench geev
// --memory device --reps 3 --cusolver-subset 0 --algorithm
// geev-cuda-block|geev-cuda-global, eigenvalues, ms, block (the two
// launches) / global in place; docs/performance.md, session 85):
//   double, batch 10 000:  n = 64: 16.2 / 65.6, 96: 72.0 / 239, 128: 234 / 660,
//                          160: 517 / 1 243; batch 5 000, n = 168: 527 / 848
//   float, batch 5 000:    n = 64: 3.94 / 25.7, 128: 40.2 / 188;
//                          batch 2 000, n = 200: 119 / 317, 238: 306 / 658
//   complex float:         batch 5 000, n = 64: 24.3 / 56.4, 128: 296 / 484;
//                          batch 2 000, n = 144: 223 / 331, 168: 580 / 510
//   complex double, batch 5 000: n = 64: 74.3 / 97.9, 80: 162 / 204,
//                          84: 239 / 225, 88: 261 / 273, 92: 285 / 284,
//                          96: 440 / 343, 112: 597 / 550, 118: 1 282 / 580
inline int cuda_geev_global_band_max_n(bool is_complex, std::size_t real_bytes) {
    if (!is_complex) return 1 << 30;
    return real_bytes >= 8 ? 80 : 144;
}
// Beyond the matrix's fit in one block's shared memory (or beyond
// cuda_geev_global_band_max_n), the global variant's eigenvalues (no
// vectors) run as its reduction in place in global memory with a block per
// matrix (the blocked reduction of cuda_geev_global_panel_budget), the band
// of H moved within the caller's A, then the QR iteration's stages on the
// band in shared memory (cuda/geev/geev_team.cuh, global_reduces_to_band),
// up to this n while the band's first stage fits; beyond, the QR in place
// too. The eigenvalues are bitwise those of the call with vectors.
// Measured 2026-12-05 on an H100 (docs/performance.md, session 92;
// batcheig_bench geev --memory device --reps 3 --cusolver-subset 0
// --lapacke-subset 1 --check 2, batch 1 000, complex 500; in place ->
// this form with the band's stage on blocks of
// cuda_geev_band_block_threads, ms): double n = 180 136.7 -> 110.8, 200
// 185.6 -> 139.6, 236 288.4 -> 197.5; float n = 250 227.8 -> 139.8, 300
// 390.6 -> 207.6, 336 533.0 -> 264.4. The complex types lost on the band
// (complex float n = 200 165.8 -> 183.1, 236 255.5 -> 256.5; complex
// double n = 130 96.6 -> 155.1, 166 171.2 -> 252.8): their QR step on
// the band is longer and the band larger, so they stay in place. On an
// H200 (session 94, the library with both changes against main f293be4):
// double n = 180-236 1.19-1.36x, float n = 250-336 1.49-1.82x
// (cuda_geev_band_block_min_m has the figures).
inline int cuda_geev_global_reduce_band_max_n(bool is_complex, std::size_t /*real_bytes*/) {
    return is_complex ? 0 : 1 << 30;
}
// The global variant with vectors runs the block variant's two launches up
// to this n where the call's own jobs fit in shared memory
// (cuda/geev/geev_team.cuh, global_uses_block_vectors): the bounds of
// cuda_geev_block_max_n, from the timings with both vector matrices. With
// right vectors alone the real types fit beyond AUTO's block bound (double
// to n ~ 118, float to ~ 168); there, measured 2026-12-04 on an H200
// (batcheig_bench geev --memory device --vectors --batch 2000, AUTO, the
// library before against after, alternated twice; docs/performance.md,
// session 86), ms: double n = 100 / 110 / 118 140.4 / 214.0 / 270.8 ->
// 76.5 / 92.7 / 104.5 (1.8-2.6x), float n = 140 / 150 / 168 199.7 / 259.4 /
// 351.2 -> 98.8 / 111.4 / 138.0 (2.0-2.5x).
inline int cuda_geev_global_block_vectors_max_n(bool is_complex, std::size_t real_bytes) {
    if (!is_complex) return 1 << 30;
    return real_bytes >= 8 ? 0 : 84;
}
// The block variant's eigenvalues run the QR iteration on the band, with
// the warp variant's band launch, at every n where it fits (n >= 7;
// cuda/geev/geev_team.cuh, block_uses_band): measured 2026-11-23 on an H100
// (batcheig_bench geev --memory device --algorithm geev-cuda-block, median
// ms, one launch / two launches with the band, bitwise the same results):
//   double, batch 20 000: n = 7: 0.770 / 0.372, 16: 2.23 / 1.48,
//     30: 6.94 / 5.24, 49: 28.7 / 18.6, 64: 62.3 / 41.8, 80: 139 / 90.7;
//   double, batch 5 000: n = 100: 95.8 / 56.0, 128: 286 / 152, 160: 457 / 333;
//   complex double, batch 10 000: n = 16: 5.05 / 3.07, 49: 108 / 58.2,
//     64: 266 / 147, 80: 603 / 326;
//   float, batch 20 000: n = 49: 13.9 / 10.1, 64: 25.0 / 18.4, 80: 55.7 / 37.4.

// Matrices per chunk of the one-matrix-per-thread variant: the chunk's
// interleaved copy of A (and of the vectors) is the variant's workspace.
// 131072 threads are ~4x what an H100/H200 keeps resident at this kernel's
// register count (the whole QR in one thread), so the GPU stays full while
// the workspace stays below ~1 GB up to n = 30 in double precision.
inline constexpr long long cuda_geev_thread_chunk = 131072;

// Lanes of a warp per matrix in BATCHEIG_ALG_GEEV_CUDA_WARP (kernels exist
// for 2, 4, 8, 16 and 32; a lane owns every P-th row and column). Fewer
// lanes than n serialize part of each row and column update, but put more
// matrices in a warp and more warps on an SM, and the QR step is bound by
// its serial reflector chain, not by the updates: so P grows with n much
// more slowly than n. Measured 2026-11-22 on an NVIDIA H100 with
//   batcheig_bench geev --memory device --algorithm geev-cuda-warp --reps 3
//       --cusolver-subset 0 --lapacke-subset 1 --batch 100000
// and the lane count forced (eigenvalues only, ms per 100 000 matrices;
// the best of each column in brackets; docs/performance.md has every row):
//   double  n:   5       8       9      10      12      13      16      19      20      28      29      30
//     P = 2: [0.318] [0.928] [1.18]   1.68    3.23    3.86    7.61    16.1    17.1    73.1     -      74.0
//     P = 4:  0.471   1.01    1.20   [1.44]  [2.49]   3.22    6.49    11.3    12.5    43.0     -      50.8
//     P = 8:  0.771   1.37    1.70    2.02    2.71   [3.21]  [4.96]  [8.15]   9.77    30.0    32.4    37.4
//     P = 16: 1.29    2.27    2.68    3.10    4.04    4.55    6.27    8.74   [9.52]  [22.6]  [24.0]   29.0
//     P = 32: 2.06    3.60    4.24    4.90    6.28    7.05    9.60    12.7    13.7    23.8    25.2   [27.6]
//   float   n:   8      10      11      12      16      17      18      24      25      30      36      40
//     P = 2: [0.530] [0.799] [0.965]  1.42    3.57     -      5.32    16.0     -      33.5     -       -
//     P = 4:  0.613   0.905   1.05   [1.28]  [2.84]  [3.09]   3.80    10.0     -      23.3     -       -
//     P = 8:  0.887   1.28     -      1.72    2.88    3.18   [3.44]  [7.53]   8.73    17.5     -       -
//     P = 16: 1.44    1.96     -      2.50    3.80    4.42    4.87    7.98   [8.71]  [13.8]  [22.5]   32.3
//     P = 32: 2.34    3.13     -      3.95    5.92     -      7.09    11.0     -      16.5    22.8   [27.6]
//   complex double  n:   8      10      11      13      18      22      24      28
//     P = 2: [3.26]  [6.96]   8.22    18.7     -       -      140      -
//     P = 4:  3.49    7.11   [7.95]  [17.1]    -       -      117      -
//     P = 8:  5.01    7.46     -      17.4   [49.0]  [72.2]  [101]    161
//     P = 16: 9.45    13.5     -      20.3    51.6    73.1    105     142
//     P = 32:  -       -       -      35.3    58.2    79.9     -     [139]
//   complex float   n:   8      10      12      14      16      20      24      28      32
//     P = 2: [1.27]  [2.49]   4.13    7.80    10.3    22.8    49.9    91.3    146
//     P = 4:  1.59    2.72   [4.12]  [7.39]  [8.80]   17.9    40.0    64.4    114
//     P = 8:  2.53    3.80    5.31    8.04    9.22   [16.5]  [34.6]   52.6    87.8
//     P = 16: 4.49    6.30    8.23    10.4    12.7    27.6    35.6   [46.6]   74.0
//     P = 32: 8.03    11.2    14.4    18.3    22.1    31.6    42.3    54.4   [72.7]
// Before team slices were spread over the banks (geev_team.cuh), slices
// of a multiple of 32 banks (double n = 7, 11, 15) made the small lane
// counts look worse than they are; the 2026-11-21/22 sweeps on the H200
// (8 lanes to n = 18, 16 to n = 28, 32 beyond) had only 8, 16 and 32.
// The lane count depends on the precision and n only: the team's
// reductions round by P, and every matrix must get the results of a
// single call.
// Since the two-launch forms (the eigenvalues' QR on the band takes its
// lanes from cuda_geev_band_lanes), this table sets the lanes of the
// eigenvalues' reduction launch and of the Schur launch with vectors, which
// must agree (the eigenvalues may not change when vectors are asked for);
// the eigenvector launch after it has its own, cuda_geev_vector_lanes
// (since 2026-11-27; the vector timings below are from before, both
// launches with these lanes).
// Swept again 2026-11-24 on an H100 (the lanes forced through a temporary
// switch, not committed; `batcheig_bench geev --memory device --reps 3
// --cusolver-subset 0 --lapacke-subset 1 [--vectors] --n 20,23,26,28,29,30`,
// right vectors batch 50 000, eigenvalues batch 100 000, ms, 16 / 32 lanes,
// the better of two rounds):
//   double, vectors:     n = 20: 9.19 / 11.25, 23: 13.48 / 14.08, 26: 21.61 / 17.10,
//                        28: 24.88 / 19.23, 29: 26.77 / 21.15, 30: 32.32 / 24.96
//   double, eigenvalues: n = 20: 6.24 / 6.81, 23: 8.11 / 8.71, 26: 11.76 / 12.04,
//                        28: 14.33 / 14.26, 29: 15.44 / 15.39, 30: 17.25 / 16.86
// so double takes 32 lanes from n = 28 (was 30): with vectors 21-23 %
// faster at n = 28-29, eigenvalues 0.3-0.4 %. At n = 26 32 lanes would
// make vectors 21 % faster but eigenvalues 2.3 % slower; it keeps 16.
// Again 2026-11-27 on an H100, after gehd2's two-sided form (32 lanes in
// real types) and with the eigenvector launch's own lanes
// (cuda_geev_vector_lanes), the reduction and Schur launches' lanes
// forced (same bench; eigenvalues batch 200 000, vectors 100 000, ms,
// 16 / 32 lanes, both rounds):
//   double, eigenvalues: n = 18: 8.33-8.35 / 9.28-9.31, 20: 10.71-10.75 /
//                        11.52-11.55, 22: 13.46-13.49 / 14.26-14.28, 24:
//                        17.06-17.09 / 17.48-17.49, 26: 21.23-21.24 /
//                        21.24, 27: 24.39-24.43 / 24.17
//   double, vectors:     n = 18: 15.29-15.30 / 17.03-17.04, 20: 15.97-16.02 /
//                        20.14-20.18, 22: 21.75-21.78 / 23.53-23.54, 24:
//                        29.51-29.54 / 26.56-26.60, 26: 36.29-36.36 /
//                        30.33-30.34, 27: 38.37-38.41 / 32.23
//   float, eigenvalues:  n = 25: 10.57-10.59 / 11.06-11.07, 28: 13.70-13.71 /
//                        14.01-14.03, 30: 16.60 / 16.40, 33: 22.29-22.32 /
//                        23.46-23.49, 36: 28.45 / 28.49-28.50
//   float, vectors:      n = 25: 15.88-15.90 / 18.72, 28: 19.64-19.65 /
//                        21.85-21.87, 30: 26.26-26.31 / 24.70-24.74, 33:
//                        34.57 / 33.51-33.54, 36: 46.67-46.70 / 40.25-40.26
// so double takes 32 lanes from n = 26 (was 28): with vectors 16 % faster
// at n = 26-27, eigenvalues the same at n = 26 and 1 % faster at n = 27.
// At n = 24 vectors would gain 10 % and eigenvalues lose 2.4 %; n = 24-25
// keep 16. Float keeps its table: 32 lanes lose 2-5 % on the eigenvalues at
// n = 25, 28 and 33.
// Complex double, same day and method (eigenvalues batch 100 000, vectors
// 50 000, ms, 8 / 16 / 32 lanes, both rounds):
//   eigenvalues: n = 14: 10.25-10.26 / 10.49-10.50 / 11.48-11.52, 16:
//                15.59 / 15.78-15.83 / 16.97-16.98, 18: 22.22-22.24 /
//                22.06-22.07 / 23.07-23.09, 20: 31.17-31.20 / 30.62-30.69 /
//                31.66-31.72, 22: 41.80-41.83 / 41.19-41.21 / 41.57-41.66,
//                24: 58.19-58.25 / 57.00-57.04 / 56.76-56.79
//   vectors:     n = 14: 12.67-12.69 / 13.95-13.99 / 24.37-24.43, 16:
//                20.80-20.85 / 21.13-21.15 / 30.05-30.09, 18: 32.76-32.79 /
//                33.93-33.96 / 36.94-36.95, 20: 44.01-44.06 / 41.38-41.40 /
//                43.80-43.82, 22: 115.1-115.2 / 99.38-99.49 / 85.06-85.08,
//                24: 137.98-138.06 / 120.16-120.29 / 102.54-102.66
// so complex double takes 16 lanes at n = 20-21 and 32 from n = 22 (was 8
// to n = 24): with vectors 6 % faster at n = 20 and 26 % at n = 22-24, the
// eigenvalues 1.7 % faster at n = 20, 0.5 % at 22 and 2.5 % at 24.
// Complex float, same day and method (4 / 8 / 16 / 32 lanes, - not run):
//   eigenvalues: n = 16: 5.79-5.81 / 5.68-5.70 / 5.83-5.84 / 6.77-6.78, 18:
//                8.03-8.04 / 7.89 / 7.91-7.94 / 8.67-8.70, 20: - / 10.88-10.90
//                / 11.05-11.08 / 11.80-11.82, 22: - / 15.22-15.25 /
//                15.13-15.17 / 15.99-16.02, 25: - / 22.18-22.19 / 20.92-20.93
//                / 21.70-21.72, 28: - / 30.67 / 28.38-28.39 / 28.89-28.90,
//                30: - / 39.45-39.47 / 35.62-35.66 / 35.69-35.71
//   vectors:     n = 16: 8.06-8.07 / 7.16-7.20 / 9.19 / 16.60-16.65, 18:
//                12.72-12.74 / 11.84-11.85 / 12.74-12.80 / 20.37-20.38, 20: - /
//                14.71-14.76 / 14.80-14.83 / 23.71-23.76, 22: - / 34.85-34.87 /
//                29.67-29.71 / 27.80-27.87, 25: - / 36.26-36.29 / 32.98-33.07 /
//                33.62-33.65, 28: - / 51.13-51.14 / 42.80-42.82 / 40.61-40.65,
//                30: - / 75.73-75.78 / 61.02-61.04 / 60.47-60.53
// so complex float takes 8 lanes from n = 16 (was 18) and 16 from n = 22
// (was 26): at n = 16 eigenvalues 1.9 % and vectors 11 % faster, at
// n = 22-25 eigenvalues 0.5-5.7 % and vectors 9-15 %. 32 lanes would make
// vectors 5-6 % faster at n = 22 and 28 but cost the eigenvalues 2-6 %.
namespace detail {
// Lanes from a table of the largest n for 2, 4, 8 and 16 lanes (32 beyond).
inline int lanes_from_limits(int n, const int (&lim)[4]) {
    int p = 2;
    for (int k = 0; k < 4; ++k, p *= 2)
        if (n <= lim[k]) return p;
    return 32;
}
}  // namespace detail

inline int cuda_geev_warp_lanes(int n, bool is_complex, std::size_t real_bytes) {
    static constexpr int real_d[4] = {9, 12, 19, 25}, real_s[4] = {11, 17, 24, 36};
    static constexpr int cplx_d[4] = {10, 13, 19, 21}, cplx_s[4] = {11, 15, 21, 30};
    const bool d = real_bytes >= 8;
    return detail::lanes_from_limits(n, is_complex ? (d ? cplx_d : cplx_s) : (d ? real_d : real_s));
}

// Lanes per matrix of the warp variant's eigenvector launch (with vectors,
// the second of its two launches: core::geev_vectors and core::geev_finish
// on T and the Schur vectors that the Schur launch left in global memory).
// Its lane count does not change the eigenvalues, which the Schur launch
// computes with cuda_geev_warp_lanes; the eigenvector solves and the
// back-transformation have more parallel work per matrix than the QR
// iteration, so they take more lanes from smaller n on. Measured on one
// H100, the Schur launch's lanes as before and the eigenvector launch's
// forced through a temporary switch (not committed): `batcheig_bench geev
// --memory device --vectors --reps 3 --cusolver-subset 0 --lapacke-subset 1
// --check 10 --precision d|s|z|c --n ...`, batch 100 000 (complex 50 000),
// ms of the whole call, two rounds alike to 0.5 %, 4 / 8 / 16 / 32 lanes
// (- not run) [the choice] (the previous lanes, those of
// cuda_geev_warp_lanes, where they differ):
//   double    n = 13: 6.19 / [5.62] / 5.94 / 7.23   14: 8.07 / [6.82] / 6.90 / 8.37
//             16: 10.61 / (9.18) / [8.86] / 10.63   18: - / (15.81) / [15.13] / 15.49
//             20: - / 17.23 / (16.06) / [15.93]     22: - / 24.17 / (22.35) / [21.66]
//             24: - / 33.35 / (30.68) / [29.24]     26: - / 45.08 / (38.68) / [35.95]
//             27: - / 48.06 / (40.92) / [37.99]
//   float     16: (5.97) / [5.47] / 5.76 / 6.85     18: 8.48 / [7.48] / 7.75 / 8.32
//             20: 10.07 / [8.82] / 8.84 / 9.22      22: - / (13.34) / [13.12] / 13.54
//             24: - / (17.30) / [16.45] / 16.63     26: - / 21.73 / (19.01) / [18.86]
//             28: - / 23.01 / (19.84) / [19.58]     30: - / 31.45 / (27.31) / [26.09]
//             32: - / 35.40 / (30.11) / [28.45]     34: - / 51.11 / (44.20) / [41.07]
//             36: - / 57.19 / (50.07) / [46.56]
//   c. double 11: (9.82) / 9.70 / [9.66] / 9.80     12: (10.19) / 10.03 / [9.90] / 10.07
//             14: 13.40 / (12.83) / [12.62] / 12.79 16: 22.07 / (21.15) / [20.81] / 20.93
//             18: - / (33.66) / 33.11 / [32.56]     20: - / (45.68) / 44.88 / [44.01]
//             22: - / (117.1) / 116.0 / [115.0]     24: - / (140.6) / 139.2 / [137.9]
//   c. float  12: (3.56) / 3.47 / [3.41] / 3.61     14: (5.21) / 4.97 / [4.89] / 5.11
//             16: (8.69) / 8.22 / [8.03] / 8.25     18: 12.63 / (12.13) / 11.98 / [11.88]
//             20: - / (15.29) / 14.98 / [14.74]     22: - / (35.61) / 35.17 / [34.85]
//             25: - / (38.44) / 36.97 / [36.38]     28: - / 45.68 / (43.67) / [42.82]
//             30: - / 64.83 / (62.18) / [61.01]
// The smaller sizes, measured the same way on another H100 lease (batch
// 200 000, complex 100 000, both rounds, 2 / 4 / 8 / 16 lanes):
//   double    n = 3: [0.549-0.557] / 0.595 / 0.712-0.714 / 0.906-0.913
//             5: [1.259-1.265] / 1.399-1.406 / 1.566-1.584 / 2.021-2.031
//             7: (2.513-2.520) / [2.402-2.406] / 2.659-2.672 / 3.632-3.638
//             9: (5.517-5.529) / [5.172-5.189] / 5.792-5.805 / 6.224-6.246
//             10: 7.515-7.525 / [6.956-6.963] / 7.511-7.513 / 7.920-7.932
//             11: 9.158-9.162 / [7.689] / 8.040-8.055 / 8.557-8.652
//             12: 13.17-13.20 / [11.19-11.37] / 11.21-11.27 / 11.75-11.76
//   float     n = 3: [0.405-0.426] / 0.431-0.433 / 0.515-0.518 / 0.666-0.667
//             5: [0.893-0.905] / 0.988-0.999 / 1.090-1.093 / 1.375
//             8: [1.977-1.990] / 1.973-1.993 / 2.121-2.140 / 2.784-2.786
//             11: (4.690-4.704) / [4.407-4.422] / 4.967-4.980 / 5.319-5.335
//             13: 7.647-7.658 / [6.730-6.752] / 6.740-6.754 / 7.207-7.220
//             15: 12.16 / (10.10-10.11) / [9.548-9.617] / 10.20-10.23
//   c. double n = 6: (2.636-2.663) / 2.588-2.611 / [2.581-2.593] / 2.700-2.715
//             8: (7.620-7.629) / 7.471-7.502 / [7.309-7.349] / 7.425-7.447
//             10: (14.81-14.82) / 14.35-14.38 / 14.16-14.19 / [14.03-14.04]
//   c. float  n = 7: (1.281-1.288) / [1.204-1.206] / 1.211-1.216 / 1.311-1.320
//             9: (3.013-3.019) / [2.850-2.859] / 2.853-2.865 / 2.848-2.850
//             11: (8.218-8.249) / 7.947-7.958 / [7.874-7.897] / 7.885-7.932
// so with vectors 4-6 % faster at double n = 7-9, float n = 11 and 15,
// complex n = 7-11 (2 % at complex double n = 6). Where two counts tie
// within the rounds, the smaller is kept (double n = 12, float n = 8 and
// 13). Sizes between those measured take the lanes of a neighbour.
inline int cuda_geev_vector_lanes(int n, bool is_complex, std::size_t real_bytes) {
    static constexpr int real_d[4] = {6, 12, 14, 19}, real_s[4] = {8, 14, 21, 25};
    static constexpr int cplx_d[4] = {5, 5, 9, 16}, cplx_s[4] = {6, 9, 11, 17};
    const bool d = real_bytes >= 8;
    return detail::lanes_from_limits(n, is_complex ? (d ? cplx_d : cplx_s) : (d ? real_d : real_s));
}

// The warp variant's eigenvalues in two launches, the QR iteration on the
// packed band in the second (cuda/geev/geev_team.cuh): from n =
// cuda_geev_band_min_n on. The first launch (balancing and Hessenberg
// reduction on the whole matrix) keeps the lanes of cuda_geev_warp_lanes,
// so the eigenvalues are bitwise those of the one-launch form; fewer lanes
// there (4, 8, 16 with the reduction's whole matrix in shared memory) were
// slower at every n (double n = 30: 22.1 ms with 32 lanes, 22.8 with 16,
// 25.8 with 8). The QR launch's lanes are cuda_geev_band_lanes.
// Measured on one H100 with the bench (batcheig_bench geev --memory device
// --reps 3 --cusolver-subset 0 --lapacke-subset 1 --n 8,10,12,15,16,20,25,
// 28,30,36,40,48 --batch 100000 (50000 complex) --precision s|d|c|z), the
// library before the band form against the band with 2..32 QR lanes forced
// (docs/results/geev-band-lanes-sweep-h100-2026-11-22-s15.csv), ms [the
// choice]:
//   double          n:   10      12      15      20      25      30      36      40      48
//     one launch:       [1.36]   2.34    4.11    9.16    15.1    26.5    40.9    57.1    107
//     band, P = 4:       1.44   [2.17]  [3.76]   8.92    18.3    31.0    51.3    77.8    154
//     band, P = 8:       1.80    2.57    3.95   [7.88]   14.5    23.9    41.8    63.1    121
//     band, P = 16:      2.53    3.53    5.22    9.16   [14.3]  [22.1]  [36.4]   52.4    96.3
//     band, P = 32:      3.52    4.88    7.24    12.4    18.7    26.3    39.0   [50.1]  [83.1]
//   float           n:   12      15      20      25      30      36      40      48
//     one launch:       [1.22]   2.25    4.35    8.48    13.2    21.4    26.9    45.8
//     band, P = 4:       1.32   [2.17]  [4.15]   8.15    13.9    24.7    36.0    69.9
//     band, P = 8:       1.63    2.59    4.43   [7.51]  [11.8]  [20.0]   27.5    50.2
//     band, P = 16:      2.21    3.38    5.63    9.13    13.0    20.0   [25.2]  [42.2]
//   complex double  n:    8      10      12      15      20      25      30      36      48
//     one launch:        1.77    3.48    5.64    11.5    22.8    58.3    102     164     469
//     band, P = 2:      [1.52]  [2.84]   4.72    8.38    22.9    52.7    88.8    160     496
//     band, P = 4:       1.63    2.88   [4.56]  [7.65]   19.5    42.4    77.1    129     388
//     band, P = 8:       2.25    3.40    5.00    7.94   [17.8]   36.5    65.0    113     335
//     band, P = 16:      3.62    5.30    7.20    10.4    19.5   [35.5]  [59.4]   106     309
//     band, P = 32:      5.79    8.47    11.5    16.7    28.4    42.8    64.1   [104]   [277]
//   complex float   n:    8      10      12      15      20      25      30      36      48
//     one launch:        0.82   [1.20]   2.19    4.18    8.27    19.8    34.4    56.7    162
//     band, P = 2:       0.73    1.29   [1.82]   3.59    8.13    18.4    32.7    55.8    172
//     band, P = 4:       0.90    1.33    1.84   [3.28]  [6.88]   15.2    25.7    44.8    134
//     band, P = 8:       1.18    1.68    2.36    3.65    6.97   [13.9]  [22.2]   39.7    115
//     band, P = 16:      1.81    2.60    3.54    5.29    9.05    15.4    22.6   [37.5]   99.7
//     band, P = 32:      2.80    4.04    5.49    8.16    13.7    21.6    29.3    42.6   [92.6]
// (n = 16 and 28 were measured too and agree.) The band form also needs
// n >= 7 (the band kept in A, cuda/geev/geev_team.cuh). Session 17, with
// the QR launch's smaller blocks (cuda::occupancy_best_teams, `uneven`),
// double moved from 16 to 8 lanes up to n = 26 (same H100 lease, lane
// count forced, two rounds, ms, 8 / 16 lanes): n = 22 9.65 / 10.8, 23
// 10.5 / 11.7, 24 12.2 / 13.0, 25 13.7 / 14.1, 26 15.3 / 15.4, 27 17.5 /
// 17.1, 28 19.2 / 18.5, 30 23.0 / 21.6; float kept its table (n = 23-36
// within 0.5 % of the best). Session 18, after the QR iteration's loops
// became one (core/hqr.hpp; the teams of a warp no longer wait for each
// other's deflations, so more teams per warp cost less): swept again with
// 4, 8, 16 and 32 lanes, double n = 12-38, float n = 15-36; the table's
// choice is still the fastest or within 1 % of it (docs/performance.md).
// Session 39, after the band slices of cuda_geev_band_slice_bytes: double
// takes 8 lanes to n = 29 (was 26). Same H100 lease, 8 / 16 lanes forced
// through a temporary switch, `batcheig_bench geev --memory device --batch
// 200000 --reps 3 --cusolver-subset 0 --lapacke-subset 1`, two rounds, ms:
// n = 26 21.80 / 21.76-21.80, 27 24.87-25.00 / 25.87-25.91, 28 26.82-26.84 /
// 27.87-27.90, 29 29.87 / 30.12-30.16, 30 33.03-33.07 / 33.05-33.13, 32
// 41.90-41.95 / 38.29-38.43 (results bitwise the same: the bitcheck at
// n = 27-30 printed the same hashes with either).
// Session 68, with the QR iteration in stages (cuda_geev_band_stage: at
// n = 30 the first stage runs with these lanes for 30 columns, the later
// ones with those for 22 and 14): 8 lanes to n = 36 against 16, one H200,
// batch 200 000, ms: n = 30 26.55 / 26.92, 32 30.99 / 33.34, 36 47.79 /
// 51.91. The table stays. Session 79, with the stages' teams taking their
// matrices from a counter (cuda_geev_band_counter_min_lanes), again on an
// H200, batch 200 000, ms, this table / 8 lanes to 30 columns / 8 lanes to
// 32: n = 30 26.23 / 26.63 / 26.65, 32 30.70 / 30.77 / 33.07, 36 47.41 /
// 47.36 / 49.78 (docs/results/geev-band-lanes-counter-h200-2026-12-03-s79.txt).
// The table stays.
// Warp teams of at least this many lanes run gehd2's two-sided form in
// real types (core/hessenberg.hpp, core::two_sided_gehd2): each reflector
// applied from both sides in two passes over the matrix instead of four.
// The eigenvalue launches and the Schur launch (with vectors) take the
// same form at the same lane count, so the eigenvalues stay bitwise the
// same whatever the job. Measured 2026-11-27 on an H100 (batcheig_bench
// geev --memory device --batch 200000 --reps 3 --cusolver-subset 0
// --lapacke-subset 1, vectors batch 100 000; two rounds, ms, LAPACK's
// order against the two-sided form from 16 lanes on, with the reduction
// launch held to 3 blocks of 256 threads per SM):
//   double, 32 lanes:      n = 28: 26.83 / 26.23, 30: 33.09 / 32.37
//   double, 16 lanes:      n = 20: 11.02 / 10.98, 25: 19.75 / 19.61
//   float, 16 lanes:       n = 25: 10.98 / 10.71, 30: 17.08 / 16.42
//   double vectors:        n = 20 (16 lanes): 16.06 / 18.05,
//                          n = 30 (32 lanes): 44.25 / 43.43
//   complex double:        n = 30 (32 lanes): 106.4 / 107.6 (spills)
// Without the launch bound the reduction launch took 92 registers instead
// of 80 and lost a block per SM (double n = 30: 32.84 ms). So: 32 lanes.
inline constexpr int cuda_geev_two_sided_min_lanes = 32;

// The longest reflector for which gehd2's one-sided form, in the warp
// variant's reduction-only launches (cuda::ReduceWarpTeam), holds each
// row or column it updates in registers (core::team_gehd2_register_len):
// an array of compile-time length, one load and one store per entry,
// against two loads, a store and the addressing of every entry in the
// general loops; the results are bitwise the same. 0: the general loops.
// The eigenvalues' reduction launch is held to 3 blocks of 256 threads
// per SM (80 registers), and these are the longest arrays that it holds
// without spills (ptxas, double: to 12 spilled 8 bytes with 8 and with 16
// lanes, to 16 100 bytes with 16, to 18 124 with 8; float: to 23 36 bytes
// with 8). Measured 2026-12-01 on an H200, together with gebal's
// check before its scaling loop (core::team_balance_check), against
// main's library in one device command, two rounds within 0.7 %
// (batcheig_bench geev --memory device --reps 5 --cusolver-subset 0
// --lapacke-subset 1 --check 5, batch 100 000, vectors 50 000), ms:
//   double n = 12 1.529 -> 1.429, 15 2.550 -> 2.393, 20 5.418 -> 5.042,
//   25 9.544 -> 9.070, 30 15.64 -> 14.99 (32 lanes: the check alone);
//   float n = 12 0.925 -> 0.900, 15 1.554 -> 1.431, 17 2.033 -> 1.853,
//   20 2.794 -> 2.536, 25 5.437 -> 5.073, 30 8.507 -> 8.146;
//   double vectors n = 12-30 2.7-3.8 % faster; n = 5 and 10 unchanged;
//   the bitcheck (--n 5:64 --batch 100, with and without --vectors) the
//   same hashes. The arrays alone, 8 lanes to 12 (double) and 23 (float),
//   before the check: double n = 13 -5.2 %, 15 -4.4 %, 17 -3.0 %, 19
//   -2.6 %, float n = 18-24 -3.6 to -5.8 %. With the reflector in registers
//   as well and no launch bound (8 lanes to 18; 128 registers, 2 blocks
//   per SM): n = 15 -2.7 %, 19 -10.4 %. In the launches that also run the
//   QR iteration the arrays were slower (double n = 10 with 4 lanes +6.7 %,
//   n = 20 with vectors and 16 lanes +41 %) and changed the last bits of
//   the eigenvalues there, so those keep the general loops.
inline constexpr int cuda_geev_gehd2_register_len(int lanes, bool is_complex, std::size_t real_bytes) {
    if (is_complex || lanes >= cuda_geev_two_sided_min_lanes) return 0;
    const bool d = real_bytes >= 8;
    if (lanes == 4) return d ? 11 : 16;
    if (lanes == 8 || lanes == 16) return d ? 11 : 20;
    return 0;
}

inline int cuda_geev_band_min_n(bool is_complex, std::size_t real_bytes) {
    if (is_complex) return real_bytes >= 8 ? 7 : 12;
    return real_bytes >= 8 ? 12 : 15;
}
inline int cuda_geev_band_lanes(int n, bool is_complex, std::size_t real_bytes) {
    static constexpr int real_d[4] = {11, 17, 29, 38}, real_s[4] = {14, 22, 36, 52};
    static constexpr int cplx_d[4] = {10, 17, 22, 32}, cplx_s[4] = {13, 22, 32, 44};
    const bool d = real_bytes >= 8;
    return detail::lanes_from_limits(n, is_complex ? (d ? cplx_d : cplx_s) : (d ? real_d : real_s));
}

// Bytes of each team's slice of shared memory in the QR launch on the band
// (cuda/geev/geev_team.cuh, band_shared_bytes), for a band of `used` bytes
// and P lanes per team: the smallest size >= used that is 8P modulo 16P,
// so that the 32 / P teams of a warp start 8P bytes apart modulo 16P (for
// P = 8: four teams 64 bytes apart within two 128-byte rows of banks).
// One team per warp (P = 32) takes the band as it is. The teams of a warp
// run the same code on their own bands at the same offsets, so where their
// slices start decides how their shared-memory accesses meet in the banks.
// Measured 2026-11-27 on an H100 with `batcheig_bench geev --memory device
// --batch 200000 --reps 3` (double, eigenvalues only), the slice forced to
// used + k elements (used: core::HessBandView::used_elements), k = 0..15,
// against the former rule (the band's elements(n), rounded up to an odd
// count), ms:
//   n (lanes):      12 (4) 13 (4) 15 (4) 17 (4) 20 (8) 22 (8) 24 (8) 25 (8) 26 (8) 28 (16) 30 (16)
//   odd rule:       3.68   4.53   5.69   7.99   11.57  14.91  18.89  20.93  22.81  27.71   32.97
//   this rule:      3.08   3.78   5.30   7.61   11.02  13.84  17.51  19.80  21.78  27.87   33.10
//   k = 0..15 range 3.08-  3.78-  5.30-  7.58-  11.02- 13.84- 17.51- 19.80- 21.78- 27.73-  32.97-
//                   4.98   6.09   8.70   12.20  13.30  16.47  20.41  22.65  25.11  27.87   33.10
// (this rule's k is the fastest at every n up to 26, within 0.4 % at
// n = 17; its worst choices, 0 modulo 16P bytes, were up to 27 % slower).
// The period in k was 64 bytes at 4 lanes and 128 at 8; at 16 lanes the
// slice made no difference. The same rule against the odd rule in the
// other precisions (same tool, one lease, ms) was slower, so they keep the
// odd rule (cuda_geev_band_slice_spread):
//   float (200 000):          n = 15 3.10 / 3.27, 20 5.72 / 6.02, 22 8.17 / 7.92,
//                             26 11.6 / 12.2, 32 20.0 / 20.7, 36 29.2 / 30.2
//   complex double (100 000): n = 15 13.0 / 12.7, 18 22.2 / 23.6, 25 65.2 / 65.1,
//                             32 127 / 136
//   complex float (100 000):  n = 20 10.9 / 10.8, 25 22.2 / 22.0, 32 43.5 / 45.6
inline std::size_t cuda_geev_band_slice_bytes(std::size_t used, int lanes) {
    if (lanes >= 32) return used;
    const std::size_t period = 16 * std::size_t(lanes), want = 8 * std::size_t(lanes);
    const std::size_t r = used % period;
    return used + (r <= want ? want - r : period + want - r);
}

// Whether the band's slices follow cuda_geev_band_slice_bytes (double) or
// the odd element count of the other team kernels (team_slice_bytes).
constexpr bool cuda_geev_band_slice_spread(bool is_complex, std::size_t real_bytes) {
    return !is_complex && real_bytes == 8;
}

// Team kernels whose work differs from matrix to matrix (`uneven`, see
// cuda::occupancy_best_teams): the smallest block of at least one warp
// that keeps this percentage of the most resident teams. A block holds its
// shared memory until its slowest team is done, and the fewer teams share
// a block, the less of it waits. geev, double, eigenvalues only, the QR
// launch on the band, 100 000 matrices, H100, ms (teams per block forced):
// n = 15 with 4 lanes, 64 / 8 teams 3.80 / 3.66; n = 20 with 8 lanes,
// 32 / 4 teams 7.85 / 7.53; n = 30 with 16 lanes, 16 / 2 teams 22.1 / 21.6;
// in one warp of fewer than 32 lanes, the empty lanes cost issue slots
// (n = 15, 4 teams: 4.49). The rule at 95 %, same H100 lease, libraries
// alternated twice, median ms before / after: double n = 12, 15, 20, 25, 30
// 2.13 / 2.08, 3.78 / 3.68, 7.86 / 7.54, 14.2 / 14.1, 22.1 / 21.6; float
// n = 20, 30 4.15 / 4.03, 11.8 / 11.5; complex double (batch 50 000)
// n = 20, 30 17.8 / 17.6, 59.5 / 58.5. The one-launch eigenvalue kernel
// (double n = 8, 10: 0.858 / 0.868, 1.37 / 1.39) and the Schur launch with
// vectors (double n = 10, 20, 30: 5.54 / 5.73, 30.5 / 31.3, 72.9 / 78.4)
// were slower with it, so only the QR launch on the band is uneven.
// Since the QR stages' teams take their matrices from a counter
// (cuda_geev_band_counter_min_lanes), a block holds its slot to the
// launch's end, and the slowest team's wait is only the launch's tail: the
// stages with a counter take the most resident teams, the others stay
// uneven. At double n = 30 the first stage (16 lanes) then keeps 48 bands
// per SM (12 blocks of four teams) against 46 (23 blocks of two).
// Measured on an H100 (docs/performance.md, session 101; the rule through a
// temporary switch in one library, two rounds, eigenvalues, ms, most
// resident / uneven): double (batch 200 000) n = 20 9.20-9.23 / 9.27-9.29,
// 25 16.74-16.75 / 16.76-16.77, 30 26.00-26.02 / 26.24-26.26, (100 000) 40
// 32.67-32.70 / 32.80-32.81; float (200 000) n = 30 15.45-15.47 /
// 15.48-15.49, 40 33.47-33.49 / 33.73-33.75; complex double (100 000) n = 20
// / 30 and complex float n = 25 / 30 within 0.1 %. The same results
// bitwise (the staged bitcheck).
inline constexpr int cuda_team_uneven_resident_pct = 95;

// Matrices per piece of the warp and block variants with vectors, which run
// in two launches (Schur form, then eigenvectors; cuda/geev/geev_team.cuh) and keep
// each matrix's state and balancing factors in the workspace between them:
// at most 131072 x (n + 6) reals, 50 MB at n = 48 in double precision.
// A piece is ~15x what an H100/H200 keeps resident at n = 30 (15 teams per
// SM), so the launches' tails stay short. Pieces of 1048576 (8x the
// workspace) were 0.7 % faster at double n = 30 with right vectors and even
// at n = 20 (batch 500 000, H100, two rounds: 216.6 -> 215.0 ms, 80.2-80.3
// -> 80.3-80.4 ms).
inline constexpr long long cuda_geev_split_chunk = 131072;

// Whether the warp variant with vectors runs its Schur phase in two launches
// with the QR iteration on the band (cuda/geev/geev_team.cuh,
// schur_uses_band: the reduction with the Schur vectors' start, then the QR
// with only the band and the Schur vectors in shared memory) instead of one
// launch that keeps the whole matrix and the Schur vectors there. Bitwise
// the same results; the band lets more matrices stay resident (double n =
// 30: 17.8 warps per SM in the QR launch against 13.6 in the one Schur
// launch; Nsight Compute, H200), the extra launch and its copies cost the
// rest. Measured 2026-11-30 on an H200 with
//   batcheig_bench geev --memory device --vectors --precision P --n ...
//       --batch 100000 (50 000 for c, z) --reps 5 --cusolver-subset 0
// the two forms through a temporary switch, one process each, ms (one
// launch / band):
//   double  n = 7: 1.156 / 1.269, 8: 1.773 / 1.710, 10: 3.491 / 3.016,
//     15: 8.580 / 7.597, 18: 15.37 / 13.46, 19: 16.81 / 16.02,
//     20: 16.26 / 17.47 (16.29 / 17.46 again), 21: 20.40 / 19.21,
//     24: 29.85 / 25.53, 25: 30.11 / 28.61, 26: 30.59 / 30.73,
//     27: 32.47 / 32.84, 28: 34.27 / 35.08, 29: 36.75 / 38.08,
//     30: 43.77 / 41.71 (43.79 / 41.70 again), 31: 51.13 / 44.81,
//     32: 49.20 / 48.25, 33: 64.18 / 64.64, 34: 77.66 / 75.04,
//     36: 88.77 / 88.33, 38: 116.9 / 106.7, 40: 127.8 / 126.1,
//     44: 190.9 / 171.8, 48: 257.1 / 241.3; every n of 7..48 in
//     docs/results/geev-schur-band-sweep-h200-2026-11-30-s60.txt
//   float   n = 8: 0.956 / 1.046, 12: 2.354 / 2.379, 16: 5.369 / 4.989,
//     20: 8.691 / 8.800, 24: 16.20 / 13.97, 28: 19.23 / 19.50,
//     32: 28.05 / 27.00, 36: 45.91 / 44.56, 40: 51.79 / 54.30,
//     44: 73.61 / 71.18, 48: 92.28 / 92.73
//   complex double  n = 8: 3.456 / 2.545, 16: 20.86 / 18.52,
//     24: 102.4 / 65.19, 32: 198.7 / 157.4, 40: 474.5 / 398.6,
//     44: 740.0 / 584.8, 48: 884.6 / 898.7
//   complex float   n = 8: 1.180 / 1.072, 16: 7.166 / 6.663,
//     24: 35.43 / 23.12, 32: 62.44 / 51.20, 40: 144.6 / 125.0,
//     48: 257.2 / 233.2
// (The lane counts of the one-launch form change with n, see
// cuda_geev_warp_lanes, hence the ragged double rows.) Double takes the
// band where it measured faster; float where it did at the measured n and
// their neighbours; complex float at every n measured (8-48), complex
// double up to 44 (slower at 48). The complex types take it since session
// 61: before, their eigenvalues with the band differed in the last bits
// from those of the eigenvalue launches (batcheig_geev_bitcheck --vectors,
// every n from 8 on), which the library forbids. core::complex's product
// a.re b.re - a.im b.im could be contracted into an FMA around either
// product, and the compiler's choice depended on the surrounding code; on
// the GPU it is now written with explicit FMAs (core/types.hpp), and the
// eigenvalues agree bitwise again (docs/performance.md, session 61). With
// it, 2026-11-30 on an H200, the same command with --batch 50000 --n
// 8,16,24,30,40, the library of session 60 (one launch) against this one
// (band), one process each, two rounds (equal to 0.3 %), ms:
//   complex double  8: 3.447 / 2.558, 16: 20.86 / 18.74, 24: 102.5 / 64.65,
//     30: 172.5 / 130.1, 40: 474.5 / 408.5
//   complex float   8: 1.187 / 1.086, 16: 7.165 / 6.739, 24: 35.59 / 23.33,
//     30: 61.05 / 47.61, 40: 144.7 / 127.4
inline bool cuda_geev_schur_band(int n, bool is_complex, std::size_t real_bytes) {
    if (n < 8 || n > 48) return false;
    if (is_complex) return real_bytes < 8 || n <= 44;
    if (real_bytes < 8) return (n >= 14 && n <= 26) || (n >= 30 && n <= 38) || (n >= 42 && n <= 46);
    return n <= 19 || (n >= 21 && n <= 25) || (n >= 30 && n <= 32) || n >= 34;  // double
}

// The Schur form by replay (cuda/geev/geev_team.cuh, replay_in_band): with
// vectors, the real types' warp variant runs the eigenvalues' QR stages
// with a log of their reflectors, then replays the log on T's other
// entries and on the Schur vectors, in place of the Schur launch (on the
// band, or on the whole matrix where cuda_geev_schur_band says so);
// bitwise the same results. Measured 2026-12-01 on an H200 (session 72),
// batcheig_bench geev --memory device --vectors --batch 100000 --reps 3
// --cusolver-subset 0 --lapacke-subset 1 --check 3, both forms in one
// device command through a temporary switch, ms (Schur launch / replay):
//   double  n = 8: 1.749 / 2.402, 10: 3.001 / 3.835, 12: 5.172 / 5.447,
//     15: 7.300 / 8.036, 18: 12.97 / 12.88, 21: 17.72 / 16.60,
//     23: 21.71 / 19.70, 25: 27.37 / 24.25, 30: 40.01 / 36.04,
//     31: 42.92 / 38.65, 32: 46.24 / 42.56, 34: 71.32 / 62.22,
//     36: 83.92 / 74.76, 40: 119.6 / 102.9, 44: 162.8 / 145.9,
//     48: 228.2 / 188.4
//   float   n = 14: 3.832 / 4.099, 16: 4.911 / 4.882, 20: 8.444 / 8.419,
//     24: 13.42 / 12.73, 26: 16.62 / 14.58, 30: 22.37 / 19.67,
//     32: 26.07 / 22.31, 36: 43.40 / 36.08, 38: 48.90 / 39.66,
//     42: 62.07 / 51.95, 46: 79.67 / 66.41
// At small n the logged stages and the replay's fixed costs outweigh the
// Schur launch's (a chase step there has few rows to update), hence
// double n >= 20, float n >= 24 (cuda_geev_replay_from).
// On since session 73: the GPU accuracy suite (test_geev_accuracy, float
// and double, default level), test_geev_cuda, the bitcheck against the
// Schur launch (300 identical lines) and compute-sanitizer passed on an
// H200 with the isolated-rows fix; docs/performance.md, session 73.
inline constexpr bool cuda_geev_replay_on = true;
inline int cuda_geev_replay_from(std::size_t real_bytes) { return real_bytes >= 8 ? 20 : 24; }
inline bool cuda_geev_replay(int n, std::size_t real_bytes) {
    return cuda_geev_replay_on && n >= cuda_geev_replay_from(real_bytes);
}

// Lanes per matrix of the replay launch: a warp, each lane with a row of Z
// and a row or column of T (two of each from n = 33 on). Measured at
// double n = 30 (H200, session 72, ms per 100 000 matrices with right
// vectors): 32 lanes 39.00, 16 lanes (two of each per lane, two matrices
// per warp) 43.66, 8 lanes 47.72; at n = 40 108.7 / 129.9 / 164.3.
inline int cuda_geev_replay_lanes(int n, std::size_t real_bytes) {
    (void)n;
    (void)real_bytes;
    return 32;
}

// Two consecutive sweeps over the same rows replayed in one pass over the
// lines (core::qr_replay's tandem: each entry of T and Z loaded and stored
// once for both; the same bits). Measured 2026-12-02 on an H200 (session
// 73), batcheig_bench geev --memory device --vectors --batch 100000
// --reps 3 --cusolver-subset 0 --lapacke-subset 1 --check 3, both
// libraries in one device command, two rounds alike to 0.3 %, ms (one
// sweep per pass / tandem):
//   double n = 20: 15.53 / 15.70, 26: 25.13 / 25.27, 30: 36.03 / 34.88,
//     40: 109.1 / 93.3, 48: 200.8 / 169.4
//   float  n = 24: 12.69 / 12.71, 30: 19.46 / 19.29, 46: 67.85 / 64.08
// The replay there is bound by shared memory's bandwidth (L1 throughput
// 80 % at double n = 30); below n = 30 the tandem's extra registers and
// branches cost more than the halved loads and stores save, hence from
// n = 30.
inline constexpr int cuda_geev_replay_tandem_from = 30;

// Room of each matrix's QR log, in slots (core::QrLog: three per chase step,
// four per sweep and per 2 x 2 split). The log of a random matrix (uniform
// in [-1, 1]) takes about 3.3 n^2 slots at n = 30; its chase steps, in a
// model of lahqr_real (400 or 150 matrices per n), averaged 1.02-1.11 n^2
// at n = 8-48 and reached at most 1.73 n^2 (n = 8), 1.22 n^2 (30),
// 1.16 n^2 (48). A matrix whose QR needs more runs the Schur launch
// instead (about 0.7 ms per 100 000 matrices at double n = 30 when none
// does).
inline int cuda_geev_replay_log_slots(int n) { return (9 * n * n) / 2 + 16 * n + 64; }

// Registers per thread of the replay's QR stages (the eigenvalue stages
// with the log): ptxas chose 82 where the stages without the log take 76;
// at 80 a scheduler keeps six warps instead of five.
inline constexpr int cuda_geev_replay_stage_registers = 80;

// Matrices per piece of the calls with the replay, whose workspace holds
// each matrix's band and log (at double n = 30 about 41 KB per matrix, so
// 2.7 GB per piece of 65536).
inline constexpr long long cuda_geev_replay_chunk = 65536;

// Registers per thread of the Schur launches with vectors in double
// (cuda/geev/geev_team.cuh, geev_warp_phase_kernel's kWarpPhaseMaxRegs):
// the band form's QR launch with the Schur vectors (Phase::SchurBandQR,
// every lane count) and the whole-matrix Schur launch with 32 lanes
// (Phase::Schur). Without a bound ptxas chose 98 and 103. A
// multiprocessor's four schedulers each hold the registers of their own
// warps (16 384 each), so 98 or 103 (allocated as 104) left 4 warps per
// scheduler, 16 per SM, where shared memory admits more (18 at n = 30 in
// the band form, 17 at n = 26 in the whole-matrix form, one matrix per
// 32-lane warp); 96 admit 5. Measured 2026-12-01 on an H200 (session 69),
// each against the library without the bound, alternated twice in one
// device command, `batcheig_bench geev --memory device --vectors --reps 3
// --cusolver-subset 0 --lapacke-subset 1 --check 3 --batch 100000`, ms:
//   band form: n = 30 41.84 -> 39.96 (-4.5 %); n = 16, 24, 40 -0.2 %;
//   whole matrix, 32 lanes: n = 26 29.60 -> 28.06 (-5.2 %); n = 28, 33
//     -0.2 %;
//   whole matrix with fewer lanes (not taken): n = 6 (2-4 lanes; 4 lanes
//     spilled 4 bytes) +8.0 %, n = 20 (16 lanes) +0.4 %.
// No spills at 96 where taken (88 spilled 24 bytes in the band form).
// Results bitwise the same (the bitcheck's 300 eigenvalue and 300 vector
// lines, n = 5..64). The same bound on complex double's eigenvalue
// reduction launch (113-115 registers) changed n = 8-30 by 0.1 % at most:
// not taken.
inline constexpr int cuda_geev_schur_registers_d = 96;

// Registers per thread of float's whole-matrix Schur launch with vectors
// with 2 lanes per matrix (Phase::Schur, cuda_geev_warp_lanes: n <= 11).
// ptxas chose 88 (5 warps per scheduler); at the smallest n shared memory
// admits more than the 20 warps per SM that leaves, and 80 admit 24 (no
// spills). Measured 2026-12-01 on an H200 (session 70), against the
// library without the bound, alternated twice in one device command,
// `batcheig_bench geev --memory device --precision s --vectors --reps 3
// --cusolver-subset 0 --lapacke-subset 1 --check 3 --batch 100000`, ms:
//   n = 3 0.201 -> 0.177 (-12 %), 4 0.293 -> 0.255 (-13 %), 5 0.433 ->
//   0.379 (-12 %), 6 0.558 -> 0.491 (-12 %), 7 0.774 -> 0.687 (-11 %),
//   8 0.959 -> 0.949 (-1 %), 9 and 10 -0.4 to -1 %, 11 2.027 -> 2.034
//   (+0.3 %). (From n = 8 on shared memory probably bounds the launch
//   first; not profiled.)
// Results bitwise the same (bitcheck, n = 2..64 and float n = 2..11).
// Bounds measured and not taken (same command, ms, within 0.5 % unless
// given): 80 on float's Schur launch with 8, 16 and 32 lanes (84-92
// registers; n = 28 and 40) and on its band form's reduction launch with
// vectors (Phase::ReduceVectors, 90-96 registers; n = 16-36); and 96 on
// double's eigenvector launch (Phase::Vectors, 120-122 registers; it
// spilled 60-64 bytes): double vectors n = 6-40 0.2-3.8 % slower.
inline constexpr int cuda_geev_schur_registers_s2 = 80;

// The QR iteration on the band in stages (cuda/geev/geev_team.cuh,
// qr_in_band): the stage that holds the first m columns of an order-n band
// pauses once the unfinished block ends above row `pause`, and the next
// stage, a launch of its own, holds only the first `pause` columns, so more
// matrices fit per SM, with the lanes of cuda_geev_band_lanes for `pause`.
// Results are bitwise the same whatever the stages (core::QrStage), so the
// rule may depend on the batch. The pauses are rungs of a ladder per type:
// the largest rung at least `gap` below m, from n = min_n on, for batches
// of at least cuda_geev_band_stage_min_batch matrices. Measured 2026-12-01
// on one H200 with the stages forced through a temporary switch (not
// committed; `batcheig_bench geev --memory device --reps 3
// --cusolver-subset 0 --lapacke-subset 1 --check 3`, two rounds alike to
// 0.5 %, ms of the whole call against one stage, the pauses in brackets):
//   double, batch 200 000: n = 15 [14] +7.4 %, [10] +1.0 %; 17 [14] +0.8 %,
//     [10] -2.3 %; 18 [14] -4.2 %; 19 [14] -3.6 %; 20 [14] -3.4 %, [12]
//     -2.5 %; 25 [22 14] -4.9 %, [20 12] -4.7 %, [20] -3.1 %; 30 [22 14]
//     -10.4 %, [24 16] -9.5 %, [21 15] -9.6 %, [20] -8.1 %, [23 17 12]
//     -9.0 %
//   double, batch 100 000: n = 40 [32 22 14] -17.0 %, [30 22 14] -15.9 %,
//     [22 14] -11.7 %; 48 [32 22 14] -12.5 %, [44 30 22 14] -12.4 %
//   double, block variant, batch 20 000: n = 64 [48 36 26 18 12] -13.0 %,
//     [44 30 22 14] -12.0 %, [32 22 14] -8.6 %
//   float, batch 200 000: n = 25 [20] -0.1 %, [20 12] +0.5 %, [24 16]
//     +5.5 %; 30 [20] -1.8 %, [20 12] -0.9 %, [24 16] +0.7 %; against
//     main's library, the rule below: 25 +1.0 % (one stage: the stage
//     code's cost), 27 -1.2 %, 30 -1.8 %;
//     batch 100 000: n = 36 [20 12] -2.3 %, [24 16] -1.8 %, [30 22 14]
//     +1.0 %; 40 [24 16] -4.2 %, [30 22 14] -2.9 %; 48 [24 16] -4.5 %,
//     [32 22 14] -4.5 %; against main's library, the rule below: 36
//     -2.1 %, 40 -4.1 %, 48 -6.4 %
//   complex double, batch 100 000: n = 12 [10] -11.5 %, [8] -11.8 %; 16
//     [12 8] -13.9 %, [10] -13.4 %; 20 [16 10] -19.1 %, [14] -16.3 %, [12]
//     -13.8 %; 25 [22 16 10] -25.1 %, [22 14] -23.0 %, [16 10] -20.9 %; 30
//     [22 16 10] -21.8 %, [24 18 12] -21.7 %, [22 14] -20.6 %
//   complex float, batch 100 000: n = 18 [12 8] -4.6 %, [14] -2.4 %, [16
//     10] -1.5 %; 21 [16 10] -8.2 %, [14] -6.8 %, [20 12 8] +2.5 %; 25
//     [20 12] -13.3 %, [22 14] -10.7 %, [16] -10.9 %; 30 [20 12] -13.5 %,
//     [22 14] -13.2 %, [16] -10.0 %
//   double, n = 30: batch 20 000 [22 14] -6.1 %, batch 5 000 +22 % (the
//     batch then fills the GPU about once, and each launch ends with a tail
//     in which SMs run out of matrices)
// The double stages at n = 30 and the complex ones gain from the matrices
// per SM where shared memory bounds them (the band of double n = 30 is
// 4.4 KB); float, whose band is half as long, gains least.
// Session 79, with the stages' teams on a counter
// (cuda_geev_band_counter_min_lanes; H200, batch 200 000, two rounds),
// double's rungs against {14, 22, 26, 32, ...} and {14, 18, 22, 26, 32,
// ...}: n = 24 +0.0 / +2.0 %, 27 -0.1 / +1.9 %, 30 +1.0 / +2.4 %, 33
// -0.6 / +0.4 %, 40 +0.0 / +0.5 % (n = 20, where all three pause at 14:
// -0.3 / -0.1 %). The rungs stay.
inline constexpr long long cuda_geev_band_stage_min_batch = 16384;
inline int cuda_geev_band_stage(int n, int m, long long batch, bool is_complex, std::size_t real_bytes) {
    static constexpr int real_d[] = {14, 22, 32, 44, 60, 80, 110, 150, 200};
    static constexpr int real_s[] = {20, 34, 48, 66, 90, 124, 170, 230, 300};
    static constexpr int cplx[] = {10, 16, 22, 32, 44, 60, 80, 110, 150};
    const bool d = real_bytes >= 8;
    const int *rungs = is_complex ? cplx : (d ? real_d : real_s);
    const int min_n = is_complex ? (d ? 12 : 18) : (d ? 18 : 27);
    const int gap = is_complex && d ? 2 : 3;
    if (batch < cuda_geev_band_stage_min_batch || n < min_n) return 0;
    int pause = 0;
    for (int k = 0; k < 9 && rungs[k] <= m - gap; ++k) pause = rungs[k];
    return pause;
}

// QR stage launches on the band (cuda/geev/geev_team.cuh,
// geev_band_qr_kernel) whose teams have at least this many lanes take
// their matrices from a counter, each team its next matrix when it is done
// with one; narrower teams keep one matrix each. In a warp of 32 / P teams
// a team whose matrix finished its stage early otherwise idles until the
// last team of its warp is done, and the number of sweeps a stage takes is
// not predictable from the matrix (session 78's model of lahqr_real,
// double n = 30, 400 random matrices: the stages' warps run 7 / 19 / 29 %
// longer than their teams' work at 2 / 4 / 8 teams per warp).
// Measured on an H200 (docs/performance.md, session 79; batcheig_bench geev
// --memory device --batch 200000, three libraries alternated, two rounds):
// from 4 lanes (every stage at n <= 40) double n = 20 / 25 / 30 / 40 took
// -1.4 / -1.0 / -1.1 / -1.9 %, float n = 30 / 40 -0.6 / -0.3 %, complex
// double n = 20 / 30 within 0.1 %; from 8 lanes (the model had the 4-lane
// stage lose with a counter: its teams no longer start their sweeps
// together) 0.2-0.6 % less at double n = 20-30. The same results bitwise.
// Small batches (session 81, H200; --reps 20, against no counter, two
// rounds): double n = 10 / 20 / 30 and complex double n = 15 / 25 at 1 000,
// 4 096 and 16 384 matrices within 0.5 % (one case -1.4 %); at 65 536
// double n = 20 / 30 -1.3 / -0.8 %. So the counter serves every batch.
// Since session 101 the replay's stages (with the QR's log, right or left
// vectors in the real types) take their matrices from the counters too,
// which the workspace then holds as well (256 bytes per piece). On an
// H100 (docs/performance.md, session 101; the old launches through a
// temporary switch in one library, two rounds, right vectors, batch
// 200 000, ms, counter / one matrix per team): double n = 20 32.65-32.71 /
// 32.84-32.87, 25 49.49-49.50 / 49.55-49.62, 30 64.72-64.73 /
// 65.16-65.16, 40 158.6-158.7 / 159.6-159.7; float n = 20 15.99-16.02 /
// 16.00-16.03, 30 37.05-37.10 / 37.15-37.20, 40 81.91-81.97 /
// 82.15-82.24. The same results bitwise.
inline constexpr int cuda_geev_band_counter_min_lanes = 4;

// A QR stage on the band that holds at least this many columns (m) runs
// with a whole block per matrix (cuda/geev/geev_team.cuh,
// geev_band_qr_block_kernel) of cuda_geev_band_block_threads threads,
// instead of the teams of a warp of cuda_geev_band_lanes: where the band is
// long, its stage holds one or two matrices per SM with one warp each
// (session 86's profile at double n = 160: 3 % of the warps active), and a
// block's threads share the passes of every chase step. The QR iteration's
// results do not depend on the team, so the eigenvalues are bitwise the
// same. Measured 2026-12-05 on an H100 (docs/performance.md, session 92;
// batcheig_bench geev --memory device --reps 3 --cusolver-subset 0
// --lapacke-subset 1 --check 2, eigenvalues, AUTO; every stage of m >= 40
// on blocks of 128 / 256 / 64 threads against the warp teams, ms):
//   double, batch 2 000:         n = 64: 4.54 -> 6.15 / 10.64 / 5.08,
//     100: 19.93 -> 21.62 / 27.34 / 20.91, 128: 52.59 -> 51.62 / 56.50 /
//     52.16, 160: 109.07 -> 99.10 / 105.20 / 102.81
//   float, batch 2 000:          n = 100: 7.87 -> 10.36 / 16.46 / 9.05,
//     160: 38.00 -> 39.82 / 46.63 / 39.91, 200: 118.60 -> 110.70 /
//     114.38 / 115.93, 238: 306.05 -> 260.68 / 258.49 / 288.35
//   complex float, batch 1 000:  n = 64: 6.43 -> 9.36 / 16.84 / 6.67,
//     100: 27.44 -> 29.68 / 40.41 / 27.68, 144: 112.23 -> 105.60 /
//     116.12 / 102.59
//   complex double, batch 1 000: n = 64: 21.24 -> 24.11 / 37.87 / 21.57,
//     80: 33.45 -> 36.91 / 58.30 / 33.31
//   beyond the matrix's fit (cuda_geev_global_reduce_band_max_n), batch
//     1 000, the band's single stage on warp teams -> blocks of 128 / 256:
//     double n = 180 131.2 -> 110.8 / 112.3, 200 169.0 -> 139.6 / 140.0,
//     236 252.1 -> 200.2 / 197.5; float n = 250 170.0 -> 141.7 / 139.8,
//     300 269.2 -> 213.4 / 207.6, 336 356.8 -> 273.8 / 264.4
// These bounds against the warp teams everywhere (main f293be4), AUTO, on an
// H200 (session 94, same command, two rounds alike within 0.7 %), ms:
//   double, batch 2 000: n = 128 52.60 -> 51.39, 160 109.10 -> 98.99;
//   float, 2 000: n = 200 118.64 -> 114.34, 238 306.03 -> 258.62; complex
//   float, 1 000: n = 144 112.23 -> 102.54; beyond the fit (with
//   cuda_geev_global_reduce_band_max_n), batch 1 000: double n = 180 / 200
//   / 236 130.55 / 173.29 / 266.60 -> 109.63 / 137.66 / 196.41, float
//   n = 250 / 300 / 336 206.71 / 351.48 / 472.85 -> 138.87 / 204.77 /
//   259.88.
// So blocks pay where the stage is long: double from m ~ 128 (128
// threads), float from ~ 200 (256), complex float at 144 (64); complex
// double never (its band is the longest per column and its step the
// longest, and the block lost at every n measured).
inline int cuda_geev_band_block_min_m(bool is_complex, std::size_t real_bytes) {
    if (is_complex) return real_bytes >= 8 ? 1 << 30 : 144;
    return real_bytes >= 8 ? 128 : 200;
}
inline int cuda_geev_band_block_threads(bool is_complex, std::size_t real_bytes) {
    if (is_complex) return 64;
    return real_bytes >= 8 ? 128 : 256;
}

// Matrices per piece of the eigenvalue launches with the QR phase on the
// band (cuda/geev/geev_team.cuh, launch_band): their workspace holds only
// each matrix's state (40 bytes in double), at most 40 MB. Every piece ends
// both launches with a tail in which SMs run out of matrices (the QR
// launch's work differs from matrix to matrix), so few pieces are best.
// batcheig_bench geev --memory device --reps 3 --cusolver-subset 0
// --lapacke-subset 1, H100, the library with 131072 (4 pieces at 500 000)
// against 1048576 (one piece), alternated twice on one lease, ms (both
// rounds):
//   double, batch 500 000   n = 12: 7.43-7.44 -> 6.85, 15: 12.89-12.94 ->
//     11.86-11.87, 20: 27.18-27.26 -> 26.26-26.29, 25: 48.76-48.79 ->
//     47.34-47.39, 30: 80.43-80.48 -> 79.02-79.10, 40: 208.5-208.6 -> 206.4-206.6
//   float, batch 500 000    n = 15: 7.53-7.54 -> 6.80, 20: 14.09-14.12 ->
//     12.86-12.90, 30: 42.23 -> 40.72-40.76
//   complex double, 200 000 n = 10: 8.61-8.64 -> 8.07-8.08, 20: 62.0 ->
//     61.30-61.36, 30: 212.7-212.9 -> 211.1-211.2
// Two streams taking pieces of 131072 in turn (one piece's reduction beside
// the other's QR launch) gained less, in one run with both: double n = 20 /
// 25 / 30 26.38-26.43 / 47.71-47.76 / 79.29-79.34 against 26.27-26.32 /
// 47.25-47.37 / 78.98-79.13 with one piece.
inline constexpr long long cuda_geev_band_chunk = 1048576;

// Threads per block of the block-per-matrix variants (BLOCK, GLOBAL): one
// per row up to 256, a power of two, at least a warp (a block is one team:
// its barriers cost more than a warp's, so it stays as small as n allows).
inline int cuda_geev_block_threads(int n) {
    int t = 32;
    while (t < n && t < 256) t *= 2;
    return t;
}

// Blocks per SM that the global variant's kernel is compiled for
// (__launch_bounds__(256, this): 65536 / (256 * this) registers).
// Measured 2026-12-04 on an H200 (batcheig_bench geev --memory device
// --reps 3, AUTO; docs/performance.md, session 87), ms: two blocks (128
// registers) against the former bound of 1024 threads (64 registers):
// double eigenvalues n = 200 / 256, 1 000 matrices, with gehd2 254.7 /
// 506.3 -> 209.5 / 435.3, and the panels need the registers; complex
// double eigenvalues n = 200, 500 matrices, with gehd2 340.3 -> 582.5,
// with panels at four blocks per SM 267.9 against 347.8 at two; complex
// float n = 200 145.9 (four) against 189.6 (two).
constexpr int cuda_geev_global_min_blocks(bool is_complex, std::size_t /*real_bytes*/) {
    return is_complex ? 4 : 2;
}

// Widest panels of the global variant's blocked reduction
// (core::gehrd_panels, its scratch in the block's dynamic shared memory):
// the global variant takes the most of core::kGehrdMaxPanel<T> (a power of
// 2), half that, ..., 2 reflectors whose scratch fits in this budget, so
// that cuda_geev_global_min_blocks blocks stay resident per SM (each also
// with reserve_bytes: the driver's and the static shared memory); gehd2
// when not even 2 fit (cuda/geev/geev_team.cuh, global_panel_nb). Wider
// panels pay (H200, session 87, ms): double eigenvalues n = 200 / 256
// with 16: 173.3 / 350.6, with 8: 179.2 / 360.8; float n = 256 / 330
// 229.1 / 457.6 against 236.2 / 474.4.
inline long long cuda_geev_global_panel_budget(int optin_bytes, int sm_bytes, int min_blocks, int reserve_bytes) {
    const long long per_block = static_cast<long long>(sm_bytes) / (min_blocks > 0 ? min_blocks : 1) - reserve_bytes;
    return per_block < optin_bytes ? per_block : optin_bytes;
}

// Matrices per launch of BATCHEIG_ALG_GEEV_CUDA_GLOBAL: the workspace holds
// the O(n) scratch of this many matrices (65536 blocks fill any current GPU).
inline constexpr long long cuda_geev_global_chunk = 65536;

// syevj/heevj on the CUDA backend (src/cuda/syevj). AUTO: the lane variant
// where cuda_jacobi_lane_auto says, n <= 128 (below; faster than the warp
// variant at every n <= 32 measured, and faster than or level with the
// cluster or shared variant at every n = 33..128 measured, see below).
// Beyond n = 128 the rule that preceded it: the warp variant
// up to cuda_jacobi_warp_max_n(sizeof(T)) while one problem (with vectors)
// fits in a block's shared memory, then the shared (block) variant while it
// fits, then the global one. The choice depends on the precision and n only
// (never on the batch: every matrix gets bitwise the results of a single
// call). Measured 2026-11-21 on an H200 with `batcheig_bench syevj --memory
// device --vectors --algorithm jacobi-cuda-{warp,shared} --batch
// {1000,20000}`, ms at batch 1 000 / 20 000:
//   double          n = 32: warp 1.30 / 17.1, shared 1.29 / 22.8
//                   n = 40: warp 2.37 / 44.4, shared 3.63 / 66.9
//                   n = 48: warp 7.17 / 110,  shared 5.10 / 93.8
//   complex double  n = 24: warp 0.97 / 15.5, shared 1.05 / 19.6
//                   n = 32: warp 3.24 / 43.2, shared 1.68 / 30.1
//   float           n = 40: warp 1.87 / 20.8, shared 2.90 / 52.6
//                   n = 48: warp 3.05 / 43.1, shared 4.11 / 74.7
//   complex float   n = 40: warp 2.31 / 43.2, shared 3.44 / 62.5
//                   n = 48: warp 6.99 / 105,  shared 4.96 / 90.4
// (the warp variant's teams hold 2n^2 elements of shared memory each, so
// complex double at n = 32 keeps only 6 teams per SM). Float beyond n = 48
// was not measured.
inline int cuda_jacobi_warp_max_n(std::size_t element_bytes) {
    return element_bytes >= 16 ? 24 : element_bytes <= 4 ? 48 : 40;
}

// Lanes per matrix of BATCHEIG_ALG_JACOBI_CUDA_WARP: the smallest power of
// two >= n in [4, 32]. A step updates (n/2)(n/2+1)/2 independent 2x2 blocks
// of the iterate and n rows of the vectors, so about n lanes keep every lane
// busy; kernels exist for 4, 8, 16 and 32. It depends on n only: the team's
// reductions sum in an order set by the lane count, and every matrix must
// get bitwise the same results whatever batch it comes in.
inline int cuda_jacobi_warp_lanes(int n) {
    int p = 4;
    while (p < n && p < 32) p *= 2;
    return p;
}

// Threads per block of BATCHEIG_ALG_JACOBI_CUDA_SHARED: about 8 per row (a
// step has ~n^2/8 2x2 blocks and n^2/2 row rotations of V), a power of two
// in [64, 1024].
inline int cuda_jacobi_block_threads(int n) {
    int t = 64;
    while (t < 8 * n && t < 1024) t *= 2;
    return t;
}

// Threads per block of BATCHEIG_ALG_JACOBI_CUDA_GLOBAL: as the shared
// variant, up to 1024.
inline int cuda_jacobi_global_threads(int n) {
    int t = 128;
    while (t < 4 * n && t < 1024) t *= 2;
    return t;
}

// Matrices per launch of BATCHEIG_ALG_JACOBI_CUDA_GLOBAL at most (the
// workspace is also kept within the size of the caller's batch).
inline constexpr long long cuda_jacobi_global_chunk = 65536;

// Columns per block of BATCHEIG_ALG_JACOBI_CUDA_BLOCK (at most 16: a warp
// holds a pair's 2nb x 2nb problem, a column per lane; see
// core::jacobi_block_width for small n). Measured 2026-11-22 on an H100
// with `batcheig_bench syevj --memory device --vectors --precision d
// --n 64,128,256 --batch 200 --reps 2 --algorithm jacobi-cuda-block` (ms at
// n = 64 / 128 / 256; inner sweeps of each pair, see
// core::JacobiOptions::inner_max_sweeps):
//   nb = 4:  inner 2: 8.08 / 65.0 / 612;  inner 30: 9.61 / 71.5 / 628
//   nb = 8:  inner 1: 6.78 / 35.3 / 390;  inner 2: 8.31 / 38.8 / 400;  inner 30: 11.1 / 46.1 / 421
//   nb = 16: inner 1: 11.8 / 54.6 / 518;  inner 2: 12.2 / 60.4 / 550;  inner 30: 16.7 / 74.8 / 621
// Every row is bound by the latency of a warp's serial chain (the inner
// solve's 2nb - 1 steps, then the pair's GEMMs), with only pairs x batch
// warps in flight (docs/performance.md).
// AUTO (plan/syevj_plan.hpp) takes it where the shared variant no longer
// fits, instead of the global two-sided variant; same tool, AUTO against
// --algorithm jacobi-cuda-global, ms: double n = 128: 35.2 / 71.4; complex
// double n = 100: 62.0 / 75.4, n = 128: 94.8 / 191.
inline int cuda_jacobi_block_nb(std::size_t) { return 8; }

// Columns per column block of BATCHEIG_ALG_JACOBI_CUDA_CLUSTER: a pair is
// a 16 x 16 Gram block, one warp of lane solver (two slices of 16 lanes).
// A cluster has players(ceil(n / 8)) / 2 <= 16 blocks, so n <= 256.
// Measured 2026-11-22 on an H100, `batcheig_bench syevj --memory device
// --vectors --batch 200 --algorithm jacobi-cuda-cluster`, ms, nb = 4 / 8:
//   double n = 40: 1.34 / 0.88, n = 48: 2.31 / 0.94, n = 64: 2.65 / 1.73;
//   complex double n = 40: 2.70 / 2.42, n = 48: 4.23 / 2.51.
// Smaller blocks mean more round-robin steps, each moving the whole
// problem between the cluster's blocks (docs/performance.md).
inline constexpr int cuda_jacobi_cluster_nb = 8;

// BATCHEIG_ALG_JACOBI_CUDA_GRID (cuda/syevj/syevj_grid.cuh): columns per
// block. nb = 16 makes a pair's 32 columns the lane solver's warp (one
// slice, 32 rows a lane: 255 registers, 2 blocks per SM); nb = 8 gives 16
// columns in two slices (127 registers, 168 in double complex) and twice
// the steps per sweep, each streaming all of U and Q. Measured at n = 256,
// batch 200, with vectors (H100, `batcheig_bench syevj --memory device
// --vectors --batch 200 --algorithm jacobi-cuda-grid`, ms, nb = 16 / 8):
// double 70.2 / 78.7, float 40.9 / 45.3, complex float 99.5 / 86.0; in
// complex double 32 rows of two 16-byte columns exceed a lane's registers.
constexpr int cuda_jacobi_grid_nb(bool complex) { return complex ? 8 : 16; }
// AUTO beyond the lane variant (n > 128): the grid variant from
// cuda_jacobi_grid_auto_min_n on, else the rule before it (cluster where it
// fits; the block or global variant). H100, 2026-11-24, `batcheig_bench
// syevj --memory device --vectors --batch 200 --reps 2 --algorithm A`, ms,
// grid / cluster at n = 136, 160, 192, 224:
//   double         16.0 / 19.1, 17.2 / 36.8, 30.0 / 63.3, 45.4 / 182
//   float          8.74 / 8.34, 9.49 / 12.2, 17.4 / 21.4, 28.6 / 43.0
//   complex float  24.3 / 20.9, 24.7 / 40.1, 44.2 / 70.3, 71.5 / 186
//                  (nb = 16 then; nb = 8 is faster at n = 256)
//   complex double against AUTO before (the block variant): 36.7 / 104,
//                  47.5 / 158, 73.6 / 212
// and at n = 256 grid / cluster, double 70 / 250 (session 8's cluster run).
// After the grid variant's groups of four items and asynchronous staging
// (2026-11-25, same tool, --reps 3, two rounds alike to 3 %), grid /
// cluster at n = 130, 136, 144:
//   float          7.79 / 7.96, 7.88 / 8.40, 8.63 / 8.22
//   complex float  18.0 / 21.0, 18.3 / 21.0, 18.9 / 28.7
// So double, complex double and complex float take it for every n > 128,
// float from n = 145 (within 6 % either way at n = 129..144).
// elem_bytes: the size of the element type.
constexpr int cuda_jacobi_grid_auto_min_n(std::size_t elem_bytes) { return elem_bytes >= 8 ? 129 : 145; }

// Smallest order it claims (two column blocks, and room in w for its state).
inline constexpr int cuda_jacobi_grid_min_n = 32;

// AUTO beyond n = 32: CLUSTER before the warp and shared variants (true),
// or only where they no longer fit (false: double complex, whose 16-byte
// elements double the traffic between the cluster's blocks). Measured
// 2026-11-22 on an H100, batch 200, ms, the earlier AUTO choice / CLUSTER:
//   double          n = 40: 2.20 / 0.91, n = 48: 1.30 / 0.94, n = 64: 2.20 / 1.63, n = 100: 9.50 / 7.00
//   float           n = 40: 1.77 / 0.49, n = 64: 1.79 / 0.90, n = 100: 7.57 / 3.73, n = 128: 13.3 / 5.96
//   complex float   n = 40: 2.08 / 0.95, n = 64: 2.20 / 1.63, n = 100: 9.27 / 7.53, n = 128: 39.1 / 13.6
//   complex double  n = 40: 1.20 / 2.42, n = 48: 1.69 / 2.51, n = 64: 4.91 / 4.88, n = 100: 61.6 / 21.8
// (earlier choice: WARP or SHARED, BLOCK where they do not fit).
constexpr bool cuda_jacobi_cluster_first(std::size_t element_bytes) { return element_bytes < 16; }
// The lane variant at 33 <= n <= 64 against the choice before it (shared
// variant in complex double, cluster otherwise). H100, 2026-11-24,
// `batcheig_bench syevj --memory device --vectors --batch 200 --reps 3`,
// ms, lane (the final kernel) / before:
//   double:         n = 33 / 40 / 48 / 56 / 64: 0.299 / 0.360 / 0.409 / 0.488 / 0.534
//                                     against  0.872 / 0.913 / 0.964 / 1.542 / 1.617
//   float:          0.146 / 0.169 / 0.218 / 0.249 / 0.280 against 0.457 / 0.481 / 0.516 / 0.809 / 0.884
//   complex float:  0.311 / 0.404 / 0.512 / 0.599 / 0.673 against 0.881 / 0.944 / 0.954 / 1.562 / 1.601
//   complex double: 1.447 / 1.694 / 2.028 at n = 48 / 56 / 64 against 1.672 / 2.241 / 4.871;
//                   n = 33 / 34 / 36 / 38 / 40 / 44 (two rounds, --reps 5):
//                   0.93 / 0.97 / 1.03 / 1.05 / 1.17 / 1.28 against
//                   0.95 / 0.97 / 1.05 / 1.14 / 1.20 / 1.40 (shared), and at
//                   batch 1 000, n = 33 / 36 / 40: 3.63 / 3.89 / 4.45 against
//                   3.58 / 3.99 / 4.63.

// JACOBI_CUDA_LANE (n <= 64, cuda/syevj/syevj_pair.cuh): for P slots (a
// column pair each; P = 2, 4, 8, 16, 32 for n <= 2P), the slices per matrix,
// i.e. the lanes that split a pair's rows, and the blocks of 128 threads per
// SM the kernel's registers are bounded for (__launch_bounds__; 1: no
// bound). More slices shorten a step's chain (fewer rows per lane) at the
// price of more butterflies per sum; more than 32 lanes per matrix (complex
// double at P = 16: 4 slices of 16) take a second warp and sum through shared
// memory. Two slices of a double or complex float pair at P = 16 and four
// of a complex double one hold 512 bytes of columns per lane, about the
// most that fits beside the rest. Measured 2026-11-22 on an H100 with
// `batcheig_bench syevj --memory device --vectors --algorithm
// jacobi-cuda-lane --batch 1000|100000` (ms; slices / min blocks):
//   double,  n = 8:  b1000  S2 0.038, S4 0.033;            b100k S2 0.461, S4 0.634
//   double,  n = 16: b1000  S2 0.080, S2/4 0.085, S4 0.074; b100k S2 3.16, S2/4 2.83, S4 3.30
//   double,  n = 32: b1000  S2 0.296, S2/4 0.874, S4 0.336; b100k S2 23.0, S2/4 73.6, S4 24.1
//   complex, n = 8:  b1000  S2 0.052, S4 0.042;            b100k S2 1.045, S4 1.197
//   complex, n = 16: b1000  S2 0.140, S4 0.118, S4/4 0.129, S8 0.143; b100k S2 8.01, S4 7.68, S4/4 7.47, S8 10.4
//   complex, n = 32: b1000  S4 0.726, S8 0.862;            b100k S4 60.9, S8 75.0
// (double n = 16, S2/4: the bound costs 76 bytes of spills and wins at
// batch 100 000, where occupancy pays (12 warps per SM without it); at
// n = 32 the bound spills the columns). n <= 8: four slices, for the
// small batches (two miss issue 5's 2x at double n = 8, batch 1 000: 0.042
// ms against cusolverDnDsyevjBatched's 0.077; four are still 5.8x faster at
// batch 100 000); n <= 4 double b1000 0.020 against 0.024 with two.
// 32 slots (32 < n <= 64), measured 2026-11-24 on an H100 with the same
// command at batch 200, n = 40 / 48 / 64 (ms):
//   float:          S4 0.200 / 0.250 / 0.325, S8 0.209 / 0.266 / 0.352, S16 0.414 / 0.495 / 0.687
//   double:         S4 0.377 / 0.435 / 0.574, S8 0.533 / 0.656 / 0.866, S16 0.771 / 0.961 / 1.275
//   complex float:  S4 0.414 / 0.537 / 0.705, S8 0.577 / 0.695 / 0.950, S16 0.795 / 0.955 / 1.331
//   complex double: S8 1.233 / 1.529 / 2.131, S16 2.224 / 2.720 / 3.842
// (S4 holds 16 rows of four columns per lane: 248 registers in double,
// two blocks of 128 threads per SM; every matrix of a batch of 200 is
// resident either way, and fewer slices mean fewer per-lane copies of the
// rotation and a shorter sum across the team's warps. Complex double
// allows at most 8 rows per lane in the Q^H A Q form.) In the Gram form
// (cuda_jacobi_pair_gram; a lane holds only W's two column parts) complex
// double takes S4, measured 2026-11-24 on an H100 with the same command at
// batch 200, n = 33 / 48 / 64 (ms): S8 0.636 / 0.941 / 1.254, S4 0.522 /
// 0.786 / 1.099 (with the Rayleigh quotients one column at a time; S2 and
// the other precisions at S2 were slower).
constexpr int cuda_jacobi_pair_slices(std::size_t element_bytes, int slots, bool gram = false) {
    if (slots == 64) return 8;
    if (gram && slots == 32 && element_bytes == 16) return 4;
    if (slots <= 4) return 4;
    if (slots == 32) return element_bytes == 16 ? 8 : 4;
    return element_bytes == 16 ? 4 : 2;
}
// Slices at P slots for a call of at most kCudaJacobiPairSmallBatch
// matrices, where a batch of 1 000 leaves the GPU mostly idle and a step's
// chain sets the time: four at 8 slots in float, double and complex float
// (the Q^H A Q form there; a warp per matrix instead of half a warp; no
// register bound). The whole call's batch decides (SyevjProblem::
// whole_batch), so host arrays, whose chunks run the same kernels, keep
// the device arrays' results bitwise.
// Measured 2026-11-25 on an H100 with `batcheig_bench syevj --memory
// device --vectors --reps 5 --algorithm auto --precision d|c --n 10|16
// --batch B`, two rounds alike to 1-2 %, ms, two slices (4 blocks) / four:
//   double,        n = 16: B = 1 000 0.071 / 0.060, 2 000 0.087 / 0.088,
//                          4 000 0.140 / 0.156, 8 000 0.256 / 0.287, 32 000 0.89 / 1.03
//   double,        n = 10: 1 000 0.051 / 0.041, 2 000 0.058 / 0.056, 4 000 0.085 / 0.097
//   complex float, n = 16: 1 000 0.075 / 0.062, 2 000 0.101 / 0.091, 4 000 0.163 / 0.160,
//                          8 000 0.302 / 0.293, 32 000 1.06 / 1.07
//   complex float, n = 10: 1 000 0.050 / 0.040, 2 000 0.062 / 0.056, 4 000 0.091 / 0.096
// (batch 100 000, n = 16: double 2.61 / 3.14, complex float 3.15 / 3.27),
// and float, n = 12 / 16, two rounds: B = 1 000 0.035-0.038 / 0.030 and
// 0.044-0.046 / 0.038-0.039, 2 048 0.043 / 0.038-0.039 and 0.053-0.055 /
// 0.048-0.049. Twice the slices elsewhere (up to 16 slots, batch 1 000
// and 2 048, n = 4 ... 32) was slower, or faster only at batch 1 000
// (double n <= 8: 0.028 / 0.027 at n = 8, 0.030 / 0.033 at batch 2 048).
inline constexpr int kCudaJacobiPairSmallBatch = 2048;
constexpr int cuda_jacobi_pair_slices_small_batch(std::size_t element_bytes, int slots, bool gram) {
    if (slots == 8 && element_bytes <= 8 && !gram) return 4;
    return cuda_jacobi_pair_slices(element_bytes, slots, gram);
}
constexpr int cuda_jacobi_pair_min_blocks(std::size_t element_bytes, int slots) {
    if (slots == 64) return 1;
    return slots == 8 && element_bytes < 16 ? 4 : 1;
}
// Whether the 64-slot lane kernel (64 < n <= 128) keeps the "other"
// column of each slot in shared memory during the sweeps (read there by the
// step's product and update, the leaving column written back in place, the
// slots following the columns' locations) rather than in the registers
// (moved through shared memory after each step): complex types. In complex
// double the two columns' 16 rows per lane (128 registers) left no room
// beside them and the kernel spilled in every step. Measured 2026-11-24 on
// an H100 with `batcheig_bench syevj --memory device --vectors --batch 200
// --reps 3 --algorithm jacobi-cuda-lane`, n = 65 / 100 / 128, ms,
// registers / shared (two rounds alternated, equal to 1 %):
//   double          4.03 / 4.28, 4.84 / 5.00, 5.49 / 5.18
//   float           2.15 / 2.27, 2.68 / 2.80, 3.02 / 3.14
//   complex float   4.20 / 3.73, 4.97 / 4.13, 6.46 / 4.87
//   complex double  26.7 / 9.73, 30.1 / 11.8, 32.7 / 13.5 (registers: session 30's
//                   build, which spilled 19 KB; shared: with the fused
//                   multiply-adds of PairColumns::fma_conj and lin2)
// (4 slices of 32 rows and two blocks per SM with the shared column, double:
// 4.69 / 6.32 / 7.67.)
constexpr bool cuda_jacobi_lane_wide_other_shared(bool complex) { return complex; }
// Whether AUTO runs the lane variant at order n: every n it claims (n <=
// 128, cuda::kSyevjLaneMaxN). Beyond 64 the kernel has 64 slots and 80,
// 96, 112 or 128 players, the first >= n (those >= n idle, so within each
// tier the time hardly depends on n), 8 slices of 16 rows, one 512-thread
// block per matrix and per SM. Measured 2026-11-24 on an H100 with
// `batcheig_bench syevj --memory device --vectors --batch 200 --reps 3`,
// both variants forced, ms, lane / cluster:
//   double          n = 65: 2.95 / 3.13, 72: 3.02 / 3.31, 80: 3.13 / 3.35
//   float           n = 65: 1.49 / 1.87, 80: 1.80 / 1.96
//   complex float   n = 65: 2.61 / 3.55, 80: 2.80 / 3.62
//   complex double  n = 65: 6.71 / 8.50, 80: 7.84 / 9.05
// (the cluster variant of float and the complex types from an earlier lease
// of the same day, whose unchanged tiers timed the same to 1 %) and beyond
// n = 80, where the cluster variant's time jumps (16-column blocks):
//   double          n = 88: 3.68 / 4.68, 96: 3.87 / 5.01, 128: 5.46 / 12.67
//   float           n = 88: 1.92 / 2.87, 128: 3.00 / 6.01
//   complex float   n = 88: 3.18 / 5.37, 128: 4.78 / 13.41
//   complex double  n = 88: 9.13 / 14.02, 128: 13.43 / 50.2
// (the cluster variant at n = 96 and 128 from session 30, the others from
// session 31's leases).
constexpr bool cuda_jacobi_lane_auto(int n) { return n <= 128; }

// Whether AUTO runs BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG (the tridiagonal
// method) rather than a Jacobi variant at order n (the plan adds: when the
// call leaves the sweep cap at its default and the variant fits). To n = 64
// in shared memory (cuda/syevj/syevj_tri_shared.cuh): the complex types at
// 32 < n <= 64. Measured 2026-11-30
// on an H200 with `batcheig_bench syevj --memory device --vectors --reps 5
// --algorithm jacobi-cuda-tridiag|jacobi-cuda-lane`, batch 200 at n = 33 /
// 40 / 48 / 56 / 64, ms, tridiag / lane:
//   complex double  0.204 / 0.260 / 0.308 / 0.373 / 0.452 against
//                   0.398 / 0.484 / 0.564 / 0.664 / 0.778
//   complex float   0.163 / 0.204 / 0.250 / 0.309 / 0.377 against
//                   0.200 / 0.245 / 0.300 / 0.358 / 0.406
//   double          0.182 / 0.221 / 0.279 / 0.332 / 0.390 against
//                   0.169 / 0.202 / 0.248 / 0.270 / 0.326
//   float           0.146 / 0.179 / 0.220 / 0.270 / 0.329 against
//                   0.133 / 0.155 / 0.200 / 0.230 / 0.262
// (the tridiagonal kernel of the final session-55 build in complex double
// and double; of the build before its last change, two serial phases
// 15-25 % slower, in complex float and float; the lane variant unchanged
// since session 48), and at batch 1 000, n = 16 / 24 / 32, complex double
// 0.379 / 0.558 / 0.780 against 0.085 / 0.319 / 0.439 (the tridiagonal
// kernel's serial chains, a column's reflector per step and a thread's
// solves, set its time; the real types' lane kernel, which holds more rows
// per register, stays faster).
//
// Beyond n = 64, in global memory (syevj_tri_global.cuh, while it fits):
// the complex types and double from n = 65, float from n = 129. Measured
// 2026-11-30 on an H200, batch 200, `batcheig_bench syevj --memory device
// --vectors --reps 3 --algorithm auto|jacobi-cuda-tridiag|jacobi-cuda-lane|
// jacobi-cuda-grid` (AUTO then: LANE to n = 128, GRID beyond), ms,
// tridiag / the Jacobi AUTO took, with the build of two inverse-iteration
// solves (the final build's three solves and band orthogonalization add
// 15-25 % at n = 128 and 5-15 % at n = 256-512: double n = 128 / 256 / 512
// 3.33 / 14.06 / 97.1, complex double 4.52 / 21.09 / 152.7):
//   double          n = 65: 0.953 / 2.630, 96: 1.604 / 3.190,
//                   128: 2.659 / 4.267, 160: 4.235 / 13.83,
//                   256: 11.73 / 63.98, 512: 87.62 / 509.1
//   complex double  n = 65: 1.276 / 4.478, 96: 2.208 / 6.243,
//                   128: 3.859 / 8.153, 160: 6.333 / 44.38,
//                   256: 18.88 / 192.4, 512: 143.9 / 1 556
//   complex float   n = 65: 0.779 / 2.125, 96: 1.369 / 2.494,
//                   128: 2.348 / 4.060, 160: 6.278 / 21.50,
//                   256: 14.06 / 98.79, 512: 85.79 / 1 050
//   float           n = 65: 0.626 / 1.170, 100: 1.417 / 1.804,
//                   112: 1.644 / 4.117, 128: 4.400 / 2.091 (twice, not
//                   understood: the kernels' sum under Nsight Compute was
//                   1.9 ms), 144: 2.774, 160: 3.334 / 18.60,
//                   256: 7.900 / 88.04, 512: 59.17 / 419.7
// so float keeps the lane variant to n = 128 (docs/performance.md, session
// 56). Since session 58 (two solves again, a member replaced after them
// solved once more, WY back-transformation) the global form takes, same
// command with --algorithm auto, H200: double n = 65 / 128 / 256 / 512
// 0.994 / 2.682 / 12.25 / 72.14, complex double 1.273 / 3.848 / 19.57 /
// 117.7 ms (XsyevBatched 1.461 / 2.841 / 19.41 / 85.69 and 2.198 / 4.331 /
// 27.29 / 131.3 in the same runs).
constexpr bool cuda_jacobi_tri_auto(bool complex, bool single, int n) {
    return complex ? n > 32 : n > (single ? 128 : 64);
}

// Whether the pair kernel updates a pair's columns also without a rotation
// (with the coefficients 1, 0 instead of branching around it): at P = 16
// that saves the register copies at the join. H100, ms, branch (the build
// before the schedule entry was loaded a step ahead) / always (with it; two
// leases of the same day): double n = 32 b1000 0.293 / 0.278, b100k 23.1 /
// 22.4; complex n = 32 b1000 0.723 / 0.665, b100k 60.9 / 56.3. At P = 8
// the larger register set costs occupancy: complex n = 16 b100k 7.68 /
// 9.21 (164 / 180 registers), double n = 16 b100k 2.81 / 2.93. At P = 32
// (H100, 2026-11-24, batch 200, the lane variant forced, two rounds
// alternated, n = 40 / 64, branch / always): double 0.373 / 0.560 against
// 0.359 / 0.534, complex double 1.239 / 2.137 against 1.168 / 2.030, float
// 0.202 / 0.332 against 0.172 / 0.281, complex float 0.415 / 0.711 against
// 0.393 / 0.675 (the branch's join copied the 32 updated doubles of the
// kept columns: 64 moves per step, seen in the profile).
constexpr bool cuda_jacobi_pair_update_always(int slots) { return slots >= 16; }

// Whether the pair kernel's exact off-norm (at the end of the sweeps) is
// computed from the team's columns in shared memory, every pair's product
// at once, rather than over m - 1 steps that move the columns round the
// schedule (PairColumns::exact_off_shared): in double and complex double
// in the Gram form (n > 16 in double, n > 8 in complex double). Measured 2026-11-25 on an H100
// with `batcheig_bench syevj --memory device --vectors --reps 3` (AUTO,
// the lane variant; batch 1 000 at n <= 32, 200 beyond), two rounds
// alternated, ms, steps / shared:
//   double          n = 32: 0.235 / 0.222, 48: 0.328 / 0.324, 64: 0.453 / 0.445
//   complex double  n = 16: 0.088 / 0.086, 32: 0.501 / 0.478, 48: 0.803 / 0.772, 64: 1.121 / 1.086
// and, in a first form that also took the Q^H A Q form, where the steps
// stay: double n = 16 0.070 / 0.075, complex double n = 8 0.035 / 0.037
// (there the m - 1 steps are short and the team small; its lanes would
// each take 2P - 1 column products of U and Q). Float
// types keep the steps: in float the exact off-norm is at the floor of
// the iteration's rounding on the +-1 matrices of tests/test_syevj_cuda.cpp
// (complex float n = 64, guaranteed shift), and the shared form's own
// rounding (products summed over the rows, or as a step sums them) put it
// at 1.01-1.06 times the tolerance for 100 sweeps; products in double
// converged but cost float 25 % at n = 33 (0.134 / 0.168 ms) and complex
// float 4-9 % at n = 33-64 (the conversions), where float products had
// gained 3-5 % (float n = 64 0.264 / 0.253).
constexpr bool cuda_jacobi_pair_exact_shared(std::size_t real_bytes, bool gram) { return real_bytes == 8 && gram; }

// Whether the pair kernel's update forms the lane's part of the next
// step's product w_k^H w_o row by row (PairColumns::kFusedPart): double
// at 32 slots. Measured 2026-11-25 on an H100 with `batcheig_bench syevj
// --memory device --vectors --reps 3 --cusolver-subset 0` (batch 1 000 at
// n <= 32, 200 beyond), two rounds alternated, ms, apart / fused:
//   double          n = 24: 0.160 / 0.162, 32: 0.216 / 0.215, 33: 0.226 / 0.218,
//                   48: 0.323-0.327 / 0.308-0.313, 64: 0.441 / 0.419-0.421
//   complex double  n = 24: 0.351 / 0.353, 32: 0.475 / 0.477, 33: 0.527 / 0.544,
//                   48: 0.779 / 0.806, 64: 1.089 / 1.126
//   complex float   n = 24: 0.190 / 0.189, 32: 0.275 / 0.270, 33: 0.240 / 0.246,
//                   48: 0.374 / 0.379, 64: 0.479 / 0.485-0.530
constexpr bool cuda_jacobi_pair_fused_part(bool complex, std::size_t real_bytes, int slots) {
    return !complex && real_bytes == 8 && slots == 32;
}

// Whether the pair kernel runs the Gram form (cuda/syevj/syevj_pair.cuh):
// one-sided Jacobi on W = (A + sigma I) Q, the columns of W alone in the
// registers, against the Q^H A Q form (U = A Q and Q). Measured 2026-11-24
// on an H100 with `batcheig_bench syevj --memory device --vectors --batch
// 1000 (n <= 32) | 200 (n > 32) --reps 3`, the two libraries in one lease,
// ms, Q^H A Q form / Gram form:
//   double          n = 8: 0.028 / 0.034, 16: 0.067 / 0.074, 32: 0.254 / 0.230,
//                   33: 0.268 / 0.231, 48: 0.362 / 0.327, 64: 0.483 / 0.453;
//                   batch 100 000, n = 16: 2.447 / 2.354, n = 32: 20.11 / 19.12
//   complex double  n = 8: 0.036 / 0.037, 16: 0.109 / 0.088, 32: 0.652 / 0.492,
//                   33: 0.907 / 0.642, 48: 1.391 / 0.946, 64: 1.959 / 1.256;
//                   batch 100 000, n = 16: 7.00 / 7.15, n = 32: 54.2 / 41.2
//   float           n = 8: 0.021 / 0.024, 16: 0.043 / 0.053, 32: 0.137 / 0.143,
//                   33: 0.139 / 0.143, 48: 0.201 / 0.211, 64: 0.266 / 0.265
//   complex float   n = 8: 0.026 / 0.029, 16: 0.071 / 0.079, 32: 0.327 / 0.288,
//                   33: 0.291 / 0.247, 48: 0.498 / 0.384, 64: 0.640 / 0.489
// The Gram form halves a step's shuffles and updates but adds work per
// sweep and at the end (its diagonal refresh, the Rayleigh quotients, the
// shift's bounds), which small n do not repay; float gains nothing (its
// Q^H A Q form already keeps four matrices per SM at 32 slots). The choice
// depends on the element size and the slot count only (8 bytes: double and
// complex float alike).
constexpr bool cuda_jacobi_pair_gram(std::size_t element_bytes, int slots) {
    if (slots == 64) return true;
    if (element_bytes >= 16) return slots >= 8;
    return element_bytes == 8 && slots >= 16;
}

// Host arrays on the CUDA backend (cuda/streaming.cpp), when the params
// leave them automatic: streams per device, and matrices per chunk, from the
// bytes one matrix moves across the bus (inputs and outputs): about
// cuda_stream_chunk_bytes per chunk, between cuda_stream_chunk_min and
// cuda_stream_chunk_max matrices, and never more than cuda_stream_slot_bytes
// of device buffers per stream. Small batches are cut so that every stream
// of every device gets a chunk. Measured 2026-11-21 on two H200 of one host
// with
//   batcheig_bench geev --host-memory pinned --devices 0,1 --chunk C
//       --streams S --reps 5 --cusolver-subset 0 --n 5,10,20 --batch 500000
// (double, eigenvalues; ms on two GPUs / on GPU 0 alone; 284, 964 and
// 3 524 bytes per matrix at n = 5, 10, 20):
//   C = 8192,  S = 3: n = 5: 3.84 / 7.16,  10: 8.93 / 16.6,  20: 41.0 / 79.2
//   C = 16384, S = 3: n = 5: 2.50 / 4.38,  10: 8.69 / 16.4,  20: 41.5 / 79.5
//   C = 32768, S = 3: n = 5: 1.86 / 3.03,  10: 9.29 / 16.6,  20: 43.8 / 80.4
//   C = 65536, S = 3: n = 5: 1.67 / 2.69,  10: 9.92 / 17.1,  20: 45.9 / 82.5
//   S = 6 was no better (n = 5, C = 32768: 1.79 / 2.76; C = 65536: 2.13 / 2.47,
//   n = 10: 14.0 / 17.1); the earlier rule (64 MiB, 32768..131072) gave
//   1.95 / 2.90, 10.5 / 17.1, 43.7 / 80.4.
// About 16 MiB per chunk lands on the best chunk at each n (n = 5: 59 000,
// 10: 17 400, 20: 8 192 by the floor; 12 288 since session 16, below).
// The chunk is then evened out to whole rounds of one chunk per stream of
// every device (streaming.cpp, chunk_matrices). Measured 2026-11-22 on two
// H200 of one host (a later machine of the same kind; same tool, auto
// chunk, ms on two GPUs / on GPU 0 alone), before -> after:
//   n = 5: 2.40 / 2.47 -> 2.02 / 2.50;  10: 7.93 / 11.6 -> 7.42 / 11.5;
//   20: 29.6 / 53.6 -> 29.9 / 53.6;     30: 80.1 / 156 -> 79.3 / 156.
// The same bytes copied to both GPUs at once without computation
// (batcheig_bench's pinned-transfer-all row) took 1.38 / 4.83 / 16.3 /
// 36.5 ms: the host's PCIe and memory system carry two GPUs' transfers at
// twice one GPU's rate, so the remaining gap at n = 5..10 is the pipeline's.
// Streams per device: 6 when the call runs on one device, 3 per device
// on several. Measured 2026-11-22 (session 12) with `--streams S` (double,
// eigenvalues, 500 000 matrices, ms; n = 5 / 10 / 15 / 20 / 30):
//   one H100, pageable: S = 3: 3.14 / 12.2 / 31.9 / 56.5 / 139;
//                       S = 4: 2.77 / 10.0 / 25.0 / 47.2;  S = 6: 2.78 / 10.1 / 24.0 / 47.3 / 139
//   one H100, pinned:   S = 3: 2.32 / 9.74 / 25.0 / 46.4 / 137;
//                       S = 4: 2.47 / 9.71 / 23.7 / 46.9 / 138;  S = 6: 2.30 / 9.79 / 23.7 / 46.7 / 137
//   two H200, pinned (n = 5 / 10 / 20): S = 3: 2.40 / 6.30 / 26.7;  S = 6: 2.54 / 7.83 / 25.3
//   two H200, pageable:                 S = 3: 5.04 / 9.23 / 34.4;  S = 6: 4.70 / 9.13 / 33.7
// On one device more streams let the host copies (pageable) and
// the chunks' kernels run further apart, so neither waits on the other;
// on two devices six streams each start 12 chunks' transfers at once and
// the first kernels wait longer (pinned n = 10).
// Session 14 (2026-11-22, two H200 of another host, pinned, `--devices 0,1
// --streams S --n 10,15,20,25,30`; two GPUs / the same run's one-GPU row
// with S streams, ms):
//   S = 3: n = 10: 6.71 / 8.22, 15: 14.5 / 21.5, 20: 26.5 / 45.4, 25: 40.4 / 74.7, 30: 69.2 / 132
//   S = 4:         8.12 / 8.43,     12.7 / 20.2,     24.8 / 45.2,     40.6 / 74.8,     67.6 / 132
//   S = 6:         5.50 / 8.10,     10.9 / 19.8,     23.9 / 45.3,     39.5 / 74.7,     68.7 / 132
// Where the kernels dominate (double n = 15 moves 2 KB per matrix) six
// streams per device keep every device's queue full between chunks: two
// GPUs then reach 1.83-1.92x one GPU (1.48-1.91x with three); several
// devices take six from 1.5 KB per matrix (double n >= 13). On two more
// machines of that kind, six were 0-10 % faster at n = 15 and the same
// within the noise at n >= 20 (docs/performance.md, session 14). At
// n <= 10 the machines disagree (session 12: three better), and the two
// GPUs are bound by the host's concurrent transfers either way (4.7 ms at
// n = 10, against 8.1 ms for one GPU: at most 1.7x).
// Session 37 (2026-11-27, two H100 of one host, `nvidia-h100-x2`; one host
// thread now drives all devices, streaming.cpp), `batcheig_bench geev
// --devices 0,1 --n 5,10,20,30 --batch 500000 --reps 3 --streams S
// --cusolver-subset 0 --lapacke-subset 200`, ms on two GPUs (n = 5 / 10 /
// 20 / 30):
//   pinned:   S = 3: 1.368 / 4.689 / 17.80 / 44.61;  S = 6: 1.423 / 4.908 / 18.07 / 45.12
//   pageable: S = 3: 3.625 / 12.14 / 39.85 / 70.77;  S = 6: 3.014 / 9.146 / 35.31 / 71.81
// Pinned: three per device below 1.5 KB per matrix stay 4-5 % faster at
// n = 5 and 10. Pageable: six looked faster in that run, but two more runs
// of the same library (3 streams: 3.06 / 8.48 / 31.2 / 73.0; 6 streams:
// 4.38 / 12.3 / 33.6 / 73.3) put the difference inside the run-to-run
// spread of the host copies, so the rule stays as it was.
inline constexpr int cuda_streams = 6;
inline constexpr int cuda_streams_multi = 3;
inline constexpr long long cuda_streams_multi_more_bytes = 1536;
inline int cuda_streams_per_device(int devices, long long bytes_per_matrix) {
    if (devices <= 1) return cuda_streams;
    return bytes_per_matrix >= cuda_streams_multi_more_bytes ? cuda_streams : cuda_streams_multi;
}
inline constexpr long long cuda_stream_chunk_bytes = 16ll << 20;
// Session 16 (2026-11-23, one H100, pinned, 500 000 matrices, `--chunk C`,
// ms and total / bare transfers at n = 15 / 20 / 25 / 30; the automatic
// chunk was then 7 576 matrices from n = 13 on):
//   auto (7 576): 20.2 (1.088) / 42.5 (1.330) / 76.3 (1.555) / 116.4 (1.667)
//   C = 4 096:    21.3 (1.145) / 43.6 (1.359) / 77.1 (1.572) / 121.9 (1.748)
//   C = 12 288:   20.0 (1.077) / 41.0 (1.280) / 76.3 (1.554) / 114.5 (1.641)
//   C = 16 384:   20.1 (1.085) / 41.5 (1.301) / 75.7 (1.548) / 114.8 (1.651)
//   C = 32 768:   20.6 (1.110) / 41.7 (1.307) / 76.2 (1.560) / 116.2 (1.671)
// so the floor went from 8 192 to 12 288 matrices (each chunk's two
// launches fill the GPU better, and the pipeline's fill and drain stay
// short).
inline constexpr long long cuda_stream_chunk_min = 12288;
// Each device's last chunks, with every array pinned, when a chunk's
// kernels take about the latency of one matrix rather than their share of
// the GPU's throughput: below
// cuda_stream_tail_max_bytes per matrix (double n <= 12 with eigenvalues
// only), and only for batches of at least cuda_stream_tail_min_rounds
// rounds of one chunk per stream of every device. Then every device ends
// with a chunk of 1/2 and one of 1/5 of the call's chunk (the rest of the
// batch in chunks by the rule above), so that after the last copy in less
// is left to compute and to copy out. The kernels of 41 667 matrices of
// order 5 take 0.13 ms on an H200, of 4 096 0.084 ms and of 512 0.066 ms
// (per-matrix latency), and their results 0.08 ms to copy out.
// Measured 2026-11-30 on two H200 of one host (session 62,
// bench/experiments/stream_trace.cpp: a copy of this pipeline on the
// public API, the schedules interleaved within each rep, medians of 11,
// double, eigenvalues, 500 000 matrices, pinned; ms, uniform / 1/2 and
// 1/5 / 1/2, 1/4 and 1/10 / 1/3 and 1/8):
//   n = 5,  two GPUs, 3 streams each: 1.449 / 1.404 / 1.449 / 1.428
//   n = 5,  one GPU, 6 streams:       2.232 / 2.187 / 2.189 / 2.212
//   n = 10, two GPUs:                 4.510 / 4.465 / 4.528 / 4.478
//   n = 10, one GPU:                  7.999 / 8.010 / 7.972 / 8.024
//   n = 20, two GPUs, 6 streams each: 16.39 / 16.56 / 16.52 / 16.84
//   n = 30, two GPUs:                 43.12 / 43.34 / 43.33 / 43.25
//   n = 30, one GPU:                  82.63 / 82.94 / 82.96 / 82.80
// Where the kernels take their share of the throughput (n >= 20) the
// extra chunks cost more than the shorter tail saves. In the library
// (with the first copies on several devices enqueued first, streaming.cpp),
// against session 61's, same machine, processes alternated, two GPUs / one
// GPU, ms: n = 5 1.305 / 2.261, 1.297 / 2.246, 1.312 / 2.234 before;
// 1.226 / 2.233, 1.237 / 2.222, 1.246 / 2.234 after; n = 10 unchanged
// (4.26-4.29 / 7.91-7.98). Pageable arrays keep uniform chunks: their
// call is bound by the host's staging copies, and with the tail two GPUs
// measured 3.06 / 3.29 ms against 2.86 / 3.08 at n = 5 (two rounds).
inline constexpr long long cuda_stream_tail_max_bytes = 1536;
inline constexpr long long cuda_stream_tail_min_rounds = 2;
inline constexpr int cuda_stream_tail_divisors[2] = {2, 5};
inline constexpr long long cuda_stream_chunk_max = 65536;
inline constexpr long long cuda_stream_slot_bytes = 512ll << 20;

}  // namespace batcheig::plan::tuning
