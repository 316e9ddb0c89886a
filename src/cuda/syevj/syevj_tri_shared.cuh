// BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG (every precision, 1 <= n <= 64): the
// tridiagonal method in working precision, one block of 256 threads per
// matrix, one launch, no workspace: the matrix in shared memory, the
// eigenvectors' factorizations in each thread's local memory, the
// back-transformation in registers.
//   1. the triangle named by uplo, checked for NaN / Inf and scaled by a
//      power of two to max |a_ij| in [1, 2) (as core::jacobi::load_scaled),
//      into a full Hermitian matrix A_s in shared memory; ||A_s||_F;
//   2. xHETD2's lower Householder reduction T = Q^H A_s Q, T real symmetric
//      (d, e), v_k below the subdiagonal of column k and tau_k apart; a step
//      is two barriers: warp 0 forms w = y - (tau / 2)(y^H v) v of the step
//      before, updates the new column and forms its reflector; the block
//      updates the trailing matrix A22 -= v w^H + w v^H and forms the next
//      y = tau A22 v from the updated entries (four partial sums per row);
//   3. every eigenvalue of T by multisection on Sturm counts (xLAEBZ's
//      recurrence and pivmin, the division as a product with the rounded
//      reciprocal): four threads per eigenvalue, two counts each per round
//      (nine parts); first to 2^-36 ||T||_1; then those with a neighbour
//      within 1e-3 ||T||_1 (a group, step 4) on to 2 u max(|lo|, |hi|) +
//      u ||T||_1 + pivmin (xSTEBZ's default absolute tolerance); the others
//      take their Rayleigh quotients z^T T z / z^T z after step 4;
//   4. inverse iteration, one thread per eigenvalue: T - lambda_j I
//      factored once by Gaussian elimination with partial pivoting (the
//      factors in the thread's local memory; pivots below u ||T||_1
//      replaced by it, as xLAGTF), two solves from a pseudo-random start,
//      each normalized; after each, the groups of eigenvalues closer than
//      1e-3 ||T||_1 (xSTEIN's ORTOL) are orthogonalized in order (classical
//      Gram-Schmidt, twice; a member left with less than 1e-2 of its norm
//      is numerically dependent and is replaced by a random vector
//      orthogonal to all the others, as the single-precision stage of
//      syevj_tridiag.cuh, kDependentKeep; members replaced after the last
//      solve get one more solve and their groups are orthogonalized again,
//      since with two or more missing the complement mixes their
//      eigenvectors); then Z <- Z (3 I - G) / 2 with
//      G = Z^T Z, so that Z is orthonormal to working precision whatever
//      the gaps between the groups;
//   5. r = ||T Z - Z Lambda||_F / ||A_s||_F, which bounds
//      off(Z^T T Z) / ||A_s||_F for orthonormal Z; residual = r, sweeps = 0,
//      info = 0 when r <= tol_used = max(tol, 32 n u) (the tolerance of the
//      mixed variants), else BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
//   6. w = lambda / scale (ascending, whatever p.sort); with vectors,
//      X = Q Z = H(0) (H(1) (... H(n-2) Z)) in registers, four threads per
//      column and every fourth row each (v_k completed with its zeros and
//      one in shared memory, the sums over a column by two shuffles),
//      written to the columns of A.
// Work O(n^3) against the Jacobi sweeps' O(n^3) each; the accuracy is the
// tridiagonal method's (xHEEVX with xSTEBZ and xSTEIN), with Z's
// orthogonality enforced.
#pragma once

#include <cstdint>

#include "common/problem.hpp"
#include "core/jacobi_syevj.hpp"
#include "core/types.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/syevj/syevj_lane.cuh"
#include "cuda/syevj/syevj_tridiag.cuh"
#include "cuda/team.cuh"

