// BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG for n > 64 (to kSyevjTriGlobalMaxN):
// the tridiagonal method in working precision on global memory, within a
// workspace of n^2 elements per matrix (the size of the input batch). The
// caller's A holds the reduction; the workspace holds Z, then X = Q Z.
// Five or six launches, one block per matrix unless said:
//   1. prep_kernel: the triangle named by uplo checked for NaN / Inf (such
//      a matrix gets NaN in W and, with vectors, in A, info =
//      BATCHEIG_INFO_NONFINITE, and every later launch skips it) and scaled
//      by a power of two to max |a_ij| in [1, 2) (as the n <= 64 kernel),
//      in place into the lower triangle of A; info = 0 otherwise;
//   2. reduce_kernel (syevj_tridiag.cuh, lower-triangle passes) in working
//      precision, in place: v_k below the subdiagonal of A, d in W, e and
//      tau in A's strictly upper triangle (CallerArrays: the reduction never
//      reads or writes that triangle);
//   3. vectors_kernel: every eigenvalue of T by multisection on Sturm
//      counts to 2 u max(|lo|, |hi|) + u ||T||_1 + pivmin (xSTEBZ's default
//      absolute tolerance), nt / n lanes per eigenvalue (up to kSection);
//      then two solves of inverse
//      iteration per eigenvector, one thread each, by Gaussian elimination
//      with partial pivoting (pivots below u ||T||_1 replaced by it, as
//      xLAGTF): the eliminated right-hand side goes to Z and the
//      elimination's state every kCheck rows to the thread's local memory,
//      and the back substitution recomputes U's rows kCheck at a time from
//      those checkpoints, so no factor is stored; after each solve the
//      groups of eigenvalues closer than 1e-3 ||T||_1 (xSTEIN's ORTOL) are
//      orthogonalized as in the single-precision stage (classical
//      Gram-Schmidt twice, dependent members replaced, kDependentKeep;
//      members replaced after the last solve get one more solve and their
//      groups are orthogonalized again, as in the shared-memory form);
//      then Z <- Z - Z E / 2 over the band |i - j| <= kBand of E = Z^T Z
//      (the first-order symmetric orthogonalization of neighbours);
//      r = ||T Z - Z Lambda||_F / ||T||_F (||T||_F = ||A_s||_F); residual =
//      r, sweeps = 0, info = 0 when r <= max(tol, 32 n u) (the n <= 64
//      kernel's tolerance), else BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
//      w = lambda / scale, ascending whatever p.sort;
//   4. with vectors, X = Q Z by strips of sw columns, X written over its
//      own strip of Z: Z's strip at columns c0 .. c0 + cw - 1 is stored row
//      by row (ld cw) at the start of the space that X's columns c0 .. c0 +
//      cw - 1 (ld n) take, so every block reads and writes only its own
//      strip. n <= kWyMaxN: back_t_kernel then back_wy_kernel, the compact
//      WY form (4' below); else back_blocked_kernel (syevj_tridiag.cuh):
//      blocks of 8 reflectors, the Gram block of each formed in the kernel
//      (CallerBack);
//   5. with vectors, output_kernel: X into A (ld lda).
// Without vectors, A is left holding the reduction (as scratch) and steps
// 4-5 do not run.
#pragma once

#include <cstdint>
#include <type_traits>

#include "common/problem.hpp"
#include "core/jacobi_syevj.hpp"
#include "core/types.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/syevj/syevj_tri_shared.cuh"
#include "cuda/syevj/syevj_tridiag.cuh"
#include "cuda/team.cuh"

