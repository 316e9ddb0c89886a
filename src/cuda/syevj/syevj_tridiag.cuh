// The tridiagonal first stage of BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG
// (syevj_mixed.cuh): approximate eigenvectors of the scaled matrix rounded
// to single precision, for the double-precision finish to refine. Three
// steps per call (four launches from n = 16):
//   1. reduce_kernel, one block per matrix: Householder reduction to real
//      symmetric tridiagonal form, T = Q^H A Q, Q = H(0) H(1) ... H(n-2),
//      H(k) = I - tau_k v_k v_k^H (xHETD2's lower form in single precision,
//      in place in the working matrix: v_k below the subdiagonal of column
//      k, d and e of T and tau apart);
//   2. vectors_kernel, one block per matrix: every eigenvalue of T by
//      bisection on Sturm counts (one member per eigenvalue), then three
//      steps of inverse iteration with a random start, each a solve with
//      T - lambda_j I by Gaussian elimination with partial pivoting (one
//      member per eigenvector); eigenvalues closer than 1e-3 ||T||_1
//      (xSTEIN's ORTOL) form a group whose vectors are orthogonalised in
//      order by classical Gram-Schmidt applied twice after every step, so
//      a tight group gives an orthonormal basis of its invariant subspace
//      (a member left with almost nothing, numerically dependent, is
//      replaced by a random vector orthogonal to every other one:
//      kDependentKeep; solves that grow towards overflow are rescaled:
//      kSolveRescale);
//   3. X = Q Z (the reflectors in reverse order), widened into the finish's
//      first iterate, a block per strip of columns of Z and per matrix:
//      back_gram_kernel then back_blocked_kernel (blocks of 8 reflectors
//      against a strip held in registers) for n in [16, 4096], else
//      back_kernel (one reflector at a time against a strip in shared
//      memory).
// Its work is O(n^3) in BLAS-2 form against the single-precision Jacobi's
// sweeps of O(n^3) each; the finish does not need orthonormal input (its
// first updates orthogonalise).
#pragma once

#include <algorithm>
#include <cfloat>
#include <cstdint>

#include <cuda_pipeline.h>

#include "core/jacobi.hpp"
#include "core/types.hpp"
#include "cuda/cuda_check.cuh"
#include "cuda/launch.cuh"
#include "cuda/syevj/syevj_lane.cuh"
#include "cuda/team.cuh"

