// BATCHEIG_ALG_JACOBI_CUDA_MIXED (double and complex double): the library's
// single-precision Jacobi gives approximate eigenvectors, and a short
// double-precision finish (core/jacobi_refine.hpp) takes them to double
// accuracy. Per call:
//   1. prepare_kernel: the triangle named by uplo, scaled by a power of two
//      to max |a_ij| in [1, 2) (A_s = scale A), rounded to single precision
//      into a full Hermitian working matrix, and A_s itself in double
//      (every GEMM below is then a plain one); ||A_s||_F; NaN / Inf flagged;
//   2. the single-precision Jacobi with vectors (the float type's AUTO
//      variant, chosen by the dispatcher) on that matrix;
//   3. widen_kernel: its vectors widened into X (2 and 3 are
//      mixed_jacobi_stage(); BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG has
//      mixed_tridiag_stage() instead, the tridiagonal stage of
//      syevj_tridiag.cuh, which writes X itself);
//   4. rounds k = 0, 1, ..., mixed_max_updates(n), each (for the matrices still
//      iterating) P = A_s X and G = X^H [X P] = [C S] by batched GEMMs on
//      the FP64 tensor cores (sm_80 and later; the FP64 CUDA cores
//      before), then round_kernel, one block per matrix: refine_measure()
//      gives the Rayleigh quotients, off(S) and ||I - C||_F; X is final
//      when
//          r = max(off(S) / ||A_s||_F, ||I - X^H X||_F) <= tol_used
//      and r is well below tol_used or no longer improving (kMixedSettle),
//      or when the matrix has used its updates; else refine_update()
//      forms F and the third GEMM X <- X F;
//   5. output_kernel: the eigenvalues lambda_i / scale (sorted, the vectors
//      alike), the vectors into A, info, sweeps and residual.
// The GEMMs sum every entry in k order whatever the batch, so a matrix gets
// bitwise the same results in any batch and in any chunk of host arrays.
// Workspace: about 6 n^2 elements per matrix (syevj_mixed_workspace()),
// against n^2 for the grid variant: AUTO never picks this variant.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/problem.hpp"
#include "core/jacobi_refine.hpp"
#include "core/jacobi_syevj.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/syevj/syevj_tridiag.cuh"
#include "cuda/team.cuh"