namespace batcheig::cuda {

// Largest n of BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG (64 columns of four threads
// in a block of 256).
inline constexpr int kSyevjTriMaxN = 64;

namespace syevj_tri_detail {

using core::conj;
using core::real;
using core::jacobi::abs2;
using syevj_lane_detail::shfl;
using syevj_lane_detail::shfl_xor;

inline constexpr int kThreads = 256;
inline constexpr int kColThreads = 4;                       // threads per column of X
inline constexpr int kRows = kSyevjTriMaxN / kColThreads;  // rows of X per thread
inline constexpr int kBisectThreads = 4;                    // threads per eigenvalue
inline constexpr int kBisectPoints = 2;                     // Sturm counts per thread and round
inline constexpr int kBisectRounds = 64;                    // a bound; ~18 rounds reach the tolerance
inline constexpr int kSteps = 2;                            // inverse iteration solves
inline constexpr int kChunk = 8;                            // solve steps whose loads are issued together
inline constexpr double kOrtol = 1e-3;                      // xSTEIN's ORTOL, relative to ||T||_1
inline constexpr double kCoarse = 0x1p-36;                  // the first multisection's width, relative to ||T||_1
inline constexpr double kDependentKeep = 1e-2;
inline constexpr double kTolFactor = 32;                    // tol_used = max(tol, kTolFactor n u)
static_assert(kThreads == kColThreads * kSyevjTriMaxN && kThreads == kBisectThreads * kSyevjTriMaxN,
              "a thread per (column, quarter) and per (eigenvalue, point pair)");

// A solve whose entries pass this is scaled by its inverse (a power of two).
template <class R> __host__ __device__ constexpr R solve_rescale() { return sizeof(R) == 4 ? R(0x1p50) : R(0x1p500); }

// Byte offsets of the shared-memory arrays (16-byte aligned).
template <class T>
struct Smem {
    using R = core::real_t<T>;
    std::size_t a, z, d, e, e2, lam, dots, tau, v, y, yq, start, dep, quo, total;
    __host__ __device__ static std::size_t up(std::size_t b) { return (b + 15) & ~std::size_t(15); }
    __host__ __device__ explicit Smem(int n) {
        const std::size_t nn = std::size_t(n);
        a = 0;
        z = a + up(sizeof(T) * nn * (nn + 1));
        d = z + up(sizeof(R) * nn * std::size_t(n | 1));
        e = d + up(sizeof(R) * nn);
        e2 = e + up(sizeof(R) * nn);
        lam = e2 + up(sizeof(R) * nn);
        dots = lam + up(sizeof(R) * nn);
        tau = dots + up(sizeof(R) * nn);
        v = tau + up(sizeof(T) * nn);
        y = v + up(2 * sizeof(T) * nn);
        yq = y + up(sizeof(T) * nn);
        start = yq + up(sizeof(T) * nn * kColThreads);
        dep = start + up(sizeof(int) * nn);
        quo = dep + up(sizeof(int) * nn);
        total = quo + up(sizeof(int) * nn);
    }
};

// 1 / x rounded to nearest (a multiplication by it costs fewer instructions
// than a division, and its two roundings perturb e^2 by at most 2 u).
__device__ inline double recip(double x) { return __drcp_rn(x); }
__device__ inline float recip(float x) { return __frcp_rn(x); }

// Sturm counts of T (d, e2 = e^2) at K points (xLAEBZ's order: a pivot
// below pivmin becomes -pivmin before it is counted), interleaved.
template <class R, int K>
__device__ inline void sturm_counts(int n, const R *d, const R *e2, const R (&x)[K], R pivmin, int (&c)[K]) {
    R q[K];
#pragma unroll
    for (int k = 0; k < K; ++k) {
        q[k] = d[0] - x[k];
        if (core::rabs(q[k]) < pivmin) q[k] = -pivmin;
        c[k] = q[k] < 0;
    }
    for (int i = 1; i < n; ++i) {
        const R di = d[i], ei = e2[i - 1];
#pragma unroll
        for (int k = 0; k < K; ++k) {
            q[k] = di - x[k] - ei * recip(q[k]);
            if (core::rabs(q[k]) < pivmin) q[k] = -pivmin;
            c[k] += q[k] < 0;
        }
    }
}

// Sum over the 32 lanes of a warp (real or complex), every lane gets it.
template <class S>
__device__ inline S warp_sum(S x) {
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) x += shfl_xor(x, o, 0xffffffffu);
    return x;
}
// Lane `src`'s value.
template <class S>
__device__ inline S shfl_t(S x, int src) {
    return shfl(x, src, 0xffffffffu, 32);
}

// The groups of eigenvalues closer than ortol (lam ascending): start[j] is
// the first member of j's group (j itself if isolated from below); the
// dependent flags cleared. Threads stride by nt.
template <class R>
__device__ inline void group_starts(int n, const R *lam, R ortol, int *start, int *dependent, int nt) {
    for (int j = threadIdx.x; j < n; j += nt) {
        int s = j;
        while (s > 0 && lam[s] - lam[s - 1] <= ortol) --s;
        start[j] = s;
        dependent[j] = 0;
    }
}

template <class R> __device__ inline R start_value(int j, int k) { return R(syevj_tridiag_detail::start_entry(j, k)); }

template <class T>
__device__ inline T herm_at(const T *a, int lda, bool lower, int i, int j) {
    return core::jacobi::hermitian_entry(lower, core::MatView<const T>{a, lda, 1}, i, j);
}

// Step 1's check of matrix b (ga), a block of threads striding by nt: a
// NaN / Inf in the uplo triangle gives NaN in w and, with vectors, in A,
// info BATCHEIG_INFO_NONFINITE, sweeps 0 and a NaN residual, and returns
// false; else true with the scale 2^-e that takes max |a_ij| into [1, 2)
// (1 for the zero matrix). Shared with syevj_tri_global.cuh's prep_kernel.
template <class T>
__device__ inline bool check_scale(const SyevjProblem<T> &p, std::int64_t b, T *ga, const BlockTeam &tm, int nt,
                                   core::real_t<T> &scale) {
    using R = core::real_t<T>;
    const int n = p.n, t = threadIdx.x;
    R mx = 0;
    int bad = 0;
    for (int el = t; el < n * n; el += nt) {
        const int i = el % n, j = el / n;
        if (p.lower ? i < j : i > j) continue;
        core::jacobi::check_entry(herm_at(ga, p.lda, p.lower, i, j), mx, bad);
    }
    bad = tm.max(bad);
    mx = tm.max(mx);
    if (bad) {
        R *w = p.w + b * n;
        for (int j = t; j < n; j += nt) w[j] = core::make_nan<R>();
        if (p.want_v)
            for (int el = t; el < n * n; el += nt) ga[std::size_t(el / n) * p.lda + el % n] = core::make_nan<T>();
        if (t == 0) {
            p.info[b] = BATCHEIG_INFO_NONFINITE;
            if (p.sweeps) p.sweeps[b] = 0;
            if (p.residual) p.residual[b] = core::make_nan<double>();
        }
        return false;
    }
    constexpr int kMinExp = sizeof(R) == 4 ? -126 : -1022;
    scale = mx > 0 ? R(ldexp(R(1), -max(ilogb(mx), kMinExp))) : R(1);
    return true;
}

template <class T>
__global__ __launch_bounds__(kThreads, 2) void tri_kernel(SyevjProblem<T> p, std::int64_t b0, double tol_used) {
    using R = core::real_t<T>;
    extern __shared__ __align__(16) unsigned char tri_smem[];
    __shared__ unsigned long long red[32];
    const BlockTeam tm{red};
    const int n = p.n, t = threadIdx.x, lane = t & 31, warp = t >> 5;
    const std::int64_t b = b0 + blockIdx.x;
    const Smem<T> L(n);
    const int ls = n + 1;  // leading dimension of a (odd in elements)
    const int lz = n | 1;  // of z (odd: a warp walking down a column hits distinct banks)
    T *a = reinterpret_cast<T *>(tri_smem + L.a);
    R *z = reinterpret_cast<R *>(tri_smem + L.z);
    R *d = reinterpret_cast<R *>(tri_smem + L.d);
    R *e = reinterpret_cast<R *>(tri_smem + L.e);
    R *e2 = reinterpret_cast<R *>(tri_smem + L.e2);
    R *lam = reinterpret_cast<R *>(tri_smem + L.lam);
    R *dots = reinterpret_cast<R *>(tri_smem + L.dots);
    T *tau = reinterpret_cast<T *>(tri_smem + L.tau);
    T *vb = reinterpret_cast<T *>(tri_smem + L.v);
    T *ww = reinterpret_cast<T *>(tri_smem + L.y);
    T *yq = reinterpret_cast<T *>(tri_smem + L.yq);
    int *start = reinterpret_cast<int *>(tri_smem + L.start);
    int *dependent = reinterpret_cast<int *>(tri_smem + L.dep);
    int *quotient = reinterpret_cast<int *>(tri_smem + L.quo);
    T *ga = p.A + b * std::int64_t(p.lda) * n;
    R *w = p.w + b * n;

    // 1. Check, scale, copy.
    R scale;
    if (!check_scale(p, b, ga, tm, kThreads, scale)) return;
    R ss = 0;
    for (int el = t; el < n * n; el += kThreads) {
        const int i = el % n, j = el / n;
        const T x = herm_at(ga, p.lda, p.lower, i, j) * scale;
        ss += abs2(x);
        a[j * ls + i] = x;
    }
    const R anorm = sqrt(tm.sum(ss));  // ends with the barrier that publishes a

    // 2. T = Q^H A_s Q, two barriers per step k: in phase A warp 0 forms
    // w_{k-1} from the partial products of phase B (k > 0), applies step
    // k-1's update to column k and forms reflector k from it; in phase B
    // the block applies step k-1's update to A(k+1:n, k+1:n) and sums each
    // updated entry's product with v_k into its row's partial (four column
    // classes: a warp reads 32 consecutive rows of a column), so A22 is
    // read once per step. Row k of the upper triangle is left stale: only
    // the trailing matrix and column k are read again. v_k is in
    // vb[(k & 1) n + r] (row k + 1 + r), w_{k-1} in ww[r] (row k + r).
    for (int k = 0; k < n; ++k) {
        T *col = a + k * ls;  // column k
        if (warp == 0) {
            // Lane l holds rows k + l and k + l + 32 of column k in cv.
            const int mp = n - k;
            T cv[2];
#pragma unroll
            for (int h = 0; h < 2; ++h) cv[h] = lane + 32 * h < mp ? col[k + lane + 32 * h] : T(0);
            if (k > 0) {
                const T *vp = vb + ((k - 1) & 1) * n;
                const T tp = tau[k - 1];
                T y[2], vr[2], s = T(0);
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int r = lane + 32 * h;
                    y[h] = vr[h] = T(0);
                    if (r < mp) {
                        T acc = yq[r];
#pragma unroll
                        for (int q = 1; q < kColThreads; ++q) acc += yq[q * n + r];
                        y[h] = tp * acc;
                        vr[h] = vp[r];
                        s += conj(y[h]) * vr[h];
                    }
                }
                s = warp_sum(s);
                const T alpha2 = R(-0.5) * tp * s;
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int r = lane + 32 * h;
                    y[h] += alpha2 * vr[h];  // w
                    if (r < mp) ww[r] = y[h];
                }
                const T w0 = shfl_t(y[0], 0);  // v_{k-1}'s first entry is 1
#pragma unroll
                for (int h = 0; h < 2; ++h) cv[h] -= vr[h] * conj(w0) + y[h];
            }
            if (lane == 0) d[k] = real(cv[0]);
            if (k + 1 < n) {
                R xs = 0;
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int r = lane + 32 * h;
                    if (r >= 2 && r < mp) xs += abs2(cv[h]);
                }
                xs = warp_sum(xs);
                const T alpha = shfl_t(cv[0], 1);  // row k + 1
                const R ar = real(alpha), ai = core::imag(alpha);
                T tk = T(0);
                R beta = ar;
                if (xs > 0 || ai != 0) {
                    beta = -copysign(sqrt(ar * ar + ai * ai + xs), ar);
                    if constexpr (core::is_complex<T>) tk = T((beta - ar) / beta, -ai / beta);
                    else tk = (beta - ar) / beta;
                    const T sc = T(1) / (alpha - T(beta));
#pragma unroll
                    for (int h = 0; h < 2; ++h) cv[h] = cv[h] * sc;
                }
                T *v = vb + (k & 1) * n;
#pragma unroll
                for (int h = 0; h < 2; ++h) {
                    const int r = lane + 32 * h;
                    if (r >= 2 && r < mp) col[k + r] = cv[h];
                    if (r >= 1 && r < mp) v[r - 1] = r == 1 ? T(1) : cv[h];
                }
                if (lane == 0) {
                    tau[k] = tk;
                    e[k] = beta;
                }
            }
        }
        __syncthreads();
        if (k + 1 == n) break;
        {
            const int m = n - k - 1;  // order of A22 = A(k+1:n, k+1:n)
            T *a22 = a + (k + 1) * ls + (k + 1);
            const T *v = vb + (k & 1) * n;
            const T *vp = vb + ((k - 1) & 1) * n + 1;  // v_{k-1} and w_{k-1} at row k + 1 + r
            const T *wp = ww + 1;
            const int i = t % kSyevjTriMaxN, q = t / kSyevjTriMaxN;
            if (i < m) {
                T acc = T(0);
                if (k > 0) {
                    const T vi = vp[i], wi = wp[i];
                    for (int jj = q; jj < m; jj += kColThreads) {
                        const T x = a22[jj * ls + i] - (vi * conj(wp[jj]) + wi * conj(vp[jj]));
                        a22[jj * ls + i] = x;
                        acc += x * v[jj];
                    }
                } else {
                    for (int jj = q; jj < m; jj += kColThreads) acc += a22[jj * ls + i] * v[jj];
                }
                yq[q * n + i] = acc;
            }
        }
        __syncthreads();
    }
    if (t == 0) e[n - 1] = 0;
    __syncthreads();

    // 3. Eigenvalues of T, ascending.
    R lo_b = core::limits<R>::huge(), hi_b = -core::limits<R>::huge(), tn = 0, em = 0;
    for (int i = t; i < n; i += kThreads) {
        const R el = i > 0 ? core::rabs(e[i - 1]) : R(0), er = core::rabs(e[i]);
        e2[i] = er * er;
        lo_b = min(lo_b, d[i] - el - er);
        hi_b = max(hi_b, d[i] + el + er);
        tn = max(tn, core::rabs(d[i]) + el + er);
        em = max(em, er * er);
    }
    lo_b = tm.min(lo_b);
    hi_b = tm.max(hi_b);
    tn = tm.max(tn);
    em = tm.max(em);
    const syevj_tridiag_detail::SturmTol<R> stol(tn, em);
    const R eps = stol.eps, pivmin = stol.pivmin, atol = stol.atol;
    lo_b -= stol.pad;
    hi_b += stol.pad;
    const R ortol = R(kOrtol) * tn;
    {
        const int j = t / kBisectThreads, g = t % kBisectThreads;
        const int base = lane & ~(kBisectThreads - 1);
        constexpr int kPts = kBisectThreads * kBisectPoints;
        R lo = lo_b, hi = hi_b;
        // Multisection of [lo, hi] until it is narrower than `wide` or at
        // the rounding level (the threads of an eigenvalue decide alike).
        const auto multisect = [&](bool active, R wide) {
            bool done = !active;
            for (int round = 0; round < kBisectRounds; ++round) {
                if (!done && (hi - lo <= max(2 * eps * max(core::rabs(lo), core::rabs(hi)) + atol, wide))) done = true;
                if (__all_sync(0xffffffffu, done)) break;
                R x[kBisectPoints];
                int c[kBisectPoints];
                const R h = (hi - lo) / R(kPts + 1);
#pragma unroll
                for (int s = 0; s < kBisectPoints; ++s) x[s] = lo + h * R(g * kBisectPoints + s + 1);
                if (!done) sturm_counts<R, kBisectPoints>(n, d, e2, x, pivmin, c);
                unsigned bits = 0;
#pragma unroll
                for (int s = 0; s < kBisectPoints; ++s) {
                    const unsigned bal = __ballot_sync(0xffffffffu, !done && c[s] > j);
                    // Point m = g' kBisectPoints + s of the group's thread g'.
#pragma unroll
                    for (int gg = 0; gg < kBisectThreads; ++gg)
                        bits |= ((bal >> (base + gg)) & 1u) << (gg * kBisectPoints + s);
                }
                if (!done) {
                    // The first point with more than j eigenvalues below it.
                    const int first = bits ? __ffs(bits) - 1 : kPts;
                    const R nlo = first > 0 ? lo + h * R(first) : lo;
                    const R nhi = first < kPts ? lo + h * R(first + 1) : hi;
                    if (!(nlo > lo || nhi < hi)) done = true;  // no progress: at the rounding level
                    lo = nlo;
                    hi = nhi;
                }
            }
        };
        // Every eigenvalue to kCoarse ||T||_1; those of groups (a neighbour
        // within ortol) on to working accuracy. An isolated one gets its
        // Rayleigh quotient once its vector is known (below): two solves
        // shifted kCoarse ||T||_1 off it at most shrink the other
        // components by kCoarse / kOrtol (1.5e-8) each, so its vector, and
        // with it the quotient, is as accurate as with the exact shift.
        multisect(j < n, R(kCoarse) * tn);
        if (j < n && g == 0) lam[j] = R(0.5) * (lo + hi);
        __syncthreads();
        const bool grouped =
            j < n && ((j > 0 && lam[j] - lam[j - 1] <= ortol) || (j + 1 < n && lam[j + 1] - lam[j] <= ortol));
        __syncthreads();
        multisect(grouped, R(0));
        if (j < n && g == 0) {
            lam[j] = n == 1 ? d[0] : anorm == 0 ? R(0) : R(0.5) * (lo + hi);
            quotient[j] = n > 1 && anorm > 0 && !grouped;
        }
    }
    __syncthreads();

    // 4. Eigenvectors of T: z(k, j) at z[k lz + j].
    group_starts(n, lam, ortol, start, dependent, kThreads);
    const R tiny = max(eps * tn, pivmin);
    {
        // The factors of T - lambda_j I (thread j): U's diagonals, the
        // multipliers and the rows exchanged.
        R ru0[kSyevjTriMaxN], u1[kSyevjTriMaxN], u2[kSyevjTriMaxN], ml[kSyevjTriMaxN];
        unsigned long long swapped = 0;
        const int j = t;
        if (j < n) {
            const R s = lam[j];
            R pv = d[0] - s, qv = n > 1 ? e[0] : R(0);
#pragma unroll 4
            for (int k = 0; k + 1 < n; ++k) {
                const R sub = e[k], dn = d[k + 1] - s, en = k + 2 < n ? e[k + 1] : R(0);
                if (core::rabs(pv) >= core::rabs(sub)) {
                    const R a0 = core::rabs(pv) < tiny ? copysign(tiny, pv) : pv;
                    const R mlt = sub / a0;
                    ru0[k] = R(1) / a0;
                    u1[k] = qv;
                    u2[k] = 0;
                    ml[k] = mlt;
                    pv = dn - mlt * qv;
                    qv = en;
                } else {
                    const R mlt = pv / sub;
                    ru0[k] = R(1) / sub;
                    u1[k] = dn;
                    u2[k] = en;
                    ml[k] = mlt;
                    swapped |= 1ull << k;
                    pv = qv - mlt * dn;
                    qv = -mlt * en;
                }
            }
            ru0[n - 1] = R(1) / (core::rabs(pv) < tiny ? copysign(tiny, pv) : pv);
        }
        // kSteps solves of every column; then, if the last one's
        // orthogonalization replaced members, one more solve of those alone
        // and their groups orthogonalized again (as syevj_tri_global.cuh).
        bool again = false;  // alike in every thread
        for (int step = 0; step < kSteps || again; ++step) {
            bool solve = j < n;
            if (solve) {
                const bool replaced = dependent[j] == syevj_tridiag_detail::kReplaced;
                dependent[j] = 0;
                solve = step < kSteps || replaced;
            }
            if (solve) {
                // Forward elimination of the right-hand side into column j,
                // then back substitution, kChunk steps at a time: the
                // factors (local memory) and the right-hand sides of a
                // chunk are loaded before its serial chain runs.
                R beta = step == 0 ? start_value<R>(j, 0) : z[j];
                for (int k0 = 0; k0 + 1 < n; k0 += kChunk) {
                    R mc[kChunk], bc[kChunk];
#pragma unroll
                    for (int u = 0; u < kChunk; ++u) {
                        const int k = k0 + u;
                        const bool in = k + 1 < n;
                        mc[u] = in ? ml[k] : R(0);
                        bc[u] = !in ? R(0) : step == 0 ? start_value<R>(j, k + 1) : z[(k + 1) * lz + j];
                    }
#pragma unroll
                    for (int u = 0; u < kChunk; ++u) {
                        const int k = k0 + u;
                        if (k + 1 < n) {
                            if (swapped >> k & 1ull) {
                                z[k * lz + j] = bc[u];
                                beta = beta - mc[u] * bc[u];
                            } else {
                                z[k * lz + j] = beta;
                                beta = bc[u] - mc[u] * beta;
                            }
                        }
                    }
                }
                z[(n - 1) * lz + j] = beta;
                // Back substitution, the sum of squares on the way.
                syevj_tridiag_detail::BackSubst<R> bs;
                for (int k0 = n - 1; k0 >= 0; k0 -= kChunk) {
                    R rc[kChunk], c1[kChunk], c2[kChunk], hc[kChunk];
#pragma unroll
                    for (int u = 0; u < kChunk; ++u) {
                        const int k = k0 - u;
                        const bool in = k >= 0;
                        rc[u] = in ? ru0[k] : R(0);
                        c1[u] = in ? u1[k] : R(0);
                        c2[u] = in ? u2[k] : R(0);
                        hc[u] = in ? z[k * lz + j] : R(0);
                    }
#pragma unroll
                    for (int u = 0; u < kChunk; ++u) {
                        const int k = k0 - u;
                        if (k >= 0) {
                            R rhs = hc[u];
                            if (k + 1 < n) rhs -= c1[u] * bs.x1;
                            if (k + 2 < n) rhs -= c2[u] * bs.x2;
                            z[k * lz + j] = bs.solved(rhs * rc[u], solve_rescale<R>(), [&](R down) {
                                for (int i = 0; i < n; ++i) z[i * lz + j] *= down;
#pragma unroll
                                for (int v = u + 1; v < kChunk; ++v) hc[v] *= down;
                            });
                        }
                    }
                }
                R sq = bs.ss;
                R sc = sq > 0 && sq < core::limits<R>::huge() ? R(1) / sqrt(sq) : R(0);
                if (!(sc > 0)) {
                    // Overflow or a zero solution: restart from a random vector.
                    sq = 0;
                    for (int k = 0; k < n; ++k) {
                        const R x = start_value<R>(j, k + 7 * step + 1);
                        z[k * lz + j] = x;
                        sq += x * x;
                    }
                    sc = R(1) / sqrt(sq);
                }
                for (int k = 0; k < n; ++k) z[k * lz + j] *= sc;
            }
            __syncthreads();
            // The groups orthogonalized as in the single-precision stage
            // (column c of Z at z + c, stride lz).
            const bool replaced = syevj_tridiag_detail::orthogonalize_groups(
                n, [&](int c) { return syevj_tridiag_detail::ZCol<R>{z + c, lz}; }, dots, start, dependent, tm,
                R(kDependentKeep * kDependentKeep), [](R sq) { return sq > 0 ? R(1) / sqrt(sq) : R(0); },
                [](int jj, int k) { return start_value<R>(jj, k + 7 * kSteps + 1); });
            again = step == kSteps - 1 && replaced;
        }
    }

    // Z <- Z (3 I - G) / 2, G = Z^T Z (in the upper triangle of a, free
    // since the reduction): Z's columns are orthonormal to O(||I - G||^2),
    // and ||I - G|| is of order u ||T|| / gap between groups (the groups
    // and dependent members are orthonormal already); a column moves by
    // about (I - G) / 2, so its residual grows by about u ||T||.
    {
        constexpr int P = sizeof(T) / sizeof(R);
        R *gs = reinterpret_cast<R *>(a);  // G(i, j), i <= j, at gs[P (j ls + i)]
        for (int el = t; el < n * n; el += kThreads) {
            const int i = el % n, j = el / n;
            if (i > j) continue;
            R acc = 0;
            for (int k = 0; k < n; ++k) acc += z[k * lz + i] * z[k * lz + j];
            gs[P * (j * ls + i)] = acc;
        }
        __syncthreads();
        const int k = t % kSyevjTriMaxN, q = t / kSyevjTriMaxN;
        R acc[kRows];
#pragma unroll
        for (int c = 0; c < kRows; ++c) acc[c] = 0;
        if (k < n)
            for (int i = 0; i < n; ++i) {
                const R zi = z[k * lz + i];
#pragma unroll
                for (int c = 0; c < kRows; ++c) {
                    const int j = q * kRows + c;
                    if (j < n) acc[c] += zi * gs[P * (i <= j ? j * ls + i : i * ls + j)];
                }
            }
        __syncthreads();
        if (k < n)
#pragma unroll
            for (int c = 0; c < kRows; ++c) {
                const int j = q * kRows + c;
                if (j < n) z[k * lz + j] = R(1.5) * z[k * lz + j] - R(0.5) * acc[c];
            }
        __syncthreads();
    }

    // The isolated eigenvalues: z_j^T T z_j / z_j^T z_j.
    for (int j = t; j < n; j += kThreads) {
        if (!quotient[j]) continue;
        R num = 0, den = 0;
        for (int k = 0; k < n; ++k) {
            const R zk = z[k * lz + j];
            R tz = d[k] * zk;
            if (k > 0) tz += e[k - 1] * z[(k - 1) * lz + j];
            if (k + 1 < n) tz += e[k] * z[(k + 1) * lz + j];
            num += zk * tz;
            den += zk * zk;
        }
        lam[j] = num / den;
    }
    __syncthreads();

    // 5. r = ||T Z - Z Lambda||_F / ||A_s||_F.
    R rr = 0;
    for (int j = t; j < n; j += kThreads) {
        const R lj = lam[j];
        for (int k = 0; k < n; ++k) {
            R x = (d[k] - lj) * z[k * lz + j];
            if (k > 0) x += e[k - 1] * z[(k - 1) * lz + j];
            if (k + 1 < n) x += e[k] * z[(k + 1) * lz + j];
            rr += x * x;
        }
    }
    rr = tm.sum(rr);
    const double resid = anorm > 0 ? double(sqrt(rr) / anorm) : 0.0;

    // 6. Outputs.
    for (int j = t; j < n; j += kThreads) w[j] = lam[j] / scale;
    if (p.want_v) {
        // v_k in full in column k of a: zeros down to row k, one at row
        // k + 1 (G's space is free again).
        for (int el = t; el < n * n; el += kThreads) {
            const int r = el % n, k = el / n;
            if (k + 1 < n && r <= k + 1) a[k * ls + r] = r == k + 1 ? T(1) : T(0);
        }
        __syncthreads();
        // Column c, rows q, q + 4, ... (the four threads of a column read
        // consecutive entries of v).
        const int c = t / kColThreads, q = t % kColThreads;
        T x[kRows];
#pragma unroll
        for (int i = 0; i < kRows; ++i) {
            const int r = q + kColThreads * i;
            x[i] = c < n && r < n ? T(z[r * lz + c]) : T(0);
        }
        for (int k = n - 2; k >= 0; --k) {
            const T tk = tau[k];
            if (tk == T(0)) continue;
            const T *col = a + k * ls;
            T s = T(0);
#pragma unroll
            for (int i = 0; i < kRows; ++i) {
                const int r = q + kColThreads * i;
                if (r < n) s += conj(col[r]) * x[i];
            }
            s += shfl_xor(s, 1, 0xffffffffu);  // the column's four threads
            s += shfl_xor(s, 2, 0xffffffffu);
            s = tk * s;
#pragma unroll
            for (int i = 0; i < kRows; ++i) {
                const int r = q + kColThreads * i;
                if (r < n) x[i] -= col[r] * s;
            }
        }
        if (c < n) {
#pragma unroll
            for (int i = 0; i < kRows; ++i) {
                const int r = q + kColThreads * i;
                if (r < n) ga[std::size_t(c) * p.lda + r] = x[i];
            }
        }
    }
    if (t == 0) {
        p.info[b] = resid <= tol_used ? 0 : BATCHEIG_INFO_JACOBI_NOT_CONVERGED;
        if (p.sweeps) p.sweeps[b] = 0;
        if (p.residual) p.residual[b] = resid;
    }
}

}  // namespace syevj_tri_detail