namespace batcheig::cuda {

namespace syevj_trig_detail {

using core::conj;
using core::jacobi::abs2;
using syevj_tri_detail::herm_at;
using syevj_tri_detail::start_value;
using syevj_tri_detail::warp_sum;
using syevj_lane_detail::shfl_xor;
using syevj_tridiag_detail::make_f;
using syevj_tridiag_detail::ZCol;

inline constexpr int kCheck = 32;      // rows of U recomputed from one checkpoint
inline constexpr int kMaxChecks = 64;  // checkpoints per solve: n <= kCheck kMaxChecks
inline constexpr int kSteps = 2;       // inverse iteration solves (as the shared-memory form)
// The band of the last orthogonalization (vectors_kernel): each vector
// against the kBand before and after it; rows per thread at most kRowsMax.
inline constexpr int kBand = 16;
inline constexpr int kRowsMax = 4;
// Lanes per eigenvalue in vectors_kernel's multisection, at most.
inline constexpr int kSection = 8;
// vectors_kernel's threads for order n: 256 up to n = 256 (two blocks of
// at most 128 registers per SM, so batch 200 runs in one wave on 132 SMs;
// with 512 at n = 128 one block fit per SM and the launch took 2.02 instead
// of 1.58 ms on an H200), else 512. The multisection takes nt / n lanes per
// eigenvalue, up to kSection: 2 from n = 65 to 128.
inline int vectors_threads(int n) { return n <= 256 ? 256 : 512; }

// The strictly upper triangle of the caller's matrix a (order n, ld lda)
// after prep_kernel: e_0 .. e_{n-2} as real numbers from &a(0, n-1);
// tau_k at a(k, k+1) (real types: tau_{n-2} is zero, not stored, since
// a(n-2, n-1) holds e's last entry); the scale at a(0, n-2).
template <class T>
__host__ __device__ inline core::real_t<T> *slot_e(T *a, int n, int lda) {
    return reinterpret_cast<core::real_t<T> *>(a + std::size_t(n - 1) * lda);
}
template <class T>
__device__ inline bool tau_stored(int n, int k) {
    return core::is_complex<T> || k < n - 2;
}
template <class T>
__device__ inline T &slot_scale(T *a, int n, int lda) {
    return a[std::size_t(n - 2) * lda];
}

// reduce_kernel's arrays: the caller's A (lower triangle, ld lda), d in W,
// e and tau in the slots above.
template <class T>
struct CallerArrays {
    using R = core::real_t<T>;
    T *A;
    R *W;
    const int *info;
    int n, lda;
    __device__ bool skip(std::int64_t b) const { return info[b] == BATCHEIG_INFO_NONFINITE; }
    __device__ T *matrix(std::int64_t b) const { return A + b * std::int64_t(lda) * n; }
    __device__ int ld() const { return lda; }
    __device__ R *d(std::int64_t b) const { return W + b * n; }
    __device__ R *e(std::int64_t b) const { return slot_e(matrix(b), n, lda); }
    __device__ void set_tau(std::int64_t b, int k, T x) const {
        if (tau_stored<T>(n, k)) matrix(b)[std::size_t(k + 1) * lda + k] = x;
    }
};

// back_blocked_kernel's arrays: the reflectors and tau in the caller's A,
// Z's strips and X in the workspace (n^2 elements of T per matrix).
template <class T>
struct CallerBack {
    using R = core::real_t<T>;
    // (V read from shared memory where it is used, instead of a row at a
    // time, measured slower on an H200: complex double n = 512, batch 200,
    // 63.1 against 61.5 ms; double 35.7 / 33.1.)
    static constexpr bool kGramHere = true, kTauApart = false;
    static constexpr int kThreads = 512;  // one block per SM, double-buffered V
    const T *A;
    T *work;
    const int *info;
    int n, lda;
    __device__ bool skip(std::int64_t b) const { return info[b] == BATCHEIG_INFO_NONFINITE; }
    __device__ const T *refl(std::int64_t b) const { return A + b * std::int64_t(lda) * n; }
    __device__ int ld() const { return lda; }
    __device__ T tau(std::int64_t b, int k) const {
        return tau_stored<T>(n, k) ? refl(b)[std::size_t(k + 1) * lda + k] : T(0);
    }
    __device__ R z_at(std::int64_t b, int c0, int cw, int r, int c) const {
        constexpr int cr = int(sizeof(T) / sizeof(R));
        const R *z = reinterpret_cast<const R *>(work + std::size_t(n) * n * b);
        return z[std::size_t(c0) * n * cr + std::size_t(r) * cw + c];
    }
    __device__ void put_x(std::int64_t b, int r, int c, T v) const {
        work[std::size_t(n) * n * b + std::size_t(c) * n + r] = v;
    }
};

// Column j of Z in the strip layout (strips of sw columns, sw a power of
// two): entry k at p[k s].
template <class T>
__device__ inline ZCol<core::real_t<T>> zcol(core::real_t<T> *z, int n, int sw, int j) {
    constexpr int cr = int(sizeof(T) / sizeof(core::real_t<T>));
    const int c0 = j & ~(sw - 1), cw = ::min(sw, n - c0);
    return {z + std::size_t(c0) * n * cr + (j - c0), cw};
}

template <class T>
__global__ __launch_bounds__(256) void prep_kernel(SyevjProblem<T> p, std::int64_t b0) {
    using R = core::real_t<T>;
    __shared__ unsigned long long red[32];
    const BlockTeam tm{red};
    const int n = p.n, t = threadIdx.x, nt = blockDim.x;
    const std::int64_t b = b0 + blockIdx.x;
    T *ga = p.A + b * std::int64_t(p.lda) * n;
    R scale;
    if (!syevj_tri_detail::check_scale(p, b, ga, tm, nt, scale)) return;  // NaN / Inf: outputs written
    // Each lower entry from its own place (lower) or its mirror (upper),
    // read and written by the same thread.
    for (int el = t; el < n * n; el += nt) {
        const int i = el % n, j = el / n;
        if (i < j) continue;
        const T x = herm_at(ga, p.lda, p.lower, i, j) * scale;
        ga[std::size_t(j) * p.lda + i] = x;
    }
    __syncthreads();  // a(0, n-2) was read above (upper)
    if (t == 0) {
        slot_scale(ga, n, p.lda) = T(scale);
        p.info[b] = 0;
    }
}

// Row k of the elimination of T - s I with partial pivoting, from the
// state (p, q) (row k's entries in columns k and k+1 after the rows before
// it): U's row k (a0, a1, a2) and the multiplier; (p, q) becomes row k+1's.
// Returns whether the rows were swapped. The forward pass and the
// recomputation in the back substitution run this same code, so they make
// the same choices and get the same rows.
template <class R>
__device__ inline bool elim_step(const R *d, const R *e, int n, int k, R s, R tiny, R &p, R &q, R &a0, R &a1,
                                 R &a2, R &mlt) {
    const R sub = e[k], dn = d[k + 1] - s, en = k + 2 < n ? e[k + 1] : R(0);
    if (fabs(p) >= fabs(sub)) {
        a0 = fabs(p) < tiny ? copysign(tiny, p) : p;
        a1 = q;
        a2 = 0;
        mlt = sub / a0;
        p = fma(-mlt, a1, dn);
        q = en;
        return false;
    }
    a0 = sub;
    a1 = dn;
    a2 = en;
    mlt = p / sub;
    p = fma(-mlt, dn, q);
    q = -mlt * en;
    return true;
}

// 3. Eigenvalues and eigenvectors of T; z: the matrix's n^2 elements of
// workspace, Z in the strip layout (zcol). smem: d, e (e_{n-1} = 0), e^2,
// lambda, dots (n of R each), the band's partial sums (blockDim / 32 x 32 x
// kBand of R) and E rows (2 x 32 x kBand), the groups' starts and the
// dependent flags (n ints each).
template <class T>
__global__ __launch_bounds__(512) void vectors_kernel(SyevjProblem<T> p, std::int64_t b0, T *work, int sw,
                                                      double tol_used) {
    using R = core::real_t<T>;
    extern __shared__ float4 tg_shared4[];
    __shared__ unsigned long long red[32];
    const BlockTeam tm{red};
    const std::int64_t b = b0 + blockIdx.x;
    if (p.info[b] == BATCHEIG_INFO_NONFINITE) return;
    const int n = p.n, t = threadIdx.x, nt = blockDim.x, lane = t & 31, warp = t >> 5, nw = nt >> 5;
    T *ga = p.A + b * std::int64_t(p.lda) * n;
    const R *eg = slot_e(ga, n, p.lda);
    R *w = p.w + b * n;
    R *d = reinterpret_cast<R *>(tg_shared4), *e = d + n, *e2 = e + n, *lam = e2 + n, *dots = lam + n;
    int *start = reinterpret_cast<int *>(dots + n + (std::size_t(nw) + 2) * 32 * kBand), *dependent = start + n;
    R *z = reinterpret_cast<R *>(work + std::size_t(n) * n * b);
    const auto col = [&](int j) { return zcol<T>(z, n, sw, j); };
    const R scale = core::real(slot_scale(ga, n, p.lda));

    R lo_b = core::limits<R>::huge(), hi_b = -core::limits<R>::huge(), tn = 0, em = 0, fro = 0;
    for (int i = t; i < n; i += nt) {
        const R di = w[i], ei = i + 1 < n ? eg[i] : R(0);
        const R el = i > 0 ? fabs(eg[i - 1]) : R(0), er = fabs(ei);
        d[i] = di;
        e[i] = ei;
        e2[i] = er * er;
        lo_b = min(lo_b, di - el - er);
        hi_b = max(hi_b, di + el + er);
        tn = max(tn, fabs(di) + el + er);
        em = max(em, er * er);
        fro += di * di + 2 * er * er;
    }
    lo_b = tm.min(lo_b);
    hi_b = tm.max(hi_b);
    tn = tm.max(tn);
    em = tm.max(em);
    fro = tm.sum(fro);  // ends with a barrier: d, e, e2 are published
    const syevj_tridiag_detail::SturmTol<R> stol(tn, em);
    const R eps = stol.eps, pivmin = stol.pivmin, atol = stol.atol;
    lo_b -= stol.pad;
    hi_b += stol.pad;
    // Every eigenvalue, ascending: lambda_j has j eigenvalues below it.
    // Multisection by P consecutive lanes per eigenvalue (P a power of two,
    // at most kSection and nt / n): each round they count at the P interior
    // points of P + 1 equal parts of [lo, hi], which narrows to the part
    // between the last point with at most j eigenvalues below and the first
    // with more (the lanes compute the points alike). Stops as bisection
    // did, at the same width.
    int P = 1;
    while (2 * P <= kSection && 2 * P * n <= nt) P *= 2;
    const int pi = lane & (P - 1);
    const unsigned gmask = unsigned((1ull << P) - 1) << (lane & ~(P - 1));
    for (int j = t / P; j < n; j += nt / P) {
        R lo = lo_b, hi = hi_b;
        for (int it = 0; it < 160; ++it) {
            const R mid = R(0.5) * (lo + hi);
            if (hi - lo <= 2 * eps * max(fabs(lo), fabs(hi)) + atol || mid <= lo || mid >= hi) break;
            const R h = (hi - lo) / R(P + 1);
            const bool above = syevj_tridiag_detail::sturm_count(n, d, e2, lo + h * R(pi + 1), pivmin) > j;
            const unsigned bal = (__ballot_sync(gmask, above) & gmask) >> (lane & ~(P - 1));
            const int f = bal ? __ffs(int(bal)) - 1 : P;  // the first point with more than j below
            const R nlo = f > 0 ? lo + h * R(f) : lo, nhi = f < P ? lo + h * R(f + 1) : hi;
            lo = nlo;
            hi = nhi;
        }
        if (pi == 0) lam[j] = fro > 0 ? R(0.5) * (lo + hi) : R(0);  // the zero matrix: exact zeros
    }
    __syncthreads();
    const R ortol = R(syevj_tri_detail::kOrtol) * tn;
    syevj_tri_detail::group_starts(n, lam, ortol, start, dependent, nt);
    const R tiny = max(eps * tn, pivmin);
    constexpr R kRescale = syevj_tri_detail::solve_rescale<R>();

    // kSteps solves of every column; then, if the last one's
    // orthogonalization replaced members (orthogonalize_groups), one more
    // solve of those alone and their groups orthogonalized again.
    bool again = false;  // alike in every thread
    for (int step = 0; step < kSteps || again; ++step) {
        __syncthreads();
        for (int j = t; j < n; j += nt) {
            const bool replaced = dependent[j] == syevj_tridiag_detail::kReplaced;
            dependent[j] = 0;
            if (step >= kSteps && !replaced) continue;
            const ZCol<R> zj = col(j);
            const R s = lam[j];
            R ckp[kMaxChecks], ckq[kMaxChecks];
            // Forward: the eliminated right-hand side into z, checkpoints.
            R pp = d[0] - s, qq = e[0], beta = step == 0 ? start_value<R>(j, 0) : zj[0];
            for (int k = 0; k + 1 < n; ++k) {
                if (k % kCheck == 0) {
                    ckp[k / kCheck] = pp;
                    ckq[k / kCheck] = qq;
                }
                const R bn = step == 0 ? start_value<R>(j, k + 1) : zj[k + 1];
                R a0, a1, a2, mlt;
                if (elim_step(d, e, n, k, s, tiny, pp, qq, a0, a1, a2, mlt)) {
                    zj[k] = bn;
                    beta = fma(-mlt, bn, beta);
                } else {
                    zj[k] = beta;
                    beta = fma(-mlt, beta, bn);
                }
            }
            zj[n - 1] = beta;
            // Back substitution, U's rows recomputed kCheck at a time from
            // the last chunk to the first; then scaled to unit 2-norm.
            syevj_tridiag_detail::BackSubst<R> bs;
            const auto solved = [&](int k, R x) {
                zj[k] = bs.solved(x, kRescale, [&](R down) {
                    for (int i = 0; i < n; ++i) zj[i] *= down;
                });
            };
            solved(n - 1, zj[n - 1] / (fabs(pp) < tiny ? copysign(tiny, pp) : pp));
            for (int c = (n - 2) / kCheck; c >= 0; --c) {
                const int k0 = c * kCheck, k1 = ::min(k0 + kCheck, n - 1);
                R f0[kCheck], f1[kCheck], f2[kCheck];
                R cp = ckp[c], cq = ckq[c];
                for (int k = k0; k < k1; ++k) {
                    R mlt;
                    elim_step(d, e, n, k, s, tiny, cp, cq, f0[k - k0], f1[k - k0], f2[k - k0], mlt);
                }
                for (int k = k1 - 1; k >= k0; --k) {
                    const R rhs = zj[k] - f1[k - k0] * bs.x1 - f2[k - k0] * bs.x2;
                    solved(k, rhs / f0[k - k0]);
                }
            }
            R ss = bs.ss;
            R sc = ss > 0 && ss < core::limits<R>::huge() ? R(1) / sqrt(ss) : R(0);
            if (!(sc > 0)) {
                // Overflow or a zero solution: restart from the random vector.
                ss = 0;
                for (int k = 0; k < n; ++k) {
                    const R x = start_value<R>(j, k + 7 * step + 1);
                    zj[k] = x;
                    ss += x * x;
                }
                sc = R(1) / sqrt(ss);
            }
            for (int k = 0; k < n; ++k) zj[k] *= sc;
        }
        __syncthreads();
        // The groups orthogonalized as in the single-precision stage.
        const bool replaced = syevj_tridiag_detail::orthogonalize_groups(
            n, col, dots, start, dependent, tm,
            R(syevj_tri_detail::kDependentKeep * syevj_tri_detail::kDependentKeep),
            [](R ss) { return ss > 0 ? R(1) / sqrt(ss) : R(0); },
            [](int j, int k) { return start_value<R>(j, k + 7 * kSteps + 1); });
        again = step == kSteps - 1 && replaced;
    }
    // Z <- Z - Z E / 2 over the band |i - j| <= kBand of E = Z^T Z (its
    // diagonal left out): the first-order symmetric orthogonalization of
    // each vector against its nearest neighbours in eigenvalue order.
    // Inverse iteration leaves the vectors of eigenvalues g apart about
    // u ||T|| / g from orthogonal and ||I - Z^T Z||_1 sums that over every
    // other vector: 84 n u at double n = 128 on the tests' repeated spectrum
    // (32 values 0.065 apart, each 4 times; the tests' limit is 60), where
    // the nearest groups give most of the sum. By blocks of 32 columns: E's
    // band rows of the block from the old Z (a lane per column, the warps
    // over the rows, partial sums per warp in shared memory, summed in a
    // fixed order), then each thread updates its rows in column order,
    // keeping the old values of the kBand columns before (ring).
    {
        R *part = dots + n;  // nw x 32 x kBand
        R *eb = part + std::size_t(nw) * 32 * kBand;  // two blocks' E rows: 32 x kBand each
        R ring[kRowsMax][kBand];
#pragma unroll
        for (int r = 0; r < kRowsMax; ++r)
#pragma unroll
            for (int q = 0; q < kBand; ++q) ring[r][q] = 0;
        for (int j0 = 0; j0 < n; j0 += 32) {
            // E(j, j + d), j in [j0, j0 + 32), d = 1 .. kBand (zero past n).
            R acc[kBand];
#pragma unroll
            for (int q = 0; q < kBand; ++q) acc[q] = 0;
            const int jl = j0 + lane, jh = j0 + 32 + lane;
            for (int k = warp; k < n; k += nw) {
                const R zj = jl < n ? col(jl)[k] : R(0);
                const R zh = lane < kBand && jh < n ? col(jh)[k] : R(0);
#pragma unroll
                for (int q = 0; q < kBand; ++q) {
                    const int src = lane + q + 1;
                    const R a = __shfl_sync(0xffffffffu, zj, src & 31), h = __shfl_sync(0xffffffffu, zh, src & 31);
                    acc[q] += zj * (src < 32 ? a : h);
                }
            }
#pragma unroll
            for (int q = 0; q < kBand; ++q) part[(std::size_t(warp) * 32 + lane) * kBand + q] = acc[q];
            __syncthreads();
            R *ecur = eb + ((j0 / 32) & 1) * 32 * kBand, *eprev = eb + ((j0 / 32 + 1) & 1) * 32 * kBand;
            for (int i = t; i < 32 * kBand; i += nt) {
                R sum = 0;
                for (int ww = 0; ww < nw; ++ww) sum += part[std::size_t(ww) * 32 * kBand + i];
                ecur[i] = sum;
            }
            __syncthreads();
            // E(i, i + d) for i in this block or the one before.
            const auto eup = [&](int i, int d) {
                return i >= j0 ? ecur[(i - j0) * kBand + d - 1] : eprev[(i - j0 + 32) * kBand + d - 1];
            };
#pragma unroll
            for (int r = 0; r < kRowsMax; ++r) {
                const int k = t + r * nt;
                if (k >= n) break;
                for (int j = j0; j < ::min(j0 + 32, n); ++j) {
                    const ZCol<R> zj = col(j);
                    const R old = zj[k];
                    R corr = 0;
#pragma unroll
                    for (int d = 1; d <= kBand; ++d) {
                        if (j + d < n) corr += eup(j, d) * col(j + d)[k];
                        if (j - d >= 0) corr += eup(j - d, d) * ring[r][(j - d) % kBand];
                    }
                    zj[k] = old - R(0.5) * corr;
                    ring[r][j % kBand] = old;
                }
            }
        }
    }
    __syncthreads();
    // ||T Z - Z Lambda||_F / ||T||_F.
    R rs = 0;
    for (int j = t; j < n; j += nt) {
        const ZCol<R> zj = col(j);
        const R lj = lam[j];
        R prev = 0, cur = zj[0];
        for (int k = 0; k < n; ++k) {
            const R next = k + 1 < n ? zj[k + 1] : R(0);
            const R r = (d[k] - lj) * cur + (k > 0 ? e[k - 1] * prev : R(0)) + e[k] * next;
            rs += r * r;
            prev = cur;
            cur = next;
        }
    }
    rs = tm.sum(rs);
    const double resid = fro > 0 ? double(sqrt(rs) / sqrt(fro)) : 0.0;
    for (int j = t; j < n; j += nt) w[j] = lam[j] / scale;
    if (t == 0) {
        p.info[b] = resid <= tol_used ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
        if (p.sweeps) p.sweeps[b] = 0;
        if (p.residual) p.residual[b] = resid;
    }
}

// 4'. With vectors and n <= kWyMaxN, the back-transformation in compact WY
// form instead of back_blocked_kernel: X = Q Z with Q = H_0 ... H_{n-2}
// taken kWyBlock reflectors at a time from the last block, H_j0 ... H_j1 =
// I - V T V^H (T upper triangular, xLARFT's forward columnwise form), so
// that each block is Z <- Z - V (T (V^H Z)).
// - back_t_kernel, a block per reflector block and matrix: the Gram block
//   V^H V (16 rows of V at a time through shared memory, four entries per
//   thread) and T, row i of T by thread i. T(i, k) (i <= k)
//   goes to a(t0 + i, j0 + 1 + k) in A's strictly upper triangle (wy_t_row:
//   t0 = j0 - kWyBlock, the square above the block's own, for the blocks
//   after the first; the first block's own square, t0 = 0, whose first
//   superdiagonal held tau). A block after the first then makes its V
//   explicit in A: zeros from row j0 + 1 to the diagonal, ones on the
//   subdiagonal, so that back_wy_kernel reads V(j0 + 1 : n, block) without
//   masks. e and the scale (prep_kernel's slots up there) and the
//   reduction's diagonal and subdiagonal are dead once vectors_kernel has
//   run.
// - back_wy_kernel, a block per strip of kWyStrip columns and matrix, Z's
//   strip in registers (thread: rows g, g + kWyGroups, ... and two columns)
//   from the start to the end: per reflector block, last to first, S = V^H Z by
//   kWyChunk reflectors at a time (the products summed over the warp's 8
//   row groups by a butterfly that leaves each lane one sum, then over the
//   warps in shared memory), Y = T S (a thread per entry), Z -= V Y. V is
//   read from A where it is used, all of a chunk's loads issued before its
//   products; the first block's with masks (v_j(r) = 0 above row j + 1, 1
//   there), the others as stored. A thread's rows above the block are
//   skipped (a branch nearly uniform over the warp, whose rows are 8
//   consecutive).
inline constexpr int kWyBlock = 32;   // reflectors per block
inline constexpr int kWyChunk = 4;    // reflectors per pass of the strip's dots
inline constexpr int kWyThreads = 256;
inline constexpr int kWyStrip = 8;    // columns per block: 4 lanes of 2 columns
inline constexpr int kWyGramRows = 16;  // rows of V per step of back_t_kernel's Gram block
inline constexpr int kWyGroups = kWyThreads / 4;  // row groups
inline constexpr int kWyRows = 8;     // rows per thread, at most
inline constexpr int kWyMaxN = kWyGroups * kWyRows;
static_assert(kWyBlock * kWyStrip == kWyThreads, "Y = T S: a thread per entry");
static_assert(2 * kWyChunk == 8, "the butterfly leaves one of 8 sums per lane");

// Reflector blocks of the WY form for order n (reflectors 0 .. n - 2).
__host__ __device__ inline int wy_blocks(int n) { return (n - 2) / kWyBlock + 1; }
// The row of A where T(0, *) of the reflector block at j0 is kept (its
// columns are j0 + 1 ..): the square above the block's own, but for the
// first block, whose own square it is.
__host__ __device__ inline int wy_t_row(int j0) { return j0 > 0 ? j0 - kWyBlock : 0; }

// back_wy_kernel's shared memory: T (kWyBlock x kWyBlock + 1), the warps'
// partial dots (8 x kWyBlock x kWyStrip), S and Y (kWyBlock x kWyStrip each).
template <class T>
constexpr std::size_t wy_shared_bytes() {
    return (std::size_t(kWyBlock) * (kWyBlock + 1) + std::size_t(kWyThreads / 32 + 2) * kWyBlock * kWyStrip) *
           sizeof(T);
}

template <class T>
__global__ __launch_bounds__(256) void back_t_kernel(int n, int lda, std::int64_t b0, T *A, const int *info) {
    constexpr int NB = kWyBlock;
    // Raw storage: T may be a class type, which __shared__ does not construct.
    __shared__ alignas(16) unsigned char raw[2 * NB * (NB + 1) * sizeof(T)];
    T(*g)[NB + 1] = reinterpret_cast<T(*)[NB + 1]>(raw);
    T(*tt)[NB + 1] = g + NB;
    const std::int64_t b = b0 + blockIdx.y;
    if (info[b] == BATCHEIG_INFO_NONFINITE) return;
    T *a = A + b * std::int64_t(lda) * n;
    const int j0 = blockIdx.x * NB, nbb = ::min(NB, n - 1 - j0);
    const int t = threadIdx.x;
    const auto at = [&](int r, int c) -> T & { return a[std::size_t(c) * lda + r]; };
    const T zero = make_f<T>(0, 0), one = make_f<T>(1, 0);
    // g(i, k) = v_i^H v_k (i < k) over rows j0 + 1 .. n - 1, kWyGramRows at
    // a time through shared memory (v_k(r) = 0 above row j0 + k + 1, 1
    // there; columns past the block 0). Thread t: row i = t / 8 of g,
    // columns k = t % 8 + 8 s (every entry formed; those with i >= k unused).
    constexpr int RC = kWyGramRows;
    __shared__ alignas(16) unsigned char vraw[RC * (NB + 1) * sizeof(T)];
    T(*vs)[NB + 1] = reinterpret_cast<T(*)[NB + 1]>(vraw);
    static_assert(NB * NB == 4 * 256, "four entries of g per thread");
    const int gi = t / 8, gk = t % 8;
    T acc[4] = {zero, zero, zero, zero};
    for (int r0 = j0 + 1; r0 < n; r0 += RC) {
        for (int e = t; e < RC * NB; e += blockDim.x) {
            const int rr = e % RC, k = e / RC, r = r0 + rr, j = j0 + k;
            vs[rr][k] = k < nbb && r < n && r >= j + 1 ? (r == j + 1 ? one : at(r, j)) : zero;
        }
        __syncthreads();
#pragma unroll 4
        for (int rr = 0; rr < RC; ++rr) {
            const T x = conj(vs[rr][gi]);
#pragma unroll
            for (int q = 0; q < 4; ++q) acc[q] += x * vs[rr][gk + 8 * q];
        }
        __syncthreads();
    }
#pragma unroll
    for (int q = 0; q < 4; ++q) g[gi][gk + 8 * q] = acc[q];
    for (int q = t; q < NB * NB; q += blockDim.x) {
        const int i = q / NB, k = q % NB;
        tt[i][k] = i == k && k < nbb && tau_stored<T>(n, j0 + k) ? at(j0 + k, j0 + k + 1) : zero;
    }
    __syncthreads();
    // Row i of T: T(i, k) = -tau_k sum_{l = i}^{k - 1} T(i, l) g(l, k).
    if (t < nbb)
        for (int k = t + 1; k < nbb; ++k) {
            T x = zero;
            for (int l = t; l < k; ++l) x += tt[t][l] * g[l][k];
            tt[t][k] = zero - tt[k][k] * x;
        }
    __syncthreads();
    const int t0 = wy_t_row(j0);
    for (int q = t; q < NB * NB; q += blockDim.x) {
        const int i = q / NB, k = q % NB;
        if (i <= k && k < nbb) at(t0 + i, j0 + 1 + k) = tt[i][k];
    }
    // V explicit (blocks after the first): column j0 + k, rows j0 + 1 ..
    // j0 + k + 1 (the taus read above among them).
    if (j0 > 0)
        for (int q = t; q < NB * (NB + 1); q += blockDim.x) {
            const int k = q / (NB + 1), r = j0 + 1 + q % (NB + 1);
            if (k < nbb && r <= j0 + k + 1) at(r, j0 + k) = r == j0 + k + 1 ? one : zero;
        }
}

// One level of back_wy_kernel's butterfly: a (2 C values) -> C values, the
// lanes whose bit `off` is set keeping the upper half, summed with the
// partner's.
template <int C, class T>
__device__ inline void wy_halve(T *a, int off, bool upper) {
#pragma unroll
    for (int i = 0; i < C; ++i) {
        const T keep = upper ? a[i + C] : a[i], send = upper ? a[i] : a[i + C];
        a[i] = keep + shfl_xor(send, off, 0xffffffffu);
    }
}

// Rows per thread of back_wy_kernel for order n (a template argument, so
// that smaller n carry no rows past the end): 2, 4 or kWyRows.
inline int wy_rows(int n) { return n <= 2 * kWyGroups ? 2 : n <= 4 * kWyGroups ? 4 : kWyRows; }

// Blocks per SM that back_wy_kernel's registers must allow: two, but one
// for complex double from 4 rows per thread, whose strip and loads take
// about 250 registers at 8 rows (ptxas 13.0 spilled 180 bytes at 8 rows and
// 236 at 4 under the cap of two).
template <class T, int RP>
__host__ __device__ constexpr int wy_min_blocks() {
    return std::is_same_v<T, core::complex<double>> && RP >= 4 ? 1 : 2;
}

template <class T, int RP>
__global__ __launch_bounds__(kWyThreads, (wy_min_blocks<T, RP>())) void back_wy_kernel(int n, std::int64_t b0,
                                                                                       CallerBack<T> arr) {
    constexpr int NB = kWyBlock, JC = kWyChunk, G = kWyGroups, CS = kWyStrip;
    constexpr int W = kWyThreads / 32;
    extern __shared__ float4 wy_shared4[];
    T(*ts)[NB + 1] = reinterpret_cast<T(*)[NB + 1]>(wy_shared4);
    T(*part)[NB][CS] = reinterpret_cast<T(*)[NB][CS]>(&ts[NB][0]);
    T(*ss)[CS] = reinterpret_cast<T(*)[CS]>(&part[W][0][0]);
    T(*ys)[CS] = ss + NB;
    const std::int64_t b = b0 + blockIdx.y;
    if (arr.skip(b)) return;
    const T *a = arr.refl(b);
    const int lda = arr.ld();
    const int c0 = blockIdx.x * CS, cw = ::min(CS, n - c0);
    const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const int cp = lane & 3, gl = lane >> 2, g = warp * 8 + gl;
    const T zero = make_f<T>(0, 0), one = make_f<T>(1, 0);
    T z[RP][2];
#pragma unroll
    for (int q = 0; q < RP; ++q)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int r = g + G * q, c = 2 * cp + h;
            z[q][h] = r < n && c < cw ? make_f<T>(arr.z_at(b, c0, cw, r, c), 0) : zero;
        }
    // One reflector block; kMasked: V with masks (the first block).
    const auto step = [&](int blk, auto masked) {
        constexpr bool kMasked = decltype(masked)::value;
        const int j0 = blk * NB, nbb = ::min(NB, n - 1 - j0), t0 = wy_t_row(j0);
        for (int q = t; q < NB * NB; q += kWyThreads) {
            const int i = q / NB, k = q % NB;
            ts[i][k] = i <= k && k < nbb ? a[std::size_t(j0 + 1 + k) * lda + t0 + i] : zero;
        }
        // The thread's rows in the block's range (j0 + 1 .. n - 1).
        bool act[RP];
#pragma unroll
        for (int q = 0; q < RP; ++q) act[q] = g + G * q > j0 && g + G * q < n;
        // v[u][q] = v_j(r), j = j0 + jc + u, for this thread's rows r in
        // the block's range (act[q]; the others are left unset and unused).
        // Masked: 0 for j past the block. Explicit V: for j past the block
        // (a partial last block), column n - 2's entries, finite, whose
        // products meet zeros (S's rows there meet T's zero columns, and Y's
        // rows there are zero).
        const auto load_v = [&](int jc, T (&v)[JC][RP]) {
#pragma unroll
            for (int u = 0; u < JC; ++u) {
                const int j = j0 + jc + u;
                const T *vj = a + std::size_t(::min(j, n - 2)) * lda + g;
#pragma unroll
                for (int q = 0; q < RP; ++q) {
                    if constexpr (kMasked) {
                        const int r = g + G * q;
                        const bool col = jc + u < nbb;
                        v[u][q] = col && act[q] && r > j + 1 ? vj[G * q] : zero;
                        if (col && r == j + 1) v[u][q] = one;
                    } else if constexpr (core::is_complex<T>) {
                        if (act[q]) v[u][q] = vj[G * q];
                    } else {
                        v[u][q] = act[q] ? vj[G * q] : zero;  // (unset, ptxas spilled at 8 rows)
                    }
                }
            }
        };
        // S = V^H Z, JC reflectors at a time.
        for (int jc = 0; jc < NB; jc += JC) {
            T acc[2 * JC];
#pragma unroll
            for (int i = 0; i < 2 * JC; ++i) acc[i] = zero;
            if (jc < nbb) {
                T v[JC][RP];
                load_v(jc, v);
#pragma unroll
                for (int q = 0; q < RP; ++q)
                    if (act[q]) {
#pragma unroll
                        for (int u = 0; u < JC; ++u) {
                            const T x = conj(v[u][q]);
                            acc[2 * u] += x * z[q][0];
                            acc[2 * u + 1] += x * z[q][1];
                        }
                    }
            }
            // Over the warp's row groups (lane bits 16, 8, 4): lane gl
            // keeps the sum of value gl = 2 u + h.
            wy_halve<4>(acc, 16, gl & 4);
            wy_halve<2>(acc, 8, gl & 2);
            wy_halve<1>(acc, 4, gl & 1);
            part[warp][jc + (gl >> 1)][2 * cp + (gl & 1)] = acc[0];
        }
        __syncthreads();
        {
            const int jj = t / CS, c = t % CS;
            T sum = part[0][jj][c];
#pragma unroll
            for (int w = 1; w < W; ++w) sum += part[w][jj][c];
            ss[jj][c] = sum;
            __syncthreads();
            T y = zero;
            for (int k = jj; k < nbb; ++k) y += ts[jj][k] * ss[k][c];
            ys[jj][c] = y;
        }
        __syncthreads();
        // Z -= V Y.
        for (int jc = 0; jc < nbb; jc += JC) {
            T v[JC][RP];
            load_v(jc, v);
            T y[JC][2];
#pragma unroll
            for (int u = 0; u < JC; ++u) y[u][0] = ys[jc + u][2 * cp], y[u][1] = ys[jc + u][2 * cp + 1];
#pragma unroll
            for (int q = 0; q < RP; ++q)
                if (act[q]) {
#pragma unroll
                    for (int u = 0; u < JC; ++u) {
                        z[q][0] -= v[u][q] * y[u][0];
                        z[q][1] -= v[u][q] * y[u][1];
                    }
                }
        }
    };
    for (int blk = wy_blocks(n) - 1; blk > 0; --blk) step(blk, std::false_type{});
    step(0, std::true_type{});
#pragma unroll
    for (int q = 0; q < RP; ++q)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int r = g + G * q, c = 2 * cp + h;
            if (r < n && c < cw) arr.put_x(b, r, c0 + c, z[q][h]);
        }
}