namespace batcheig::cuda {

// The single-precision type of the first stage (void: no mixed variant).
template <class T> using mixed_lower_t = core::single_t<T>;
template <class T> inline constexpr bool kHasMixed = !std::is_void_v<mixed_lower_t<T>>;

// Most double-precision updates X <- X F per matrix. From the lane
// variant's single-precision vectors two or three reach the tolerance on
// random matrices, three or four on the tests' clustered and graded
// spectra (core/jacobi_refine.hpp); the grid variant's vectors (n > 144)
// take one orthogonalizing step more. One of the tests' matrices at complex
// double n = 512 (orth-similar-cluster: one eigenvalue of magnitude 1 and
// 511 at +-1e-8, random signs, one group) took 10 updates from the
// tridiagonal stage's vectors before that stage's fix for numerically
// dependent group members (kDependentKeep in syevj_tridiag.cuh), 3 after it
// (H200, sessions 52-53); the cap was 16 above n = 256 in between. Every
// round is launched for the whole batch (the host cannot see which matrices
// are final without waiting), so a round after the last matrix is final
// still costs its four launches (whose blocks return at once, about 55 us
// at complex double n = 512, batch 200).
__host__ __device__ constexpr int mixed_max_updates(int) { return 8; }
// tol_used = max(tol, kMixedTolFactor n u). off(S) / ||A_s||_F and
// ||I - C||_F of an X exact to working precision are of order n u: the
// rounding of the GEMMs that form S and C (an entry of C sums n products
// with partial sums of order 1/sqrt(n), or up to 1 on the diagonal, so
// its error is of order u, and there are n^2 of them); and X F inherits
// C's error through R / 2, so the refined X is orthonormal only to about
// that level. Measured on an H200 (test_syevj_cuda "*MIXED*", every
// family, n = 128..256): with 4 n u clustered spectra in complex double
// stalled at 9.3 n u and used all 8 updates; with 16 n u the largest
// accepted residuals were 13.8-15.4 n u, too close to the bound.
inline constexpr double kMixedTolFactor = 32;
// An X below tol_used is final when its residual is at most kMixedSettle
// tol_used or more than half the previous iterate's (the rounding level);
// otherwise it gets one more update. Stopping at the first X below 32 n u
// accepted iterates that had just dropped from far above (up to 31 n u,
// where the next would have been at the rounding level), and at small n
// their orthogonality ratio reached 47 against the tests' 60 (H200,
// test_syevj_accuracy "*structured families*").
inline constexpr double kMixedSettle = 0.125;

// From this order on, the tridiagonal first stage's vectors take an
// orthogonalizing update first (F = I + R/2) when ||R||_F > 1e-4, whatever
// off(S): their S is off-diagonal mostly through lambda_j r_ij, so the
// usual test (core::jacobi::kRefineOrthFirst) does not see that R dominates,
// and delta = 20 (off(S) + max|lambda| ||R||_F) chained most of the
// spectrum into groups. Measured 2026-11-29 on an H200 (`batcheig_bench
// syevj --memory device --vectors --n 256,512 --batch 200 --algorithm
// jacobi-cuda-mixed-tridiag`, ms, without / with): double n = 256 13.03 /
// 13.06, n = 512 210.6 / 112.1; complex double n = 256 28.20 / 28.18
// (at n = 256 the step did not trigger), n = 512 2 722 / 1 834 (one matrix
// of the 200 not converged either way, measured before the Sturm-count fix
// of syevj_tridiag.cuh that addresses it). The step is refine_measure()'s
// `orthogonalize`, asked for in round_kernel.
inline constexpr int kMixedTridiagOrthFirstMinN = 257;

namespace syevj_mixed_detail {

// Per-matrix state of a call.
struct State {
    double scale;     // A_s = scale A
    double anorm;     // ||A_s||_F
    double residual;  // the last round's max(off(S) / ||A_s||_F, ||I - C||_F)
    double previous;  // the round before's (infinity at first)
    int info;         // BATCHEIG_INFO_NONFINITE from the start, else set when final
    int fsweeps;      // the single-precision stage's sweeps
    int updates;      // X <- X F applied
    int parity;       // half of Y that holds X once final
    int done;         // 1: final (or NONFINITE), no more work
};

// Byte offsets of the workspace's arrays (each 256-byte aligned).
template <class T>
struct Layout {
    using F = mixed_lower_t<T>;
    std::size_t st, as, y, g, a32, fw, finfo, fsweeps, fws, q, lam, reals, ints, rot, total;
    Layout(int n, std::int64_t batch, std::size_t float_ws) {
        const std::size_t nn = std::size_t(n) * std::size_t(n), b = std::size_t(batch), nb = std::size_t(n) * b;
        std::size_t off = 0;
        auto take = [&](std::size_t bytes) {
            const std::size_t o = off;
            off += align256(bytes);
            return o;
        };
        st = take(sizeof(State) * b);
        as = take(nn * b * sizeof(T));
        y = take(2 * nn * b * sizeof(T));
        // G = [C S], or before it the single-precision stage's arrays.
        g = off;
        a32 = take(nn * b * sizeof(F));
        fw = take(nb * sizeof(float));
        finfo = take(b * sizeof(int));
        fsweeps = take(b * sizeof(int));
        fws = take(float_ws);
        off = std::max(off, g + align256(2 * nn * b * sizeof(T)));
        q = take(nn * b * sizeof(T));
        lam = take(nb * sizeof(double));
        reals = take(3 * nb * sizeof(double));
        ints = take(2 * nb * sizeof(core::index_t));
        rot = take(std::size_t(core::jacobi::players(n) / 2) * b * sizeof(core::jacobi::Rotation<T>));
        total = off;
    }
};

__host__ __device__ inline float lower_of(double x) { return float(x); }
__host__ __device__ inline core::complex<float> lower_of(core::complex<double> x) {
    return {float(x.re), float(x.im)};
}
__host__ __device__ inline double widen_of(float x) { return x; }
__host__ __device__ inline core::complex<double> widen_of(core::complex<float> x) { return {x.re, x.im}; }

// Entry (i, j) of the Hermitian matrix whose triangle `lower` (i >= j) or
// upper (i <= j) is stored at a with leading dimension lda.
template <class T>
__device__ inline T herm_entry(const T *a, int lda, bool lower, int i, int j) {
    return core::jacobi::hermitian_entry(lower, core::MatView<const T>{a, lda, 1}, i, j);
}

// One block per matrix: scale, ||A_s||_F, NaN / Inf, the single-precision
// working matrix (ld n).
template <class T>
__global__ __launch_bounds__(256) void prepare_kernel(SyevjProblem<T> p, std::int64_t b0, T *as,
                                                      mixed_lower_t<T> *a32, State *st) {
    __shared__ unsigned long long red[32];
    const BlockTeam tm{red};
    const std::int64_t b = b0 + blockIdx.x;
    const int n = p.n;
    const T *a = p.A + b * std::int64_t(p.lda) * n;
    double mx = 0;
    int bad = 0;
    for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
        const int i = e % n, j = e / n;
        if (p.lower ? i < j : i > j) continue;
        core::jacobi::check_entry(herm_entry(a, p.lda, p.lower, i, j), mx, bad);
    }
    bad = tm.max(bad);
    mx = tm.max(mx);
    double scale = 1;
    if (!bad && mx > 0) scale = ldexp(1.0, -::max(ilogb(mx), -1022));
    double ss = 0;
    mixed_lower_t<T> *w = a32 + b * std::int64_t(n) * n;
    T *af = as + b * std::int64_t(n) * n;
    for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
        const int i = e % n, j = e / n;
        T x = bad ? T(0) : herm_entry(a, p.lda, p.lower, i, j) * scale;
        ss += core::jacobi::abs2(x);
        af[e] = x;
        w[e] = lower_of(x);
    }
    ss = tm.sum(ss);
    if (tm.leader()) {
        State s{};
        s.scale = scale;
        s.anorm = sqrt(ss);
        s.previous = __longlong_as_double(0x7ff0000000000000ll);  // +infinity
        s.info = bad ? BATCHEIG_INFO_NONFINITE : 0;
        s.done = bad;
        st[b] = s;
    }
}

// X (half 0 of Y) from the single-precision vectors; the stage's sweeps.
template <class T>
__global__ __launch_bounds__(256) void widen_kernel(int n, std::int64_t b0, const mixed_lower_t<T> *a32,
                                                    const int *fsweeps, T *y, State *st) {
    const std::int64_t b = b0 + blockIdx.x;
    const std::size_t nn = std::size_t(n) * n;
    if (threadIdx.x == 0) st[b].fsweeps = fsweeps[b];
    if (st[b].done) return;
    for (std::size_t e = threadIdx.x; e < nn; e += blockDim.x) y[2 * nn * b + e] = widen_of(a32[nn * b + e]);
}