template <class T>
inline std::size_t syevj_tri_shared_bytes(int n) {
    return syevj_tri_detail::Smem<T>(n).total;
}

// Whether BATCHEIG_ALG_JACOBI_CUDA_TRIDIAG claims order n on the current
// device: n <= 64 and its shared memory fits the opt-in limit.
template <class T>
bool syevj_tri_shared_fits(int n) {
    return n >= 1 && n <= kSyevjTriMaxN &&
           syevj_tri_shared_bytes<T>(n) + kStaticSharedMax <= std::size_t(shared_optin_bytes());
}

// The tolerance the variant tests with: max(tol, 32 n u).
template <class R>
inline double syevj_tri_tolerance(double tol, int n) {
    const double u = double(core::limits<R>::eps());
    const double t = tol > 0 ? tol : 2 * u;
    const double floor = syevj_tri_detail::kTolFactor * n * u;
    return t > floor ? t : floor;
}

template <class T>
batcheigStatus_t syevj_tri(cudaStream_t s, const SyevjProblem<T> &p) {
    using namespace syevj_tri_detail;
    const std::size_t bytes = syevj_tri_shared_bytes<T>(p.n);
    batcheigStatus_t st = allow_shared(tri_kernel<T>, bytes);
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    const double tol = syevj_tri_tolerance<core::real_t<T>>(p.tolerance, p.n);
    return launch_pieces(p.batch, [&](std::int64_t b0, std::int64_t count) {
        tri_kernel<T><<<unsigned(count), kThreads, bytes, s>>>(p, b0, tol);
    });
}

}  // namespace batcheig::cuda