// 5. X (ld n, in the workspace) into A (ld lda).
template <class T>
__global__ __launch_bounds__(256) void output_kernel(SyevjProblem<T> p, std::int64_t b0, const T *work) {
    const std::int64_t b = b0 + blockIdx.x;
    if (p.info[b] == BATCHEIG_INFO_NONFINITE) return;
    const int n = p.n;
    const T *x = work + std::size_t(n) * n * b;
    T *ga = p.A + b * std::int64_t(p.lda) * n;
    for (int el = threadIdx.x; el < n * n; el += blockDim.x) ga[std::size_t(el / n) * p.lda + el % n] = x[el];
}

// The launches' shapes for order n.
template <class T>
struct TriGlobalShape {
    int rw = 0, rthreads = 0, vthreads = 0, sw = 0, bufs = 0;
    bool wy = false;  // the back-transformation in WY form (else back_blocked_kernel)
    std::size_t rshared = 0, vshared = 0, bshared = 0;
    explicit TriGlobalShape(int n) {
        using R = core::real_t<T>;
        // reduce_kernel with the lower-triangle passes (as TridiagShape):
        // rw = min(256, 32 ceil(n / 64)) rows, 128 where two blocks of 512
        // threads would not fit on an SM with 256 (14 n entries of T; 12 n
        // with 128): on 228 KB per SM, complex double from n = 516. Two
        // blocks per SM run batch 200 in one wave on 132 SMs.
        const auto bytes = [n](int rows) {
            return (4 * std::size_t(n) + std::size_t(512 / rows + rows / 32) * n) * sizeof(T);
        };
        const auto two_fit = [&](int rows) {
            return 2 * (bytes(rows) + kTeamScratchBytes + kDriverSharedBytes) <=
                   std::size_t(shared_per_multiprocessor());
        };
        rw = std::min(256, (n + 63) / 64 * 32);
        if (rw == 256 && !two_fit(256) && two_fit(128)) rw = 128;
        rthreads = rw * std::max(1, 512 / rw);
        rshared = bytes(rw);
        vthreads = vectors_threads(n);
        vshared = (5 * std::size_t(n) + std::size_t(vthreads / 32 + 2) * 32 * kBand) * sizeof(R) +
                  2 * std::size_t(n) * sizeof(int);
        wy = n <= kWyMaxN;
        if (wy) {
            sw = kWyStrip;
            bshared = wy_shared_bytes<T>();
            return;
        }
        constexpr int nt = CallerBack<T>::kThreads;
        sw = syevj_tridiag_detail::back_blocked_strip(n, nt);
        bufs = syevj_tridiag_detail::back_blocked_buffers<T>(n, sw, nt);
        bshared = syevj_tridiag_detail::back_blocked_shared<T>(n, sw, bufs, nt);
    }
};

}  // namespace syevj_trig_detail