// ---------------------------------------------------------------------------
// Batched GEMM C = op(A) B over the matrices still iterating, 64 x 64 tiles
// of C per block, k in slices of 16 through shared memory; every entry is
// summed in k order, whatever the batch.

enum class OpA { N, H };  // A; A^H

template <class T>
struct Gemm {
    int m, ncols, k;
    const T *a;
    int lda;
    long long sa;
    const T *b;
    int ldb;
    long long sb;
    T *c;
    int ldc;
    long long sc;
    const State *st;
    // herm: C is ncols / m Hermitian m x m blocks side by side (G = X^H
    // [X, A X]). Only the tiles on or below each block's diagonal are
    // computed; each strictly lower tile also writes its conjugate
    // transpose, so a block's upper triangle is exactly the conjugate of
    // its lower one.
    bool herm = false;
};

// The tile of C that a block computes: rows i0.., columns j0.. below jend
// (the end of its Hermitian block, or ncols); mirror: also write the
// conjugate transpose (a strictly lower tile of a Hermitian block).
struct TileSpan {
    int i0, j0, jend;
    bool mirror;
};
template <class T>
__host__ __device__ inline int gemm_tiles(const Gemm<T> &g) {
    const int tm = (g.m + 63) / 64;
    return g.herm ? (g.ncols / g.m) * (tm * (tm + 1) / 2) : tm * ((g.ncols + 63) / 64);
}
template <class T>
__device__ inline TileSpan tile_span(const Gemm<T> &g, int tl) {
    const int tm = (g.m + 63) / 64;
    if (!g.herm) return {(tl % tm) * 64, (tl / tm) * 64, g.ncols, false};
    const int per = tm * (tm + 1) / 2, h = tl / per, t = tl % per;
    int ti = 0;
    while ((ti + 1) * (ti + 2) / 2 <= t) ++ti;
    const int tj = t - ti * (ti + 1) / 2;
    return {ti * 64, h * g.m + tj * 64, (h + 1) * g.m, ti != tj};
}
// Stores C(gi, gj) = v of a tile, and its mirror entry when sp.mirror.
template <class T>
__device__ inline void store_c(const Gemm<T> &g, T *c, const TileSpan &sp, int gi, int gj, T v) {
    if (gi >= g.m || gj >= sp.jend) return;
    c[std::size_t(gj) * g.ldc + gi] = v;
    if (sp.mirror) {
        const int h0 = sp.jend - g.m;  // the Hermitian block's first column
        c[std::size_t(h0 + gi) * g.ldc + (gj - h0)] = core::conj(v);
    }
}

// op(A)(i, kk) of matrix mat, zero outside.
template <OpA kOp, class T>
__device__ inline T load_a(const Gemm<T> &g, std::int64_t mat, int i, int kk) {
    if (i >= g.m || kk >= g.k) return T(0);
    const T *a = g.a + g.sa * mat;
    if constexpr (kOp == OpA::N) return a[std::size_t(kk) * g.lda + i];
    else return core::conj(a[std::size_t(i) * g.lda + kk]);
}
template <class T>
__device__ inline T load_b(const Gemm<T> &g, std::int64_t mat, int kk, int j, int jend) {
    if (j >= jend || kk >= g.k) return T(0);
    return g.b[g.sb * mat + std::size_t(j) * g.ldb + kk];
}
// The shared-memory slice's index e -> (kk, i): i fastest where op(A) is
// contiguous in i (A itself), kk fastest where it is contiguous in kk (A^H).
template <OpA kOp>
__device__ inline void slice_index(int e, int &kk, int &i) {
    if constexpr (kOp == OpA::H) kk = e & 15, i = e >> 4;
    else i = e & 63, kk = e >> 6;
}

// On the FP64 CUDA cores (devices before sm_80): 256 threads, 4 x 4 entries each.
template <OpA kOp, class T>
__global__ void __launch_bounds__(256) gemm_kernel(Gemm<T> g, std::int64_t m0, int tiles) {
    __shared__ alignas(16) unsigned char raw[2 * 16 * 65 * sizeof(T)];
    T(*as)[65] = reinterpret_cast<T(*)[65]>(raw);
    T(*bs)[65] = reinterpret_cast<T(*)[65]>(raw + 16 * 65 * sizeof(T));
    const std::int64_t mat = m0 + blockIdx.x / tiles;
    if (g.st[mat].done) return;
    const TileSpan sp = tile_span(g, blockIdx.x % tiles);
    const int i0 = sp.i0, j0 = sp.j0;
    const int tx = threadIdx.x & 15, ty = threadIdx.x >> 4;
    T acc[4][4];
#pragma unroll
    for (int x = 0; x < 4; ++x)
#pragma unroll
        for (int y = 0; y < 4; ++y) acc[x][y] = T(0);
    for (int k0 = 0; k0 < g.k; k0 += 16) {
        for (int e = threadIdx.x; e < 16 * 64; e += 256) {
            int kk, i;
            slice_index<kOp>(e, kk, i);
            as[kk][i] = load_a<kOp>(g, mat, i0 + i, k0 + kk);
            const int bk = e & 15, bj = e >> 4;
            bs[bk][bj] = load_b(g, mat, k0 + bk, j0 + bj, sp.jend);
        }
        __syncthreads();
#pragma unroll
        for (int kk = 0; kk < 16; ++kk) {
            T ra[4], rb[4];
#pragma unroll
            for (int x = 0; x < 4; ++x) ra[x] = as[kk][ty + 16 * x], rb[x] = bs[kk][tx + 16 * x];
#pragma unroll
            for (int x = 0; x < 4; ++x)
#pragma unroll
                for (int y = 0; y < 4; ++y) acc[x][y] += ra[x] * rb[y];
        }
        __syncthreads();
    }
    T *c = g.c + g.sc * mat;
#pragma unroll
    for (int x = 0; x < 4; ++x)
#pragma unroll
        for (int y = 0; y < 4; ++y) store_c(g, c, sp, i0 + ty + 16 * x, j0 + tx + 16 * y, acc[x][y]);
}