namespace batcheig::cuda {

namespace syevj_tridiag_detail {

using core::conj;
using core::real;
using core::jacobi::abs2;
using syevj_lane_detail::shfl_xor;

// Byte offsets of the stage's arrays in its workspace (each 256-byte
// aligned), for a batch of b matrices of order n over the lower type F.
template <class F>
struct TridiagLayout {
    std::size_t de, tau, z, u, total;
    TridiagLayout(int n, std::int64_t batch) {
        const std::size_t nn = std::size_t(n) * std::size_t(n), b = std::size_t(batch);
        std::size_t off = 0;
        auto take = [&](std::size_t bytes) {
            const std::size_t o = off;
            off += align256(bytes);
            return o;
        };
        de = take(2 * std::size_t(n) * b * sizeof(float));
        tau = take(std::size_t(n) * b * sizeof(F));
        z = take(nn * b * sizeof(float));
        u = take(3 * nn * b * sizeof(float));
        total = off;
    }
};

__device__ inline float re_of(float x) { return x; }
__device__ inline float re_of(core::complex<float> x) { return x.re; }
__device__ inline float im_of(float) { return 0.f; }
__device__ inline float im_of(core::complex<float> x) { return x.im; }
__device__ inline double re_of(double x) { return x; }
__device__ inline double re_of(core::complex<double> x) { return x.re; }
__device__ inline double im_of(double) { return 0.; }
__device__ inline double im_of(core::complex<double> x) { return x.im; }
template <class F>
__device__ inline F make_f(core::real_t<F> re, core::real_t<F> im) {
    if constexpr (core::is_complex<F>) return F{re, im};
    else return re;
}

// Complex division a / b (|b| well inside the range).
template <class R> __device__ inline R div_f(R a, R b) { return a / b; }
template <class R>
__device__ inline core::complex<R> div_f(core::complex<R> a, core::complex<R> b) {
    const R d = b.re * b.re + b.im * b.im;
    return {(a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d};
}

// Where reduce_kernel finds matrix b (its lower triangle, leading
// dimension ld) and puts d, e and tau: the working matrices of the
// single-precision stage (ld n; d, e and tau in the workspace; matrices
// whose state is done skipped). The working-precision variant of
// syevj_tri_global.cuh has its own.
template <class F, class S>
struct StageArrays {
    using R = core::real_t<F>;
    F *a32;
    float *de;
    F *tau_out;
    const S *done;
    int n;
    __device__ bool skip(std::int64_t b) const { return done[b].done; }
    __device__ F *matrix(std::int64_t b) const { return a32 + std::size_t(n) * n * b; }
    __device__ int ld() const { return n; }
    __device__ R *d(std::int64_t b) const { return de + 2 * std::size_t(n) * b; }
    __device__ R *e(std::int64_t b) const { return d(b) + n; }
    __device__ void set_tau(std::int64_t b, int k, F x) const { tau_out[std::size_t(n) * b + k] = x; }
};

// Block threads of the vector launch (the reduction sizes its own grid).
inline int tridiag_threads(int n) { return n <= 128 ? 128 : n <= 256 ? 256 : 512; }

// 1. T = Q^H A Q, one block per matrix. Each step k fuses two passes:
// the update A22 -= v w^H + w v^H of step k and the product y = A33 v'
// of step k + 1 read and write A33 once (its first column, which gives
// v', is updated first). The block's members form a grid of rw rows by
// P = blockDim.x / rw column classes; member (rr, p) takes columns p,
// p + P, ... of its rows, so a warp reads a column's consecutive rows.
// - in_smem (the matrix copied to shared memory first, and back at the
//   end): the passes cover the whole trailing matrix, member (rr, p)
//   owns rows rr, rr + rw, ...;
// - lower (in global memory, where the loads' latency bounds a pass):
//   they cover its lower triangle only, and the upper one is never read
//   or written. A stored entry x = A(r, c), r > c, adds x v'_c to y_r
//   (the member's row sum) and conj(x) v'_r to y_c (summed over the warp
//   by shuffles, one partial per warp row group and column). A warp takes
//   blocks of 32 rows boustrophedon-wise (group g: blocks g, 2 G - 1 - g,
//   2 G + g, ... of G groups), so the warps share the triangle evenly,
//   and loads four entries of a row before it updates them.
// Measured on an H200 (batch 200, docs/performance.md, session 50): the
// lower passes took MIXED_TRIDIAG from 104.5 to 76.8 ms at double
// n = 512 and from 190 to 146 ms at complex double n = 512; with the
// matrix in shared memory they were slower (double n = 128 2.17 ->
// 2.55 ms: the shuffles cost more than the loads they save).
// smem: v, w, v', w' (4 n of F), the row partials (P n of F), the column
// partials (rw / 32 n of F, used by the lower passes only), the matrix (n^2
// of F, in_smem only).
// __launch_bounds__(512, 2): at most 64 registers, so two 512-thread blocks
// share an SM and batch 200 runs in one wave on 132 SMs. Without the
// minimum, ptxas once gave the complex kernel 90 registers (one block per
// SM), and complex double n = 512 took 167 instead of 146 ms; with it, 64
// registers and no spills in both precisions. Measured on an H200 (session
// 52, MIXED_TRIDIAG, batch 200): complex double n = 512 144.8 against
// 146.4 ms, n = 128 3.89 against 3.99; results bitwise unchanged.
template <class F, class P>
__global__ __launch_bounds__(512, 2) void reduce_kernel(int n, int rw, std::int64_t b0, P arr, bool in_smem,
                                                     bool lower) {
    using R = core::real_t<F>;
    extern __shared__ float4 tri_shared4[];
    __shared__ unsigned long long red[32];
    __shared__ R s_ti[4];  // tau and 1 / (alpha - beta), re and im
    const BlockTeam tm{red};
    const std::int64_t b = b0 + blockIdx.x;
    if (arr.skip(b)) return;
    F *ga = arr.matrix(b);
    const int lda = arr.ld();
    R *d = arr.d(b), *e = arr.e(b);
    const int t = threadIdx.x, nt = blockDim.x, np = nt / rw, rr = t % rw, pp = t / rw;
    F *v = reinterpret_cast<F *>(tri_shared4), *w = v + n, *vn = w + n, *wn = vn + n, *part = wn + n;
    F *colpart = part + std::size_t(np) * n;
    const int groups = rw / 32;  // warp row groups
    F *a = in_smem ? colpart + std::size_t(groups) * n : ga;
    const int ld = in_smem ? n : lda;
    if (in_smem) {
        for (int i = t; i < n * n; i += nt) a[i] = ga[std::size_t(i / n) * lda + i % n];
        __syncthreads();
    }
    auto at = [&](int r, int c) -> F & { return a[c * ld + r]; };  // n ld < 2^31 (n <= 4141)
    const F zero = make_f<F>(0, 0), one = make_f<F>(1, 0);
    // The reflector of column k from x = A(k+1:n, k) in xb (len entries):
    // H^H x = beta e_1 (xLARFG); xb becomes v (v_0 = 1), written back below
    // the subdiagonal; e(k), tau(k). Returns tau.
    auto reflect = [&](int k, F *xb, int len) -> F {
        __syncthreads();  // xb was written by other members
        R xn = 0;
        for (int r = t; r < len; r += nt)
            if (r > 0) xn += abs2(xb[r]);
        xn = tm.sum(xn);
        if (tm.leader()) {
            const F alpha = xb[0];
            const R ar = re_of(alpha), ai = im_of(alpha);
            F tk = zero, inv = zero;
            R beta = ar;
            if (xn > 0 || ai != 0) {
                beta = -copysign(sqrt(ar * ar + ai * ai + xn), ar);
                tk = make_f<F>((beta - ar) / beta, -ai / beta);
                inv = div_f(one, alpha - make_f<F>(beta, 0));
            }
            s_ti[0] = re_of(tk);
            s_ti[1] = im_of(tk);
            s_ti[2] = re_of(inv);
            s_ti[3] = im_of(inv);
            e[k] = beta;
            arr.set_tau(b, k, tk);
        }
        __syncthreads();
        const F tk = make_f<F>(s_ti[0], s_ti[1]), inv = make_f<F>(s_ti[2], s_ti[3]);
        if (re_of(tk) != 0 || im_of(tk) != 0) {
            for (int r = t; r < len; r += nt) {
                const F x = r == 0 ? one : xb[r] * inv;
                xb[r] = x;
                if (r > 0) at(k + 1 + r, k) = x;
            }
        }
        __syncthreads();
        return tk;
    };
    // w = y - (tau / 2) (y^H v) v, y = tau (sum of the partial products).
    auto finish_w = [&](F tk, const F *vb, F *wb, int len) {
        R dre = 0, dim = 0;
        for (int r = t; r < len; r += nt) {
            F sum = part[r];
            for (int q = 1; q < np; ++q) sum += part[q * n + r];
            if (lower)
                for (int q = 0; q < groups; ++q) sum += colpart[q * n + r];
            const F y = tk * sum;
            wb[r] = y;
            const F yv = conj(y) * vb[r];
            dre += re_of(yv);
            dim += im_of(yv);
        }
        dre = tm.sum(dre);
        if constexpr (core::is_complex<F>) dim = tm.sum(dim);
        const F alpha2 = make_f<F>(R(-0.5), 0) * tk * make_f<F>(dre, dim);
        for (int r = t; r < len; r += nt) wb[r] = wb[r] + alpha2 * vb[r];
        __syncthreads();
    };
    // The pass over the m2 x m2 trailing matrix at (off, off) (its lower
    // triangle with `lower`): with vu, the update x -= vu_r conj(wu_c) +
    // wu_r conj(vu_c) first; then the row (and column) partials of
    // y = A33 vp. colpart must be zero on entry (the warps add to it, each
    // to its own entries).
    const int lane = t & 31, group = rr / 32;
    auto pass = [&](int off, int m2, const F *vu, const F *wu, const F *vp) {
        if (!lower) {
            // The whole trailing matrix: x adds x vp_c to y_r; no column sums.
            for (int r = rr; r < m2; r += rw) {
                const F vr = vu ? vu[r] : zero, wr = vu ? wu[r] : zero;
                F acc = zero;
                for (int c = pp; c < m2; c += np) {
                    F &ref = at(off + r, off + c);
                    F x = ref;
                    if (vu) {
                        x = x - vr * conj(wu[c]) - wr * conj(vu[c]);
                        ref = x;
                    }
                    acc += x * vp[c];
                }
                part[pp * n + r] = acc;
            }
            __syncthreads();
            return;
        }
        // The warp's blocks of 32 rows, boustrophedon over the groups
        // (group g takes blocks g, 2 G - 1 - g, 2 G + g, ...), so every
        // warp gets about as many entries of the triangle.
        const int nb = (m2 + 31) / 32;
        for (int j = 0; j * groups < nb; ++j) {
            const int blk = (j & 1) ? (j + 1) * groups - 1 - group : j * groups + group;
            if (blk >= nb) continue;
            const int r0 = 32 * blk;  // the warp's rows r0 .. r0 + 31
            const int r = r0 + lane;
            const bool row = r < m2;
            const F vr = row && vu ? vu[r] : zero, wr = row && vu ? wu[r] : zero, pr = row ? vp[r] : zero;
            const int cend = ::min(m2, r0 + 32);
            F acc = zero;
            // kU columns at a time, their loads issued together.
            constexpr int kU = 4;
            for (int cb = pp; cb < cend; cb += kU * np) {
                F xs[kU];
#pragma unroll
                for (int u = 0; u < kU; ++u) {
                    const int c = cb + u * np;
                    xs[u] = row && c < cend && c <= r ? at(off + r, off + c) : zero;
                }
#pragma unroll
                for (int u = 0; u < kU; ++u) {
                    const int c = cb + u * np;
                    if (c >= cend) break;  // uniform over the warp
                    F x = xs[u];
                    if (row && c <= r) {
                        if (vu) {
                            x = x - vr * conj(wu[c]) - wr * conj(vu[c]);
                            at(off + r, off + c) = x;
                        }
                        acc += x * vp[c];
                    }
                    const F cv = row && c < r ? conj(x) * pr : zero;
                    R cre = re_of(cv), cim = im_of(cv);
#pragma unroll
                    for (int o = 16; o > 0; o >>= 1) {
                        cre += __shfl_xor_sync(0xffffffffu, cre, o);
                        if constexpr (core::is_complex<F>) cim += __shfl_xor_sync(0xffffffffu, cim, o);
                    }
                    if (lane == 0) colpart[group * n + c] += make_f<F>(cre, cim);
                }
            }
            if (row) part[pp * n + r] = acc;
        }
        __syncthreads();
    };
    auto clear_colpart = [&] {  // the whole-matrix passes never write them
        if (lower)
            for (int i = t; i < groups * n; i += nt) colpart[i] = zero;
    };
    if (tm.leader()) d[0] = re_of(at(0, 0));  // e(n-1) is never read
    if (n >= 2) {
        // Step 0: its reflector and y = A22 v (a read-only pass).
        const int m = n - 1;
        for (int r = t; r < m; r += nt) v[r] = at(1 + r, 0);
        clear_colpart();
        const F tk = reflect(0, v, m);
        pass(1, m, nullptr, nullptr, v);
        finish_w(tk, v, w, m);
    }
    for (int k = 0; k + 1 < n; ++k) {
        const int m = n - k - 1;  // A22 = rows and columns k+1 .. n-1
        // Column k+1 updated: its diagonal is d(k+1), the rest is x'.
        for (int r = t; r < m; r += nt) {
            const F x = at(k + 1 + r, k + 1) - v[r] * conj(w[0]) - w[r] * conj(v[0]);
            at(k + 1 + r, k + 1) = x;
            if (r == 0) d[k + 1] = re_of(x);
            else vn[r - 1] = x;
        }
        if (m == 1) break;
        const int m2 = m - 1;  // A33 = rows and columns k+2 .. n-1
        clear_colpart();
        const F tn = reflect(k + 1, vn, m2);
        pass(k + 2, m2, v + 1, w + 1, vn);
        finish_w(tn, vn, wn, m2);
        F *sv = v, *sw = w;
        v = vn;
        w = wn;
        vn = sv;
        wn = sw;
    }
    if (in_smem) {
        __syncthreads();
        for (int i = t; i < n * n; i += nt) ga[std::size_t(i / n) * lda + i % n] = a[i];
    }
}

// The working-precision eigenvalue search's terms (xSTEBZ's defaults) from
// tn = ||T||_1 and em = max e_i^2: pivmin, the padding of the Gershgorin
// interval, and the absolute tolerance of the stopping width 2 eps
// max(|lo|, |hi|) + atol.
template <class R>
struct SturmTol {
    R eps, pivmin, pad, atol;
    __device__ SturmTol(R tn, R em)
        : eps(core::limits<R>::eps()),
          pivmin(core::limits<R>::safmin() * max(R(1), em)),
          pad(2 * eps * tn + 2 * pivmin),
          atol(eps * tn + pivmin) {}
};

// A back substitution's running values, solved from the last row up: the
// last two entries (x1, x2) and the sum of squares ss of the entries so
// far. solved(x, limit, scale_rest) takes the next entry and returns what
// to store: an entry past limit (a power of two) first scales everything
// by 1 / limit, scale_rest(down) the column (solved entries and right-hand
// sides still to come), so the vector's direction keeps every bit and ss
// cannot overflow.
template <class R>
struct BackSubst {
    R x1 = 0, x2 = 0, ss = 0;
    template <class Scale>
    __device__ R solved(R x, R limit, Scale &&scale_rest) {
        if (fabs(x) > limit) {
            const R down = R(1) / limit;
            scale_rest(down);
            x *= down;
            x1 *= down;
            x2 *= down;
            ss *= down * down;
        }
        x2 = x1;
        x1 = x;
        ss += x * x;
        return x;
    }
};

// Sturm count: eigenvalues of T (d, e2 = e^2) below x. A pivot below
// pivmin becomes -pivmin before it is counted (xLAEBZ's order): replacing
// it only for the next division counted a pivot that cancelled to +0 as
// positive while the next step saw it negative, so the count could miss
// an eigenvalue far from x (found with a host model of this stage: one
// eigenvalue 0.066 off at complex double n = 512).
template <class R>
__device__ inline int sturm_count(int n, const R *d, const R *e2, R x, R pivmin) {
    R q = d[0] - x;
    if (fabs(q) < pivmin) q = -pivmin;
    int c = q < 0;
    for (int i = 1; i < n; ++i) {
        q = d[i] - x - e2[i - 1] / q;
        if (fabs(q) < pivmin) q = -pivmin;
        c += q < 0;
    }
    return c;
}

// A pseudo-random start entry in [-1, 1) for eigenvector j, row k.
__device__ inline float start_entry(int j, int k) {
    unsigned h = unsigned(j) * 0x9E3779B1u ^ (unsigned(k) + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return float(h >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

inline constexpr int kInverseSteps = 3;

// A back substitution whose entries pass this is scaled by its inverse (a
// power of two, so the vector's direction keeps every bit), and the sum of
// their squares cannot overflow: a solve of T - lambda I with T's cluster
// of 511 eigenvalues at single-precision rounding level (the tests'
// orth-similar-cluster at complex double n = 512) grew past FLT_MAX, and the
// members restarted from random vectors that no later solve refined.
inline constexpr float kSolveRescale = 0x1p50f;

// A group member that keeps less than this of its (unit) norm through both
// Gram-Schmidt passes is numerically in the span of the members before it:
// what is left is rounding, and orthogonalising later members against it
// spread that error until whole runs of them were parallel. Such a member
// is left out of the later members' passes and, at the end of the step,
// replaced by a random vector orthogonalised against every other vector of
// the matrix (its group's and the rest), so that the group still spans its
// share of the space. 1e-2 keeps the members' orthogonality near single
// precision (the loss is about u / kept); on the cluster above, a host copy
// of this stage on the GPU's T gave ||Z^T Z - I||_F = 1.1e-5 with it and
// 1.4 (GPU) to 110 (host) without it, and the finish needed 3 updates
// instead of 10. In the host model (bench/experiments/
// syevj_refine_model.cpp) no member of random, clustered, paired or
// geometric spectra at n = 300 kept less; nearly-identity matrices
// (I + 2^-26 R) lose a member now and then (one of 100), with the same
// iteration counts.
inline constexpr float kDependentKeep = 1e-2f;

// Column j of Z: entry k at p[k s] (the stage's row-major Z: s = n; the
// strip layout of syevj_tri_global.cuh: s = the strip's width).
template <class R>
struct ZCol {
    R *p;
    int s;
    __device__ R &operator[](int k) const { return p[std::size_t(k) * s]; }
};

// After a step of inverse iteration, one block per matrix: each group's
// members in order (start[j] < j: the group's first member) against the
// ones before them that are not dependent, classical Gram-Schmidt twice,
// then normalized; a member left with a sum of squares below keep2 is
// dependent (kDependentKeep, flag 1). Then the dependent members, in
// order: a fresh vector fresh(j, k) against every column whose flag is not
// 1 (the members replaced before it included), flagged 2 (kReplaced).
// col(j) gives column j (ZCol), inv_norm(ss) the scale of a column whose
// sum of squares is ss; dots holds n entries. Returns (alike in every
// thread) whether a member was replaced: the fresh vector lies in the
// complement of the others, which is an eigenvector only when a single
// member was missing, so the caller solves replaced members once more.
inline constexpr int kReplaced = 2;  // orthogonalize_groups' flag of a replaced member

template <class R, class Col, class InvNorm, class Fresh>
__device__ inline bool orthogonalize_groups(int n, const Col &col, R *dots, const int *start, int *dependent,
                                            const BlockTeam &tm, R keep2, InvNorm inv_norm, Fresh fresh) {
    const int t = threadIdx.x, nt = blockDim.x, warp = t >> 5, lane = t & 31, nw = nt >> 5;
    // Column j less its components along the columns c in [c0, c1) whose
    // flag is clear, twice; dots[c - c0] holds the products.
    const auto project_out = [&](int j, int c0, int c1) {
        const ZCol<R> zj = col(j);
        for (int pass = 0; pass < 2; ++pass) {
            for (int c = c0 + warp; c < c1; c += nw) {
                R acc = 0;
                if (c != j && dependent[c] != 1) {
                    const ZCol<R> zc = col(c);
                    for (int k = lane; k < n; k += 32) acc += zc[k] * zj[k];
                }
#pragma unroll
                for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
                if (lane == 0) dots[c - c0] = acc;
            }
            __syncthreads();
            for (int k = t; k < n; k += nt) {
                R acc = 0;
                for (int c = c0; c < c1; ++c) acc += dots[c - c0] * col(c)[k];
                zj[k] -= acc;
            }
            __syncthreads();
        }
    };
    // Scales column j to unit norm; returns its sum of squares before.
    const auto normalize = [&](int j) {
        const ZCol<R> zj = col(j);
        R ss = 0;
        for (int k = t; k < n; k += nt) ss += zj[k] * zj[k];
        ss = tm.sum(ss);
        const R sc = inv_norm(ss);
        for (int k = t; k < n; k += nt) zj[k] *= sc;
        return ss;
    };
    for (int j = 1; j < n; ++j) {
        const int s = start[j];
        if (s == j) continue;
        project_out(j, s, j);
        const R ss = normalize(j);
        if (t == 0 && !(ss >= keep2)) dependent[j] = 1;
        __syncthreads();
    }
    bool replaced = false;
    for (int j = 1; j < n; ++j) {
        if (dependent[j] != 1) continue;
        const ZCol<R> zj = col(j);
        for (int k = t; k < n; k += nt) zj[k] = fresh(j, k);
        __syncthreads();
        project_out(j, 0, n);
        normalize(j);
        if (t == 0) dependent[j] = kReplaced;
        replaced = true;
        __syncthreads();
    }
    // Every thread has read the flags of the loop above before a caller
    // writes them again (syevj_tri_shared.cuh's next solve clears its own).
    __syncthreads();
    return replaced;
}

// 2. Eigenvalues and eigenvectors of T (one block per matrix): z(k, j)
// at z[k n + j]; u: the three rows of U of each solve, [3][n][n].
// smem: d, e2, lambda (n floats each), dots (n floats), starts and the
// dependent members' flags (n ints each).
template <class S>
__global__ __launch_bounds__(512) void vectors_kernel(int n, std::int64_t b0, const float *de, float *zout,
                                                      float *uout, const S *done) {
    extern __shared__ float tri_shared[];
    __shared__ unsigned long long red[32];
    const BlockTeam tm{red};
    const std::int64_t b = b0 + blockIdx.x;
    if (done[b].done) return;
    const std::size_t nn = std::size_t(n) * n;
    const float *dg = de + 2 * std::size_t(n) * b, *eg = dg + n;
    float *z = zout + nn * b;
    float *u0 = uout + 3 * nn * b, *u1 = u0 + nn, *u2 = u1 + nn;
    float *d = tri_shared, *e2 = d + n, *lam = e2 + n, *dots = lam + n;
    int *start = reinterpret_cast<int *>(dots + n), *dependent = start + n;
    const int t = threadIdx.x, nt = blockDim.x;
    float lo_b = FLT_MAX, hi_b = -FLT_MAX, tn = 0, em = 0;
    for (int i = t; i < n; i += nt) {
        const float di = dg[i];
        const float el = i > 0 ? fabsf(eg[i - 1]) : 0.f, er = i + 1 < n ? fabsf(eg[i]) : 0.f;
        d[i] = di;
        e2[i] = er * er;
        lo_b = fminf(lo_b, di - el - er);
        hi_b = fmaxf(hi_b, di + el + er);
        tn = fmaxf(tn, fabsf(di) + el + er);
        em = fmaxf(em, er * er);
    }
    lo_b = tm.min(lo_b);
    hi_b = tm.max(hi_b);
    tn = tm.max(tn);
    em = tm.max(em);
    const float eps = FLT_EPSILON * 0.5f;
    const float pivmin = FLT_MIN * fmaxf(1.f, em);
    const float pad = 2 * eps * tn + 2 * pivmin;
    lo_b -= pad;
    hi_b += pad;
    // Every eigenvalue, ascending: lambda_j has j eigenvalues below it.
    for (int j = t; j < n; j += nt) {
        float lo = lo_b, hi = hi_b;
        for (int it = 0; it < 80; ++it) {
            const float mid = 0.5f * (lo + hi);
            if (hi - lo <= 2 * eps * fmaxf(fabsf(lo), fabsf(hi)) + pivmin || mid <= lo || mid >= hi) break;
            if (sturm_count(n, d, e2, mid, pivmin) > j) hi = mid;
            else lo = mid;
        }
        lam[j] = 0.5f * (lo + hi);
    }
    __syncthreads();
    const float ortol = 1e-3f * tn;
    if (tm.leader()) {
        int s = 0;
        for (int j = 0; j < n; ++j) {
            if (j > 0 && lam[j] - lam[j - 1] > ortol) s = j;
            start[j] = s;
            dependent[j] = 0;
        }
    }
    // Zero pivots of the solves become this (xLAGTS's perturbation).
    const float tiny = fmaxf(eps * tn, pivmin);
    for (int step = 0; step < kInverseSteps; ++step) {
        __syncthreads();
        for (int j = t; j < n; j += nt) {
            const float s = lam[j];
            // Row k of the elimination: p (col k), q (k+1), r (k+2), rhs beta.
            float p = d[0] - s, q = n > 1 ? eg[0] : 0.f, r = 0.f;
            float beta = step == 0 ? start_entry(j, 0) : z[j];
            for (int k = 0; k + 1 < n; ++k) {
                const float sub = eg[k];                      // row k+1, col k
                const float dn = d[k + 1] - s;                // row k+1, col k+1
                const float en = k + 2 < n ? eg[k + 1] : 0.f;  // row k+1, col k+2
                const float bn = step == 0 ? start_entry(j, k + 1) : z[std::size_t(k + 1) * n + j];
                const std::size_t o = std::size_t(k) * n + j;
                // The pivot row (a0 a1 a2 | ab) becomes U's row k; the other
                // row (c0 c1 c2 | cb), less mlt times it, the next row.
                const auto eliminate = [&](float a0, float a1, float a2, float ab, float c0, float c1, float c2,
                                           float cb) {
                    const float mlt = c0 / a0;
                    u0[o] = a0;
                    u1[o] = a1;
                    u2[o] = a2;
                    z[o] = ab;
                    p = c1 - mlt * a1;
                    q = c2 - mlt * a2;
                    r = 0.f;
                    beta = cb - mlt * ab;
                };
                if (fabsf(p) >= fabsf(sub)) eliminate(fabsf(p) < tiny ? copysignf(tiny, p) : p, q, r, beta, sub, dn, en, bn);
                else eliminate(sub, dn, en, bn, p, q, r, beta);
            }
            {
                const std::size_t o = std::size_t(n - 1) * n + j;
                u0[o] = fabsf(p) < tiny ? copysignf(tiny, p) : p;
                z[o] = beta;
            }
            // Back substitution, then scale to unit 2-norm.
            BackSubst<float> bs;
            for (int k = n - 1; k >= 0; --k) {
                const std::size_t o = std::size_t(k) * n + j;
                float rhs = z[o];
                if (k + 1 < n) rhs -= u1[o] * bs.x1;
                if (k + 2 < n) rhs -= u2[o] * bs.x2;
                z[o] = bs.solved(rhs / u0[o], kSolveRescale, [&](float down) {
                    for (int i = 0; i < n; ++i) z[std::size_t(i) * n + j] *= down;
                });
            }
            float ss = bs.ss;
            float sc = ss > 0 && ss < FLT_MAX ? rsqrtf(ss) : 0.f;
            if (!(sc > 0)) {
                // Overflow or a zero solution: restart from the random vector.
                ss = 0;
                for (int k = 0; k < n; ++k) {
                    const float x = start_entry(j, k + 7 * step + 1);
                    z[std::size_t(k) * n + j] = x;
                    ss += x * x;
                }
                sc = rsqrtf(ss);
            }
            for (int k = 0; k < n; ++k) z[std::size_t(k) * n + j] *= sc;
        }
        __syncthreads();
        // Orthogonalise each group's members (kDependentKeep).
        orthogonalize_groups(
            n, [&](int c) { return ZCol<float>{z + c, n}; }, dots, start, dependent, tm,
            kDependentKeep * kDependentKeep, [](float ss) { return ss > 0 ? rsqrtf(ss) : 0.f; },
            [](int j, int k) { return start_entry(j, k + 7 * kInverseSteps + 1); });
    }
}

// Columns of Z per block of the back-transformation: up to 32, in at
// most 46 KB of shared memory. (94 KB, which doubles the strip at n = 512
// and complex n = 256, changed no time by more than 0.5 %: H200, batch
// 200, session 50.)
template <class F>
inline int back_strip(int n) {
    int w = 32;
    while (w > 1 && std::size_t(w + 3) * std::size_t(n) * sizeof(F) > 46 * 1024) w /= 2;
    return w;
}

// 3. X = Q Z = H(0) (H(1) (... H(n-2) Z)) for a strip of `sw` columns
// (blockIdx.x) of matrix b0 + blockIdx.y, into x (ld n, T = the double
// type). smem: the strip (n x sw of F, row-major), tau (n), two buffers
// for the reflectors (n each: the next one is loaded while the current
// one is applied), the dots (sw) and the partial dots (blockDim.x).
template <class F, class T, class S>
__global__ __launch_bounds__(256) void back_kernel(int n, int sw, std::int64_t b0, const F *a32, const F *tau_in,
                                                   const float *zin, T *y, const S *done) {
    extern __shared__ float tri_shared[];
    const std::int64_t b = b0 + blockIdx.y;
    if (done[b].done) return;
    const std::size_t nn = std::size_t(n) * n;
    const F *a = a32 + nn * b;
    const float *z = zin + nn * b;
    F *zs = reinterpret_cast<F *>(tri_shared), *taus = zs + n * sw, *vb0 = taus + n, *vb1 = vb0 + n;
    F *wd = vb1 + n, *part = wd + sw;
    const int c0 = blockIdx.x * sw, cw = ::min(sw, n - c0);
    const int t = threadIdx.x, nt = blockDim.x;
    const F one = make_f<F>(1.f, 0.f);
    for (int i = t; i < n * sw; i += nt) {
        const int r = i / sw, c = i % sw;
        zs[i] = make_f<F>(c < cw ? z[r * n + c0 + c] : 0.f, 0.f);
    }
    for (int i = t; i < n; i += nt) taus[i] = tau_in[std::size_t(n) * b + i];
    // Reflector k's rows k+1 .. n-1 into buf (v_{k+1} = 1).
    auto load = [&](int k, F *buf) {
        for (int r = k + 1 + t; r < n; r += nt) buf[r] = r == k + 1 ? one : a[k * n + r];
    };
    if (n >= 2) load(n - 2, vb0);
    __syncthreads();
    const int groups = nt / sw;  // sw divides nt
    const int c = t % sw, g = t / sw;
    F *cur = vb0, *nxt = vb1;
    for (int k = n - 2; k >= 0; --k) {
        // The next reflector's entries, loaded now and stored at the end.
        F pre[2];
        const int r0 = k + t, r1 = k + t + nt;
        if (k >= 1) {
            if (r0 < n) pre[0] = r0 == k ? one : a[(k - 1) * n + r0];
            if (r1 < n) pre[1] = r1 == k ? one : a[(k - 1) * n + r1];
        }
        const F tk = taus[k];
        if (re_of(tk) != 0 || im_of(tk) != 0) {
            F acc = make_f<F>(0.f, 0.f);
            for (int r = k + 1 + g; r < n; r += groups) acc += conj(cur[r]) * zs[r * sw + c];
            part[t] = acc;
            __syncthreads();
            if (t < sw) {
                F sum = part[t];
                for (int q = 1; q < groups; ++q) sum += part[q * sw + t];
                wd[t] = tk * sum;
            }
            __syncthreads();
            for (int r = k + 1 + g; r < n; r += groups) zs[r * sw + c] -= cur[r] * wd[c];
        }
        if (k >= 1) {
            if (r0 < n) nxt[r0] = pre[0];
            if (r1 < n) nxt[r1] = pre[1];
            for (int r = k + 2 * nt + t; r < n; r += nt) nxt[r] = a[(k - 1) * n + r];
        }
        __syncthreads();
        F *sv = cur;
        cur = nxt;
        nxt = sv;
    }
    T *x = y + 2 * nn * b;
    for (int i = t; i < n * cw; i += nt) {
        const int r = i % n, cc = i / n;
        const F v = zs[r * sw + cc];
        if constexpr (core::is_complex<F>) x[std::size_t(c0 + cc) * n + r] = T(double(v.re), double(v.im));
        else x[std::size_t(c0 + cc) * n + r] = T(double(v));
    }
}


// 3'. The blocked back-transformation (n in [kBackBlockedMin, 256
// kBackRows]): the reflectors in blocks of kBackBlock, H(j0) ... H(j1) =
// I - V W-form, applied to a strip of Z held in registers. For the block's
// reflectors j1 down to j0, w_j = tau_j (v_j^H Z - sum_{i > j} (v_j^H v_i)
// w_i) (the Z that H(j) sees is Z - sum_{i > j} v_i w_i), then Z -= V W.
// One sum of the strip's dots and one update of Z per block of reflectors,
// from shared-memory rows of V read as vectors, instead of two passes over
// a shared-memory Z per reflector. Measured on an H200 (MIXED_TRIDIAG,
// complex double n = 512, batch 200, Nsight Compute gpu__time_duration):
// back_kernel 23.8 ms; this kernel with V loaded by plain loads (a global
// load's latency per row of V, one block per SM at 155 registers) 25.0 ms;
// with the copies asynchronous and double-buffered 29.9 ms at one block per
// SM and 19.3 ms at two (__launch_bounds__(256, 2): 128 registers, no
// spills); plus back_gram_kernel 0.15 ms with a block per reflector block
// (0.97 ms with one per matrix). The whole call went from 135.7 to 129.4 ms
// (double n = 512: 77.4 to 74.7 ms) with the update cap back at 8.
inline constexpr int kBackRows = 16;        // rows of Z per thread, in registers
inline constexpr int kBackBlock = 8;        // reflectors per block step
inline constexpr int kBackBlockedMin = 16;  // below, the Gram blocks would not fit in u
inline constexpr int kBackThreads = 256;     // threads per block (StageBack; CallerBack takes 512)

inline bool back_blocked(int n) { return n >= kBackBlockedMin && n <= kBackThreads * kBackRows; }
// Reflector blocks of a matrix of order n (reflectors 0 .. n - 2).
__host__ __device__ inline int back_blocks(int n) { return (n - 2) / kBackBlock + 1; }
// Columns per block of nt threads: the widest power of two up to 32 for
// which each thread's rows (n / (nt / sw)) fit in kBackRows.
inline int back_blocked_strip(int n, int nt = kBackThreads) {
    int w = 32;
    while (w > 1 && (n + nt / w - 1) / (nt / w) > kBackRows) w /= 2;
    return w;
}

// Row r of a shared-memory V block (kBackBlock entries of F, 16-byte aligned)
// into registers through 16-byte loads.
template <class F>
__device__ inline void load_vrow(const F *row, F (&v)[kBackBlock]) {
    constexpr int per = 16 / int(sizeof(F));
    if constexpr (sizeof(core::real_t<F>) == 4) {
        const float4 *p = reinterpret_cast<const float4 *>(row);
#pragma unroll
        for (int q = 0; q < kBackBlock / per; ++q) {
            const float4 x = p[q];
            if constexpr (core::is_complex<F>) {
                v[2 * q] = {x.x, x.y};
                v[2 * q + 1] = {x.z, x.w};
            } else {
                v[4 * q] = x.x;
                v[4 * q + 1] = x.y;
                v[4 * q + 2] = x.z;
                v[4 * q + 3] = x.w;
            }
        }
    } else {
        const double2 *p = reinterpret_cast<const double2 *>(row);
#pragma unroll
        for (int q = 0; q < kBackBlock / per; ++q) {
            const double2 x = p[q];
            if constexpr (core::is_complex<F>) {
                v[q] = {x.x, x.y};
            } else {
                v[2 * q] = x.x;
                v[2 * q + 1] = x.y;
            }
        }
    }
}

// Offset (floats) of matrix b's Gram blocks in u: its 3 n^2 floats, from an
// even float so that complex entries are 8-byte aligned (3 n^2 b is odd for
// odd n and b).
__device__ inline std::size_t back_gram_offset(std::size_t nn, std::int64_t b) {
    return (3 * nn * std::size_t(b) + 1) & ~std::size_t(1);
}

// The Gram blocks of the reflectors, a block per reflector block
// (blockIdx.x) and matrix, a warp per entry: gram[blk][jj][ii] = v_j^H v_i
// (j = blk kBackBlock + jj, i likewise) for jj < ii, zero elsewhere, in
// matrix b's part of u (the vectors launch's scratch, free once it has
// finished; back_gram_offset).
template <class F, class S>
__global__ __launch_bounds__(256) void back_gram_kernel(int n, std::int64_t b0, const F *a32, float *uout,
                                                        const S *done) {
    const std::int64_t b = b0 + blockIdx.y;
    if (done[b].done) return;
    const std::size_t nn = std::size_t(n) * n;
    const F *a = a32 + nn * b;
    constexpr int kb2 = kBackBlock * kBackBlock;
    const int blk = blockIdx.x;
    F *gram = reinterpret_cast<F *>(uout + back_gram_offset(nn, b)) + std::size_t(blk) * kb2;
    const int lane = threadIdx.x % 32, warps = blockDim.x / 32;
    for (int d = threadIdx.x / 32; d < kb2; d += warps) {
        const int jj = d / kBackBlock, ii = d % kBackBlock;
        const int j = blk * kBackBlock + jj, i = blk * kBackBlock + ii;
        F acc = make_f<F>(0.f, 0.f);
        if (jj < ii && i <= n - 2) {
            // v_i(i + 1) = 1; both are stored below it (rows >= i + 2 > j + 1).
            for (int r = i + 1 + lane; r < n; r += 32)
                acc += conj(a[std::size_t(j) * n + r]) * (r == i + 1 ? make_f<F>(1.f, 0.f) : a[std::size_t(i) * n + r]);
#pragma unroll
            for (int o = 16; o > 0; o >>= 1) acc += shfl_xor(acc, o, 0xffffffffu);
        }
        if (lane == 0) gram[d] = acc;
    }
}

// Shared memory of back_blocked_kernel: `bufs` (1 or 2) buffers of V (n x
// kBackBlock of F, row-major), the Gram block (kBackBlock^2) and tau
// (kBackBlock); W (kBackBlock x sw); the warps' partial dots (8 x kBackBlock
// x sw).
template <class F>
inline std::size_t back_blocked_shared(int n, int sw, int bufs, int nt = kBackThreads) {
    const std::size_t buf = std::size_t(n) * kBackBlock + kBackBlock * kBackBlock + kBackBlock;
    return (bufs * buf + std::size_t(kBackBlock) * sw + std::size_t(nt / 32) * kBackBlock * sw) * sizeof(F);
}
// Two buffers (the next block's reflectors copied while the current one is
// applied) where 512 / nt blocks of nt threads still fit on an SM; else one.
template <class F>
inline int back_blocked_buffers(int n, int sw, int nt = kBackThreads) {
    const std::size_t blocks = 512 / nt;
    return blocks * (back_blocked_shared<F>(n, sw, 2, nt) + kDriverSharedBytes) <=
                   std::size_t(shared_per_multiprocessor())
               ? 2
               : 1;
}

// Issues the asynchronous copies of reflector block blk (V's rows j0 + 1 ..
// n - 1, its Gram block and tau, where the arrays hold them apart) into one
// buffer; v_j(r) = 0 above row j + 1 and 1 there are stored directly. A warp
// copies 4 consecutive rows of 8 reflectors (32-byte pieces of complex
// columns) into 32 consecutive entries.
template <class F, class P>
__device__ inline void back_load_block(int n, int blk, const P &arr, std::int64_t b, F *buf) {
    constexpr int NB = kBackBlock;
    const int t = threadIdx.x, j0 = blk * NB, nbb = ::min(NB, n - 1 - j0), ld = arr.ld();
    const F zero = make_f<F>(0, 0);
    // Thread t: reflector jj = t % NB, rows j0 + 1 + t / NB + k (nt / NB).
    constexpr int kRowStep = P::kThreads / NB;
    const int jj = t % NB, j = j0 + jj;
    const F *src = arr.refl(b) + std::size_t(::min(j, n - 1)) * ld;
    for (int r = j0 + 1 + t / NB; r < n; r += kRowStep) {
        F *dst = buf + r * NB + jj;
        if (jj < nbb && r > j + 1)
            __pipeline_memcpy_async(dst, src + r, sizeof(F));
        else
            *dst = jj < nbb && r == j + 1 ? make_f<F>(1, 0) : zero;
    }
    F *gs = buf + std::size_t(n) * NB, *taus = gs + NB * NB;
    if constexpr (!P::kGramHere)
        if (t < NB * NB) __pipeline_memcpy_async(gs + t, arr.gram(b) + std::size_t(blk) * NB * NB + t, sizeof(F));
    if (t < NB) {
        if (t >= nbb) taus[t] = zero;
        else if constexpr (P::kTauApart) __pipeline_memcpy_async(taus + t, arr.tau_ptr(b) + j0 + t, sizeof(F));
        else taus[t] = arr.tau(b, j0 + t);
    }
    __pipeline_commit();
}

// The Gram block of a V block in shared memory (kGramHere arrays), a warp
// per entry: gs[jj][ii] = v_j^H v_i for jj < ii, zero elsewhere. Ends with
// a barrier.
template <class F>
__device__ inline void back_gram_here(int n, int j0, const F *vs, F *gs) {
    constexpr int NB = kBackBlock;
    const int lane = threadIdx.x % 32;
    for (int q = threadIdx.x / 32; q < NB * NB; q += blockDim.x / 32) {
        const int jj = q / NB, ii = q % NB;
        F acc = make_f<F>(0, 0);
        if (jj < ii) {
            for (int r = j0 + 1 + lane; r < n; r += 32) acc += conj(vs[r * NB + jj]) * vs[r * NB + ii];
#pragma unroll
            for (int o = 16; o > 0; o >>= 1) acc += shfl_xor(acc, o, 0xffffffffu);
        }
        if (lane == 0) gs[q] = acc;
    }
    __syncthreads();
}

// The arrays of the single-precision stage's back-transformation: the
// reflectors of the working matrices (ld n), tau and the Gram blocks
// (back_gram_kernel) in the workspace, Z row-major (ld n), X widened into
// the finish's [X P] (ld n, 2 n^2 per matrix).
template <class F, class T, class S>
struct StageBack {
    static constexpr bool kGramHere = false, kTauApart = true;
    static constexpr int kThreads = kBackThreads;
    const F *a32, *tau;
    const float *z, *u;
    T *y;
    const S *done;
    int n;
    __device__ bool skip(std::int64_t b) const { return done[b].done; }
    __device__ const F *refl(std::int64_t b) const { return a32 + std::size_t(n) * n * b; }
    __device__ int ld() const { return n; }
    __device__ const F *tau_ptr(std::int64_t b) const { return tau + std::size_t(n) * b; }
    __device__ const F *gram(std::int64_t b) const {
        return reinterpret_cast<const F *>(u + back_gram_offset(std::size_t(n) * n, b));
    }
    // Z's entry (r, c0 + c) of the strip at c0 (cw columns).
    __device__ float z_at(std::int64_t b, int c0, int, int r, int c) const {
        return z[std::size_t(n) * n * b + std::size_t(r) * n + c0 + c];
    }
    __device__ void put_x(std::int64_t b, int r, int c, F v) const {
        T *x = y + 2 * std::size_t(n) * n * b + std::size_t(c) * n + r;
        if constexpr (core::is_complex<F>) *x = T(double(v.re), double(v.im));
        else *x = T(double(v));
    }
};

template <class F, class P>
__global__ __launch_bounds__(P::kThreads, 512 / P::kThreads) void back_blocked_kernel(int n, int sw, int bufs,
                                                                                   std::int64_t b0, P arr) {
    constexpr int NT = P::kThreads;
    extern __shared__ float4 tri_shared4[];
    constexpr int NB = kBackBlock;
    const std::int64_t b = b0 + blockIdx.y;
    if (arr.skip(b)) return;
    const std::size_t bufsize = std::size_t(n) * NB + NB * NB + NB;
    F *buf0 = reinterpret_cast<F *>(tri_shared4), *ws = buf0 + bufs * bufsize, *part = ws + NB * sw;
    const int c0 = blockIdx.x * sw, cw = ::min(sw, n - c0);
    const int t = threadIdx.x, lane = t % 32, warp = t / 32;
    const int c = t % sw, g = t / sw, groups = NT / sw;
    const F zero = make_f<F>(0, 0);
    const int blocks = back_blocks(n);
    back_load_block(n, blocks - 1, arr, b, buf0);
    F zr[kBackRows];
#pragma unroll
    for (int q = 0; q < kBackRows; ++q) {
        const int r = g + q * groups;
        zr[q] = r < n && c < cw ? make_f<F>(arr.z_at(b, c0, cw, r, c), 0) : zero;
    }
    for (int blk = blocks - 1, step = 0; blk >= 0; --blk, ++step) {
        const int j0 = blk * NB, nbb = ::min(NB, n - 1 - j0);
        F *vs = buf0 + (bufs == 2 ? step % 2 : 0) * bufsize;
        F *gs = vs + std::size_t(n) * NB;
        const F *taus = gs + NB * NB;
        if (bufs == 2 && blk > 0) {
            // The next block into the other buffer, whose readers passed the
            // previous step's last barrier.
            back_load_block(n, blk - 1, arr, b, buf0 + (step + 1) % 2 * bufsize);
            __pipeline_wait_prior(1);
        } else {
            __pipeline_wait_prior(0);
        }
        __syncthreads();
        if constexpr (P::kGramHere) back_gram_here(n, j0, vs, gs);
        // f(q, v) for each of this thread's rows r > j0 (zr[q]), with row r
        // of V in v.
        const auto each_row = [&](auto &&f) {
#pragma unroll
            for (int q = 0; q < kBackRows; ++q) {
                const int r = g + q * groups;
                if (r > j0 && r < n) {
                    F v[NB];
                    load_vrow(vs + r * NB, v);
                    f(q, v);
                }
            }
        };
        // The strip's dots v_j^H Z over this thread's rows.
        F acc[NB];
#pragma unroll
        for (int jj = 0; jj < NB; ++jj) acc[jj] = zero;
        each_row([&](int q, const F (&v)[NB]) {
#pragma unroll
            for (int jj = 0; jj < NB; ++jj) acc[jj] += conj(v[jj]) * zr[q];
        });
        // Summed over the lanes of a column in the warp, then over warps.
#pragma unroll
        for (int jj = 0; jj < NB; ++jj)
            for (int o = sw; o < 32; o <<= 1) acc[jj] += shfl_xor(acc[jj], o, 0xffffffffu);
        if (lane < sw) {
#pragma unroll
            for (int jj = 0; jj < NB; ++jj) part[(warp * NB + jj) * sw + lane] = acc[jj];
        }
        __syncthreads();
        // W, one thread per column, reflector j0 + nbb - 1 first:
        // w_j = tau_j (s_j - sum_{i > j} gram(j, i) w_i).
        if (t < sw) {
            F w[NB];
#pragma unroll
            for (int jj = 0; jj < NB; ++jj) {
                F s = part[jj * sw + t];
#pragma unroll
                for (int q = 1; q < NT / 32; ++q) s += part[(q * NB + jj) * sw + t];
                w[jj] = s;
            }
#pragma unroll
            for (int jj = NB - 1; jj >= 0; --jj) {
                F s = w[jj];
#pragma unroll
                for (int ii = jj + 1; ii < NB; ++ii) s -= gs[jj * NB + ii] * w[ii];
                w[jj] = jj < nbb ? taus[jj] * s : zero;
                ws[jj * sw + t] = w[jj];
            }
        }
        __syncthreads();
        F wv[NB];
#pragma unroll
        for (int jj = 0; jj < NB; ++jj) wv[jj] = ws[jj * sw + c];
        each_row([&](int q, const F (&v)[NB]) {
#pragma unroll
            for (int jj = 0; jj < NB; ++jj) zr[q] -= v[jj] * wv[jj];
        });
        __syncthreads();  // this buffer and W are rewritten by a later step
        if (bufs == 1 && blk > 0) back_load_block(n, blk - 1, arr, b, buf0);
    }
#pragma unroll
    for (int q = 0; q < kBackRows; ++q) {
        const int r = g + q * groups;
        if (r < n && c < cw) arr.put_x(b, r, c0 + c, zr[q]);
    }
}

}  // namespace syevj_tridiag_detail

// Workspace of the tridiagonal first stage for `batch` matrices of order n.
template <class F>
std::size_t syevj_tridiag_workspace(int n, std::int64_t batch) {
    return syevj_tridiag_detail::TridiagLayout<F>(n, batch).total;
}

namespace syevj_tridiag_detail {

// The stage's launches for order n on the current device: their grids and
// dynamic shared memory (syevj_tridiag(), syevj_tridiag_fits()).
template <class F>
struct TridiagShape {
    // 1. The reduction's grid of members: rw rows by 512 / rw column
    // classes. The matrix in shared memory when two blocks still fit on an
    // SM, with the whole-matrix passes (rw >= n rows, up to 512); else in
    // global memory, where the loads' latency bounds the passes, with the
    // lower-triangle ones (rw >= n / 2 rows, up to 256: two blocks of 32
    // rows per warp at n = 512; see reduce_kernel).
    bool in_smem = false, lower = false;
    int rw = 0, rthreads = 0;
    std::size_t rshared = 0;
    // 2. The vectors launch.
    int vthreads = 0;
    std::size_t vshared = 0;
    // 3. The back-transformation: blocked (with the Gram launch first) or
    // one reflector at a time; its strip width and buffers.
    bool blocked = false;
    int sw = 0, bufs = 0;
    std::size_t bshared = 0;

    explicit TridiagShape(int n) {
        const auto grid_rows = [n](bool low) {
            return low ? std::min(256, (n + 63) / 64 * 32) : std::min(512, (n + 31) / 32 * 32);
        };
        const auto base_bytes = [n](int rows) {
            return (4 * std::size_t(n) + std::size_t(512 / rows + rows / 32) * n) * sizeof(F);
        };
        const std::size_t rfull = base_bytes(grid_rows(false)) + std::size_t(n) * n * sizeof(F);
        in_smem = 2 * (rfull + kTeamScratchBytes + kDriverSharedBytes) <= std::size_t(shared_per_multiprocessor());
        // Lower passes from n = 129 (complex double n = 128, in global
        // memory: 3.87 ms with whole-matrix passes, 4.18 with lower ones;
        // n = 256: 25.4 / 21.8 ms, double 12.4 / 11.7 ms; H200, batch 200).
        lower = !in_smem && n > 128;
        rw = grid_rows(lower);
        rthreads = rw * std::max(1, 512 / rw);
        rshared = in_smem ? rfull : base_bytes(rw);
        vthreads = tridiag_threads(n);
        vshared = 6 * std::size_t(n) * sizeof(float);
        blocked = back_blocked(n);
        if (blocked) {
            sw = back_blocked_strip(n);
            bufs = back_blocked_buffers<F>(n, sw);
            bshared = back_blocked_shared<F>(n, sw, bufs);
        } else {
            sw = back_strip<F>(n);
            bufs = 1;
            bshared = (std::size_t(n) * sw + 3 * std::size_t(n) + sw + 256) * sizeof(F);
        }
    }
};

}  // namespace syevj_tridiag_detail

// Whether the stage can run order n on the current device: every launch's
// dynamic shared memory plus kStaticSharedMax within the opt-in limit. The
// reduction binds first, with 14 n entries of F from n = 449: on 227 KiB,
// n <= 2070 for complex F and 4141 for real F.
template <class F>
bool syevj_tridiag_fits(int n) {
    const syevj_tridiag_detail::TridiagShape<F> sh(n);
    const std::size_t most = std::max(sh.rshared, std::max(sh.vshared, sh.bshared));
    return most + kStaticSharedMax <= std::size_t(shared_optin_bytes());
}

// Runs the stage on the working matrices a32 (full Hermitian, ld n),
// skipping the matrices b whose state done[b].done is set; writes X (ld n)
// at y + 2 n^2 b. The plan has checked syevj_tridiag_fits(n).
template <class F, class T, class S>
batcheigStatus_t syevj_tridiag(cudaStream_t s, int n, std::int64_t batch, F *a32, void *work, T *y,
                               const S *done) {
    using namespace syevj_tridiag_detail;
    const TridiagLayout<F> L(n, batch);
    const TridiagShape<F> sh(n);
    unsigned char *base = static_cast<unsigned char *>(work);
    float *de = reinterpret_cast<float *>(base + L.de);
    F *tau = reinterpret_cast<F *>(base + L.tau);
    float *z = reinterpret_cast<float *>(base + L.z);
    float *u = reinterpret_cast<float *>(base + L.u);
    batcheigStatus_t st = BATCHEIG_STATUS_SUCCESS;
    using Arr = StageArrays<F, S>;
    const Arr arr{a32, de, tau, done, n};
    if (sh.rshared > 48 * 1024 && (st = allow_shared(reduce_kernel<F, Arr>, sh.rshared)) != BATCHEIG_STATUS_SUCCESS)
        return st;
    st = launch_pieces(batch, [&](std::int64_t b0, std::int64_t count) {
        reduce_kernel<F, Arr><<<unsigned(count), sh.rthreads, sh.rshared, s>>>(n, sh.rw, b0, arr, sh.in_smem,
                                                                                 sh.lower);
    });
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    if (sh.vshared > 48 * 1024 && (st = allow_shared(vectors_kernel<S>, sh.vshared)) != BATCHEIG_STATUS_SUCCESS)
        return st;
    st = launch_pieces(batch, [&](std::int64_t b0, std::int64_t count) {
        vectors_kernel<S><<<unsigned(count), sh.vthreads, sh.vshared, s>>>(n, b0, de, z, u, done);
    });
    if (st != BATCHEIG_STATUS_SUCCESS) return st;
    const int sw = sh.sw;
    if (sh.blocked) {
        // Measured on an H200 (batch 200, MIXED_TRIDIAG): see back_blocked_kernel.
        st = launch_pieces(batch, [&](std::int64_t b0, std::int64_t count) {
            back_gram_kernel<F, S><<<dim3(unsigned(back_blocks(n)), unsigned(count)), 256, 0, s>>>(n, b0, a32, u, done);
        });
        if (st != BATCHEIG_STATUS_SUCCESS) return st;
        using Back = StageBack<F, T, S>;
        const Back back{a32, tau, z, u, y, done, n};
        if (sh.bshared > 48 * 1024 &&
            (st = allow_shared(back_blocked_kernel<F, Back>, sh.bshared)) != BATCHEIG_STATUS_SUCCESS)
            return st;
        return launch_pieces(batch, [&](std::int64_t b0, std::int64_t count) {
            const dim3 grid(unsigned((n + sw - 1) / sw), unsigned(count));
            back_blocked_kernel<F, Back><<<grid, kBackThreads, sh.bshared, s>>>(n, sw, sh.bufs, b0, back);
        });
    }
    if (sh.bshared > 48 * 1024 && (st = allow_shared(back_kernel<F, T, S>, sh.bshared)) != BATCHEIG_STATUS_SUCCESS)
        return st;
    return launch_pieces(batch, [&](std::int64_t b0, std::int64_t count) {
        const dim3 grid(unsigned((n + sw - 1) / sw), unsigned(count));
        back_kernel<F, T, S><<<grid, 256, sh.bshared, s>>>(n, sw, b0, a32, tau, z, y, done);
    });
}

}  // namespace batcheig::cuda