// Largest n of the global-memory form (the solves' checkpoints).
inline constexpr int kSyevjTriGlobalMaxN = syevj_trig_detail::kCheck * syevj_trig_detail::kMaxChecks;
static_assert(kSyevjTriGlobalMaxN <= 512 * syevj_trig_detail::kRowsMax, "rows per thread of the band update");

// Workspace of the global-memory form: n^2 elements per matrix.
template <class T>
std::size_t syevj_tri_global_workspace(int n, std::int64_t batch) {
    return std::size_t(n) * std::size_t(n) * std::size_t(batch) * sizeof(T);
}

// Whether the global-memory form claims order n on the current device.
template <class T>
bool syevj_tri_global_fits(int n) {
    if (n <= kSyevjTriMaxN || n > kSyevjTriGlobalMaxN) return false;
    const syevj_trig_detail::TriGlobalShape<T> sh(n);
    const std::size_t most = std::max(sh.rshared, std::max(sh.vshared, sh.bshared));
    return most + kStaticSharedMax <= std::size_t(shared_optin_bytes());
}

template <class T>
batcheigStatus_t syevj_tri_global(cudaStream_t s, const SyevjProblem<T> &p, void *work) {
    using namespace syevj_trig_detail;
    const int n = p.n;
    const TriGlobalShape<T> sh(n);
    T *ws = static_cast<T *>(work);
    batcheigStatus_t st = launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        prep_kernel<T><<<unsigned(count), 256, 0, s>>>(p, b0);
    });
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    using Arr = CallerArrays<T>;
    const Arr arr{p.A, p.w, p.info, n, p.lda};
    if ((st = allow_shared(syevj_tridiag_detail::reduce_kernel<T, Arr>, sh.rshared)) != BATCHEIG_STATUS_SUCCESS)
        return st;
    st = launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        syevj_tridiag_detail::reduce_kernel<T, Arr>
            <<<unsigned(count), sh.rthreads, sh.rshared, s>>>(n, sh.rw, b0, arr, false, true);
    });
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    const double tol = syevj_tri_tolerance<core::real_t<T>>(p.tolerance, n);
    if ((st = allow_shared(vectors_kernel<T>, sh.vshared)) != BATCHEIG_STATUS_SUCCESS) return st;
    st = launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        vectors_kernel<T><<<unsigned(count), sh.vthreads, sh.vshared, s>>>(p, b0, ws, sh.sw, tol);
    });
    if (st != BATCHEIG_STATUS_SUCCESS || !p.want_v) return st;
    using Back = CallerBack<T>;
    const Back back{p.A, ws, p.info, n, p.lda};
    if (sh.wy) {
        st = launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
            back_t_kernel<T><<<dim3(unsigned(wy_blocks(n)), unsigned(count)), 256, 0, s>>>(n, p.lda, b0, p.A, p.info);
        });
        if (st != BATCHEIG_STATUS_SUCCESS) return st;
        const auto apply = [&](auto kernel) {
            if ((st = allow_shared(kernel, sh.bshared)) != BATCHEIG_STATUS_SUCCESS) return;
            st = launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
                const dim3 grid(unsigned((n + kWyStrip - 1) / kWyStrip), unsigned(count));
                kernel<<<grid, kWyThreads, sh.bshared, s>>>(n, b0, back);
            });
        };
        const int rp = wy_rows(n);
        if (rp == 2) apply(back_wy_kernel<T, 2>);
        else if (rp == 4) apply(back_wy_kernel<T, 4>);
        else apply(back_wy_kernel<T, kWyRows>);
    } else {
        if ((st = allow_shared(syevj_tridiag_detail::back_blocked_kernel<T, Back>, sh.bshared)) !=
            BATCHEIG_STATUS_SUCCESS)
            return st;
        st = launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
            const dim3 grid(unsigned((n + sh.sw - 1) / sh.sw), unsigned(count));
            syevj_tridiag_detail::back_blocked_kernel<T, Back>
                <<<grid, Back::kThreads, sh.bshared, s>>>(n, sh.sw, sh.bufs, b0, back);
        });
    }
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        output_kernel<T><<<unsigned(count), 256, 0, s>>>(p, b0, ws);
    });
}

}  // namespace batcheig::cuda