// On the FP64 tensor cores (mma.m8n8k4: A 8 x 4 row-major, lane l holds
// A(l / 4, l % 4); B 4 x 8 column-major, B(l % 4, l / 4); C 8 x 8,
// C(l / 4, 2 (l % 4) + h)); the warps' shares: dmma_threads().
__device__ inline void dmma_8x8x4(double &c0, double &c1, double a, double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    // Not volatile: the compiler may schedule the products like other arithmetic.
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%0, %1};\n"
        : "+d"(c0), "+d"(c1)
        : "d"(a), "d"(b));
#else
    // Not reached: the host takes gemm_kernel on devices before sm_80.
    (void)c0, (void)c1, (void)a, (void)b;
    __trap();
#endif
}

// Two m8n8k4 products stacked in M, as one mma.m16n8k4 on sm_90 and later
// (A 16 x 4: a0 = A(l / 4, l % 4) is the first product's fragment, a1 the
// second's, eight rows below; B shared; C 16 x 8: c0, c1 the first
// product's entries, c2, c3 the second's). Measured on an H200
// (bench/experiments/dmma_shapes.cu, session 55): m8n8k4 issues at 33.2
// TFLOP/s, m16n8k4 at 66.6, the FP64 tensor cores' peak.
__device__ inline void dmma_16x8x4(double &c0, double &c1, double &c2, double &c3, double a0, double a1,
                                   double b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};\n"
        : "+d"(c0), "+d"(c1), "+d"(c2), "+d"(c3)
        : "d"(a0), "d"(a1), "d"(b));
#else
    dmma_8x8x4(c0, c1, a0, b);
    dmma_8x8x4(c2, c3, a1, b);
#endif
}

// An asynchronous 8-byte copy from global to shared memory (sm_80 and
// later), zeros where !valid (src is then not read).
__device__ inline void copy_async8(double *dst, const double *src, bool valid) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;\n" ::"r"(d), "l"(src), "r"(valid ? 8 : 0) : "memory");
#else
    (void)dst, (void)src, (void)valid;
    __trap();
#endif
}
__device__ inline void copy_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
// Waits until at most `pending` (0 or 1) of this thread's groups are in flight.
template <int pending>
__device__ inline void copy_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(pending) : "memory");
#endif
}

// A slice's tiles in shared memory: those whose global loads run along k
// (B; A for OpA::H) as 64 rows of 16 k, rows 20 apart; A otherwise as 16
// rows of 64, rows 68 apart. With these strides neither the slice's stores
// nor the warps' fragment loads have bank conflicts.
template <bool kKFast>
__device__ inline int tile_at(int kk, int i) {
    return kKFast ? i * 20 + kk : kk * 68 + i;
}
constexpr int kTileDoubles = 64 * 20;  // >= 16 * 68
constexpr int kDmmaStages = 2;         // slices in flight: one computed, one loading
template <class T>
constexpr std::size_t dmma_shared_bytes() {
    return std::size_t(kDmmaStages) * 2 * (std::is_same_v<T, double> ? 1 : 2) * kTileDoubles * sizeof(double);
}

// Threads of dmma_kernel's block: double four warps of 32 x 32 entries;
// complex double eight warps of 16 x 32 (three accumulator sets, below).
template <class T>
__host__ __device__ constexpr int dmma_threads() {
    return std::is_same_v<T, double> ? 128 : 256;
}

// Blocks per SM that dmma_kernel's registers must allow: two in complex
// double (at most 128 registers, no spills with ptxas 13.0 for sm_90, 16
// warps per SM; 152 registers and 8 warps without the bound), one in double.
template <class T>
__host__ __device__ constexpr int dmma_min_blocks() {
    return std::is_same_v<T, double> ? 1 : 2;
}

// Complex double as three real products per pair of fragments (Gauss,
// "3M"): with op(A) = Ar + i Ai and B = Br + i Bi, the warps accumulate
// T1 = Ar Br, T2 = Ai Bi and T3 = (Ar + Ai)(Br + Bi) (the sums rounded in
// double as the fragments are read), and C = (T1 - T2) + i ((T3 - T1) - T2):
// a quarter fewer products than the four of the plain form. The real and
// imaginary parts of each operand tile are in their own shared arrays; for
// OpA::H the tile holds A's own imaginary parts, negated as they are read.
// Slices of 16 k go through shared memory by asynchronous copies, the next
// one loading while the warps multiply the current one.
template <OpA kOp, class T>
__global__ void __launch_bounds__(dmma_threads<T>(), dmma_min_blocks<T>()) dmma_kernel(Gemm<T> g, std::int64_t m0, int tiles) {
    constexpr bool kC = !std::is_same_v<T, double>;
    constexpr int P = kC ? 2 : 1;       // parts in shared memory
    constexpr int NA = kC ? 3 : 1;      // accumulator sets
    constexpr int X = kC ? 2 : 4;       // 8-row fragments per warp
    constexpr int NT = dmma_threads<T>();
    constexpr bool kAK = kOp == OpA::H;  // A's tile k-fast
    extern __shared__ double dmma_smem[];
    // Stage s, operand o (0: A, 1: B), part q.
    auto tile = [](int s, int o, int q) { return dmma_smem + ((s * 2 + o) * P + q) * kTileDoubles; };
    const std::int64_t mat = m0 + blockIdx.x / tiles;
    if (g.st[mat].done) return;
    const TileSpan sp = tile_span(g, blockIdx.x % tiles);
    const int i0 = sp.i0, j0 = sp.j0;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int wi = (warp >> 1) * 8 * X, wj = (warp & 1) * 32;
    const double *ga = reinterpret_cast<const double *>(g.a + g.sa * mat);
    const double *gb = reinterpret_cast<const double *>(g.b + g.sb * mat);
    // Slice k0 into stage st: op(A)(i0 + i, k0 + kk) and B(k0 + kk, j0 + j).
    auto load = [&](int k0, int st) {
        for (int e = threadIdx.x; e < 16 * 64; e += NT) {
            int kk, i;
            slice_index<kOp>(e, kk, i);
            const bool va = i0 + i < g.m && k0 + kk < g.k;
            const std::size_t ea = va ? (kAK ? std::size_t(i0 + i) * g.lda + (k0 + kk)
                                             : std::size_t(k0 + kk) * g.lda + (i0 + i))
                                      : 0;
            const int bk = e & 15, bj = e >> 4;
            const bool vb = j0 + bj < sp.jend && k0 + bk < g.k;
            const std::size_t eb = vb ? std::size_t(j0 + bj) * g.ldb + (k0 + bk) : 0;
#pragma unroll
            for (int q = 0; q < P; ++q) {
                copy_async8(tile(st, 0, q) + tile_at<kAK>(kk, i), ga + P * ea + q, va);
                copy_async8(tile(st, 1, q) + tile_at<true>(bk, bj), gb + P * eb + q, vb);
            }
        }
        copy_async_commit();
    };
    double acc[NA][X][4][2];
#pragma unroll
    for (int q = 0; q < NA; ++q)
#pragma unroll
        for (int x = 0; x < X; ++x)
#pragma unroll
            for (int y = 0; y < 4; ++y) acc[q][x][y][0] = acc[q][x][y][1] = 0;
    const int slices = (g.k + 15) / 16;
    load(0, 0);
    for (int sl = 0; sl < slices; ++sl) {
        const int st = sl % kDmmaStages;
        if (sl + 1 < slices) load(16 * (sl + 1), (sl + 1) % kDmmaStages);
        else copy_async_commit();  // an empty group: the wait below counts alike
        copy_async_wait<1>();      // slice sl has landed (this thread's copies)
        __syncthreads();           // ... and every thread's
#pragma unroll
        for (int kk = 0; kk < 16; kk += 4) {
            double fa[NA][X], fb[NA][4];
#pragma unroll
            for (int q = 0; q < P; ++q) {
#pragma unroll
                for (int x = 0; x < X; ++x)
                    fa[q][x] = tile(st, 0, q)[tile_at<kAK>(kk + (lane & 3), wi + 8 * x + (lane >> 2))];
#pragma unroll
                for (int y = 0; y < 4; ++y)
                    fb[q][y] = tile(st, 1, q)[tile_at<true>(kk + (lane & 3), wj + 8 * y + (lane >> 2))];
            }
            if constexpr (kC) {
                if constexpr (kAK)
#pragma unroll
                    for (int x = 0; x < X; ++x) fa[1][x] = -fa[1][x];  // conj(A)
#pragma unroll
                for (int x = 0; x < X; ++x) fa[2][x] = fa[0][x] + fa[1][x];
#pragma unroll
                for (int y = 0; y < 4; ++y) fb[2][y] = fb[0][y] + fb[1][y];
            }
            // Product by product over the fragment pairs (two 8-row
            // fragments stacked per product), so that consecutive products
            // go to different accumulators; each accumulator still takes
            // its products in the same order.
#pragma unroll
            for (int pr = 0; pr < NA; ++pr)
#pragma unroll
                for (int x = 0; x < X; x += 2)
#pragma unroll
                    for (int y = 0; y < 4; ++y)
                        dmma_16x8x4(acc[pr][x][y][0], acc[pr][x][y][1], acc[pr][x + 1][y][0], acc[pr][x + 1][y][1],
                                    fa[pr][x], fa[pr][x + 1], fb[pr][y]);
        }
        __syncthreads();  // stage st is free for slice sl + 2
    }
    T *c = g.c + g.sc * mat;
#pragma unroll
    for (int x = 0; x < X; ++x)
#pragma unroll
        for (int y = 0; y < 4; ++y)
#pragma unroll
            for (int h = 0; h < 2; ++h) {
                const int gi = i0 + wi + 8 * x + (lane >> 2), gj = j0 + wj + 8 * y + 2 * (lane & 3) + h;
                if constexpr (kC) {
                    const double t1 = acc[0][x][y][h], t2 = acc[1][x][y][h], t3 = acc[NA - 1][x][y][h];
                    store_c(g, c, sp, gi, gj, T(t1 - t2, (t3 - t1) - t2));
                } else {
                    store_c(g, c, sp, gi, gj, acc[0][x][y][h]);
                }
            }
}

// Whether the tensor-core kernel was compiled for sm_80 or later: the
// device's compute capability is not enough, since a build for an older
// architecture runs on a newer GPU through its PTX, whose DMMA stub traps.
template <class T>
bool dmma_compiled() {
    cudaFuncAttributes attr{};
    return cudaFuncGetAttributes(&attr, dmma_kernel<OpA::N, T>) == cudaSuccess && attr.ptxVersion >= 80;
}

// Launches C = op(A) B over matrices [0, batch), in pieces whose block
// count fits a 32-bit grid.
template <OpA kOp, class T>
batcheigStatus_t gemm(cudaStream_t s, const Gemm<T> &g, std::int64_t batch, bool dmma) {
    const int tiles = gemm_tiles(g);
    if (dmma) {
        const batcheigStatus_t st = allow_shared(dmma_kernel<kOp, T>, dmma_shared_bytes<T>());
        if (st != BATCHEIG_STATUS_SUCCESS) return st;
    }
    const std::int64_t per = std::max<std::int64_t>(1, std::int64_t(0x7fffffff) / tiles);
    for (std::int64_t m0 = 0; m0 < batch; m0 += per) {
        const std::int64_t count = std::min(per, batch - m0);
        const unsigned blocks = unsigned(count * tiles);
        if (dmma) {
            dmma_kernel<kOp, T><<<blocks, dmma_threads<T>(), dmma_shared_bytes<T>(), s>>>(g, m0, tiles);
            BATCHEIG_CUDA_CHECK_LAUNCH();
            continue;
        }
        gemm_kernel<kOp, T><<<blocks, 256, 0, s>>>(g, m0, tiles);
        BATCHEIG_CUDA_CHECK_LAUNCH();
    }
    return BATCHEIG_STATUS_SUCCESS;
}

// ---------------------------------------------------------------------------

// The per-matrix arrays of the rounds.
template <class T>
struct Arrays {
    State *st;
    T *y, *g, *q;
    double *lam, *reals;
    core::index_t *ints;
    core::jacobi::Rotation<T> *rot;
};

// Matrix b's scratch for refine_update(): ints (2 n: the ascending order
// and the groups' starts), its slices of q, reals and rot; `dead` (n x n,
// ld n) holds the group blocks and the product F(:, g) Q_g.
template <class T>
__device__ core::jacobi::RefineScratch<T> refine_scratch(const Arrays<T> &ar, int n, std::int64_t b,
                                                         core::index_t *ints, T *dead) {
    const std::size_t nn = std::size_t(n) * n;
    return {ints,
            ints + n,
            core::MatView<T>{dead, n, 1},
            ar.q + nn * b,
            core::MatView<T>{dead, n, 1},
            core::VecView<double>{ar.reals + 3 * n * b, 1},
            core::VecView<double>{ar.reals + 3 * n * b + n, 1},
            core::VecView<double>{ar.reals + 3 * n * b + 2 * n, 1},
            ar.rot + b * (core::jacobi::players(n) / 2)};
}

// round_kernel keeps lambda, the order and the groups' starts in shared
// memory up to this n (16 n bytes, 32 KB), else in the workspace: the
// group scans and sorted_position() read them n times per member.
inline constexpr int kRoundSharedMaxN = 2048;
inline std::size_t round_shared_bytes(int n) {
    return n <= kRoundSharedMaxN ? std::size_t(n) * (sizeof(double) + 2 * sizeof(core::index_t)) : 0;
}

// One block per matrix still iterating: X is half hx of Y, C half hx of G
// and S half 1 - hx. Tests X; if it is not final, F over C.
template <class T>
__global__ __launch_bounds__(512) void round_kernel(int n, std::int64_t b0, Arrays<T> ar, int hx, double tol,
                                                   int max_sweeps, bool orth_first) {
    __shared__ unsigned long long red[32];
    extern __shared__ double round_shared[];
    const BlockTeam tm{red};
    const std::int64_t b = b0 + blockIdx.x;
    State &st = ar.st[b];
    if (st.done) return;
    const std::size_t nn = std::size_t(n) * n;
    T *gb = ar.g + 2 * nn * b;
    const core::MatView<T> cv{gb + nn * hx, n, 1}, sv{gb + nn * (1 - hx), n, 1};
    const bool in_shared = n <= kRoundSharedMaxN;
    double *lam_out = ar.lam + n * b;
    const core::VecView<double> lam{in_shared ? round_shared : lam_out, 1};
    core::index_t *ints = in_shared ? reinterpret_cast<core::index_t *>(round_shared + n) : ar.ints + 2 * n * b;
    // orth_first: the first update only orthogonalizes when ||R||_F is
    // above the step's floor (see kMixedTridiagOrthFirstMinN).
    const auto norms = core::jacobi::refine_measure(tm, n, cv, sv, lam, orth_first && st.updates == 0);
    const double off = norms.off > 0 ? norms.off / st.anorm : 0.0;
    const double r = fmax(off, norms.rnorm);
    const int budget = ::min(mixed_max_updates(n), ::max(0, max_sweeps - st.fsweeps));
    // Below the tolerance, X is final once it is well below it or no
    // longer improving; one that has just dropped below it from far above
    // gets one more update (see kMixedSettle).
    const bool converged = r <= tol;
    const bool settled = r <= tol * kMixedSettle || r > 0.5 * st.previous;
    const bool final = (converged && settled) || st.updates >= budget;
    if (!final) {
        // The dead half of Y (A X, consumed by G) holds the scratch blocks.
        const auto ws = refine_scratch(ar, n, b, ints, ar.y + 2 * nn * b + nn * (1 - hx));
        core::jacobi::refine_update(tm, n, cv, sv, lam, ws, norms);
    }
    if (in_shared)  // both routines end with a sync: lambda is complete
        for (int j = threadIdx.x; j < n; j += blockDim.x) lam_out[j] = lam[j];
    tm.sync();  // every member has read st before the leader writes it
    if (!tm.leader()) return;
    if (final) {
        st.residual = r;
        st.info = converged ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
        st.parity = hx;
        st.done = 1;
    } else {
        st.updates += 1;
        st.previous = r;
    }
}

// One block per matrix: eigenvalues (sorted, or in X's order), vectors,
// info, sweeps, residual.
template <class T>
__global__ __launch_bounds__(256) void output_kernel(SyevjProblem<T> p, std::int64_t b0, Arrays<T> ar) {
    const std::int64_t b = b0 + blockIdx.x;
    const int n = p.n;
    const State st = ar.st[b];
    double *w = p.w + b * n;
    T *a = p.A + b * std::int64_t(p.lda) * n;
    if (st.info == BATCHEIG_INFO_NONFINITE) {
        for (int j = threadIdx.x; j < n; j += blockDim.x) w[j] = core::make_nan<double>();
        if (p.want_v)
            for (int e = threadIdx.x; e < n * n; e += blockDim.x) a[std::size_t(e / n) * p.lda + e % n] = core::make_nan<T>();
    } else {
        const std::size_t nn = std::size_t(n) * n;
        const core::VecView<double> lam{ar.lam + n * b, 1};
        core::index_t *pos = ar.ints + 2 * n * b;
        for (int j = threadIdx.x; j < n; j += blockDim.x) {
            pos[j] = p.sort ? core::jacobi::sorted_position(n, lam, j) : j;
            w[pos[j]] = lam[j] / st.scale;
        }
        __syncthreads();
        if (p.want_v) {
            const T *x = ar.y + 2 * nn * b + nn * st.parity;
            for (int e = threadIdx.x; e < n * n; e += blockDim.x) {
                const int i = e % n, j = e / n;
                a[std::size_t(pos[j]) * p.lda + i] = x[e];
            }
        }
    }
    if (threadIdx.x == 0) {
        const bool bad = st.info == BATCHEIG_INFO_NONFINITE;
        p.info[b] = st.info;
        if (p.sweeps) p.sweeps[b] = bad ? 0 : st.fsweeps + st.updates;
        if (p.residual) p.residual[b] = bad ? core::make_nan<double>() : st.residual;
    }
}

// round_kernel's block: its loops over the n^2 entries of C and S wait on
// their loads, so the more members the shorter the round (a block per
// matrix; 200 matrices leave most of the GPU's warp slots free).
inline int round_threads(int n) { return n <= 32 ? 32 : n <= 64 ? 64 : n <= 128 ? 256 : 512; }

}  // namespace syevj_mixed_detail

// Workspace of the mixed variant: float_ws is the single-precision stage's.
template <class T>
std::size_t syevj_mixed_workspace(int n, std::int64_t batch, std::size_t float_ws) {
    return syevj_mixed_detail::Layout<T>(n, batch, float_ws).total;
}

// The tolerance the mixed variant tests with (see batcheig.h).
inline double syevj_mixed_tolerance(double tol, int n) {
    const double u = core::limits<double>::eps();  // the unit roundoff
    return std::max(tol > 0 ? tol : 2 * u, kMixedTolFactor * n * u);
}

// What the first stage of a mixed call works on: it reads the scaled
// single-precision working matrices a32 (full Hermitian, ld n) and writes
// X (half 0 of Y, ld n) of every matrix not done (ar.st), with its own
// part of the workspace at `fws` (float_ws bytes) and, for the Jacobi
// stage, the arrays fw, finfo and fsweeps of the layout.
template <class T>
struct MixedStage {
    cudaStream_t s;
    const SyevjProblem<T> *p;
    syevj_mixed_detail::Arrays<T> ar;
    mixed_lower_t<T> *a32;
    float *fw;
    int *finfo, *fsweeps;
    void *fws;
    std::size_t float_ws;
};

// BATCHEIG_ALG_JACOBI_CUDA_MIXED's first stage: solve_float(pf, work)
// runs the single-precision Jacobi on device arrays, then its vectors are
// widened into X (and its sweeps into the state).
template <class T, class SolveFloat>
batcheigStatus_t mixed_jacobi_stage(const MixedStage<T> &ms, SolveFloat &&solve_float) {
    using namespace syevj_mixed_detail;
    using F = mixed_lower_t<T>;
    const SyevjProblem<T> &p = *ms.p;
    SyevjProblem<F> pf;
    pf.want_v = true;
    pf.lower = true;
    pf.n = p.n;
    pf.A = ms.a32;
    pf.lda = p.n;
    pf.w = ms.fw;
    pf.info = ms.finfo;
    pf.batch = p.batch;
    pf.tolerance = p.tolerance;
    pf.max_sweeps = p.max_sweeps;
    pf.sort = false;
    pf.sweeps = ms.fsweeps;
    pf.call_batch = p.call_batch;
    const batcheigStatus_t stt = solve_float(pf, ms.float_ws ? ms.fws : nullptr);
    if (stt != BATCHEIG_STATUS_SUCCESS) return stt;
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        widen_kernel<T><<<unsigned(count), 256, 0, ms.s>>>(p.n, b0, ms.a32, ms.fsweeps, ms.ar.y, ms.ar.st);
    });
}

template <class T>
bool syevj_mixed_tridiag_fits(int n) {
    if constexpr (kHasMixed<T>)
        return syevj_tridiag_fits<mixed_lower_t<T>>(n);
    else
        return false;
}

// BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG's first stage: the tridiagonal
// stage of syevj_tridiag.cuh, which writes X itself.
template <class T>
batcheigStatus_t mixed_tridiag_stage(const MixedStage<T> &ms) {
    return syevj_tridiag<mixed_lower_t<T>, T>(ms.s, ms.p->n, ms.p->batch, ms.a32, ms.fws, ms.ar.y, ms.ar.st);
}

// A mixed call: prepare_kernel, first_stage(const MixedStage<T> &) (one
// of the two above), the rounds of the double finish and output_kernel.
// From order orth_first_min_n on, the finish's first update only
// orthogonalizes when ||R||_F is above the step's floor (see
// kMixedTridiagOrthFirstMinN).
template <class T, class FirstStage>
batcheigStatus_t syevj_mixed(cudaStream_t s, const SyevjProblem<T> &p, std::size_t float_ws, void *work,
                             FirstStage &&first_stage, int orth_first_min_n) {
    using namespace syevj_mixed_detail;
    using F = mixed_lower_t<T>;
    const int n = p.n;
    const std::int64_t batch = p.batch;
    const Layout<T> L(n, batch, float_ws);
    unsigned char *base = static_cast<unsigned char *>(work);
    Arrays<T> ar;
    ar.st = reinterpret_cast<State *>(base + L.st);
    ar.y = reinterpret_cast<T *>(base + L.y);
    ar.g = reinterpret_cast<T *>(base + L.g);
    ar.q = reinterpret_cast<T *>(base + L.q);
    ar.lam = reinterpret_cast<double *>(base + L.lam);
    ar.reals = reinterpret_cast<double *>(base + L.reals);
    ar.ints = reinterpret_cast<core::index_t *>(base + L.ints);
    ar.rot = reinterpret_cast<core::jacobi::Rotation<T> *>(base + L.rot);
    T *as = reinterpret_cast<T *>(base + L.as);
    F *a32 = reinterpret_cast<F *>(base + L.a32);

    batcheigStatus_t stt = launch_pieces(batch, [&](std::int64_t b0, std::int64_t count) {
        prepare_kernel<T><<<unsigned(count), 256, 0, s>>>(p, b0, as, a32, ar.st);
    });
    if (stt != BATCHEIG_STATUS_SUCCESS) return stt;

    const MixedStage<T> ms{s,
                           &p,
                           ar,
                           a32,
                           reinterpret_cast<float *>(base + L.fw),
                           reinterpret_cast<int *>(base + L.finfo),
                           reinterpret_cast<int *>(base + L.fsweeps),
                           base + L.fws,
                           float_ws};
    if ((stt = first_stage(ms)) != BATCHEIG_STATUS_SUCCESS) return stt;

    const bool dmma = dmma_compiled<T>();
    const bool orth_first = n >= orth_first_min_n;
    const double tol = syevj_mixed_tolerance(p.tolerance, n);
    const int max_sweeps = p.max_sweeps > 0 ? p.max_sweeps : 100;
    const long long nn = static_cast<long long>(n) * n;
    int hx = 0;
    const int max_updates = mixed_max_updates(n);
    for (int k = 0; k <= max_updates; ++k) {
        T *x = ar.y + nn * hx, *px = ar.y + nn * (1 - hx);
        // P = A_s X
        Gemm<T> g1{n, n, n, as, n, nn, x, n, 2 * nn, px, n, 2 * nn, ar.st};
        if ((stt = gemm<OpA::N>(s, g1, batch, dmma)) != BATCHEIG_STATUS_SUCCESS) return stt;
        // G = X^H [Y0 Y1], both halves Hermitian: their lower tiles only
        Gemm<T> g2{n, 2 * n, n, x, n, 2 * nn, ar.y, n, 2 * nn, ar.g, n, 2 * nn, ar.st, true};
        if ((stt = gemm<OpA::H>(s, g2, batch, dmma)) != BATCHEIG_STATUS_SUCCESS) return stt;
        stt = launch_pieces(batch, [&](std::int64_t b0, std::int64_t count) {
            round_kernel<T><<<unsigned(count), round_threads(n), round_shared_bytes(n), s>>>(n, b0, ar, hx, tol,
                                                                                          max_sweeps, orth_first);
        });
        if (stt != BATCHEIG_STATUS_SUCCESS) return stt;
        if (k == max_updates) break;  // every matrix is final
        // X <- X F into the other half, F over C (half hx of G)
        Gemm<T> g3{n, n, n, x, n, 2 * nn, ar.g + nn * hx, n, 2 * nn, px, n, 2 * nn, ar.st};
        if ((stt = gemm<OpA::N>(s, g3, batch, dmma)) != BATCHEIG_STATUS_SUCCESS) return stt;
        hx = 1 - hx;
    }
    return launch_pieces(batch, [&](std::int64_t b0, std::int64_t count) {
        output_kernel<T><<<unsigned(count), 256, 0, s>>>(p, b0, ar);
    });
}

}  // namespace batcheig::cuda
