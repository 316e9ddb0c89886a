// geev_tiny_probe.cu: how fast could eigenvalues of tiny matrices be with
// one thread per matrix and the matrix in registers? A prototype, not the
// library: double, eigenvalues only, N = 4..6 fixed at compile time. Every
// array index is a compile-time constant after unrolling (run-time bounds
// become predicates), so a[N][N] stays in registers:
//   balancing    xGEBAL's scaling loop (2-norms as plain sums of squares);
//                its permutation search is run, and a matrix where it
//                would isolate an eigenvalue is only counted (random
//                matrices have none);
//   reduction    xGEHD2, N-2 Householder reflectors from both sides;
//   QR           xLAHQR without the Schur form: the Ahues-Tisseur
//                deflation test, exceptional shifts, the Francis double
//                shift, 2 x 2 blocks by core::lanv2, the bulge reflectors
//                by core::larfg_small, as src/core/hqr.hpp.
// It checks the eigenvalues against the library's device-array call on the
// same matrices (sorted, max |difference| / max |a|), and times both with
// CUDA events (median of 11): batches 1 .. 500 000.
// Built on request (CUDA builds):
//   ninja -C build/release batcheig_geev_tiny_probe
//   batcheig_geev_tiny_probe [N=5] [BATCHES=1,32,1024,4096,8192,41667,500000]
#include <batcheig.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "batcheig_session.hpp"
#include "bench_common.hpp"
#include "core/blas.hpp"
#include "core/hqr.hpp"
#include "cuda_util.hpp"

namespace {

constexpr int kNotBalanced = 1 << 20;  // info flag: the permutation search found a row or column

template <int N>
struct Tiny {
    double a[N][N];  // a[row][column]

    // The 2-norms and largest entries of row i and column i (xGEBAL).
    template <int I>
    __device__ void row_col(double &c, double &r, double &ca, double &ra) const {
        c = 0;
        r = 0;
        ca = 0;
        ra = 0;
#pragma unroll
        for (int k = 0; k < N; ++k) {
            c += a[k][I] * a[k][I];
            r += a[I][k] * a[I][k];
            ca = fmax(ca, fabs(a[k][I]));
            ra = fmax(ra, fabs(a[I][k]));
        }
        c = sqrt(c);
        r = sqrt(r);
    }

    template <int I>
    __device__ bool scale_one(double *scale) {
        const double sfmin1 = 0x1p-1022 / 0x1p-53, sfmax1 = 1 / sfmin1, sfmin2 = sfmin1 * 2, sfmax2 = 1 / sfmin2;
        double c, r, ca, ra;
        row_col<I>(c, r, ca, ra);
        if (c == 0 || r == 0) return false;
        double g = r / 2, f = 1;
        const double s = c + r;
        while (c < g && fmax(f, fmax(c, ca)) < sfmax2 && fmin(r, fmin(g, ra)) > sfmin2) {
            f *= 2;
            c *= 2;
            ca *= 2;
            r /= 2;
            g /= 2;
            ra /= 2;
        }
        g = c / 2;
        while (g >= r && fmax(r, ra) < sfmax2 && fmin(fmin(f, c), fmin(g, ca)) > sfmin2) {
            f /= 2;
            c /= 2;
            g /= 2;
            ca /= 2;
            r *= 2;
            ra *= 2;
        }
        if (c + r >= 0.95 * s) return false;
        if (f < 1 && scale[I] < 1 && f * scale[I] <= sfmin1) return false;
        if (f > 1 && scale[I] > 1 && scale[I] >= sfmax1 / f) return false;
        scale[I] *= f;
        const double gi = 1 / f;
#pragma unroll
        for (int k = 0; k < N; ++k) {
            a[I][k] *= gi;
            a[k][I] *= f;
        }
        return true;
    }

    template <int I>
    __device__ bool scale_from(double *scale) {
        if constexpr (I == N) {
            return false;
        } else {
            const bool changed = scale_one<I>(scale);
            return scale_from<I + 1>(scale) || changed;
        }
    }

    // xGEBAL: returns false when a permutation would isolate an eigenvalue.
    __device__ bool balance() {
        bool isolated = false;
#pragma unroll
        for (int j = 0; j < N; ++j) {
            bool row_zero = true, col_zero = true;
#pragma unroll
            for (int k = 0; k < N; ++k)
                if (k != j) {
                    row_zero &= a[j][k] == 0;
                    col_zero &= a[k][j] == 0;
                }
            isolated |= row_zero | col_zero;
        }
        if (isolated) return false;
        double scale[N];
#pragma unroll
        for (int k = 0; k < N; ++k) scale[k] = 1;
        for (int pass = 0; pass < 64 && scale_from<0>(scale); ++pass) {
        }
        return true;
    }

    // xGEHD2.
    __device__ void hessenberg() {
#pragma unroll
        for (int i = 0; i < N - 2; ++i) {
            double alpha = a[i + 1][i], xn2 = 0;
#pragma unroll
            for (int k = i + 2; k < N; ++k) xn2 += a[k][i] * a[k][i];
            if (xn2 == 0) continue;
            const double beta = -copysign(sqrt(alpha * alpha + xn2), alpha);
            const double tau = (beta - alpha) / beta, scal = 1 / (alpha - beta);
            double v[N];
#pragma unroll
            for (int k = 0; k < N; ++k) v[k] = k == i + 1 ? 1.0 : (k > i + 1 ? a[k][i] * scal : 0.0);
            // From the right: a(0:N, i+1:N) (I - tau v v^T).
#pragma unroll
            for (int r = 0; r < N; ++r) {
                double w = 0;
#pragma unroll
                for (int k = i + 1; k < N; ++k) w += a[r][k] * v[k];
                w *= tau;
#pragma unroll
                for (int k = i + 1; k < N; ++k) a[r][k] -= w * v[k];
            }
            // From the left: (I - tau v v^T) a(i+1:N, i+1:N).
#pragma unroll
            for (int c = i + 1; c < N; ++c) {
                double w = 0;
#pragma unroll
                for (int k = i + 1; k < N; ++k) w += v[k] * a[k][c];
                w *= tau;
#pragma unroll
                for (int k = i + 1; k < N; ++k) a[k][c] -= w * v[k];
            }
            a[i + 1][i] = beta;
#pragma unroll
            for (int k = i + 2; k < N; ++k) a[k][i] = 0;
        }
    }

    // Ahues & Tisseur (core::detail::subdiag_negligible), K compile-time.
    template <int K>
    __device__ bool negligible(double smlnum, double ulp) const {
        const double hk = a[K][K - 1];
        if (fabs(hk) <= smlnum) return true;
        double tst = fabs(a[K - 1][K - 1]) + fabs(a[K][K]);
        if (tst == 0) {
            if constexpr (K >= 2) tst += fabs(a[K - 1][K - 2]);
            if constexpr (K + 1 < N) tst += fabs(a[K + 1][K]);
        }
        if (fabs(hk) <= ulp * tst) {
            const double ab = fmax(fabs(hk), fabs(a[K - 1][K])), ba = fmin(fabs(hk), fabs(a[K - 1][K]));
            const double aa = fmax(fabs(a[K][K]), fabs(a[K - 1][K - 1] - a[K][K]));
            const double bb = fmin(fabs(a[K][K]), fabs(a[K - 1][K - 1] - a[K][K]));
            const double s = aa + ab;
            if (ba * (ab / s) <= fmax(smlnum, ulp * (bb * (aa / s)))) return true;
        }
        return false;
    }

    // The largest k in (l, i] whose subdiagonal is negligible, else l.
    __device__ int find_split(int l, int i, double smlnum, double ulp) const {
        int res = l;
        split_from<1>(l, i, smlnum, ulp, res);
        return res;
    }
    template <int K>
    __device__ void split_from(int l, int i, double smlnum, double ulp, int &res) const {
        if constexpr (K < N) {
            if (K > l && K <= i && negligible<K>(smlnum, ulp)) res = K;
            split_from<K + 1>(l, i, smlnum, ulp, res);
        }
    }

    // Can the bulge start at M (core::detail::bulge_can_start)?
    template <int M>
    __device__ bool can_start(const batcheig::core::detail::DoubleShift<double> &sh, double ulp) const {
        const double hmm = a[M][M], h21 = a[M + 1][M];
        const double s = fabs(hmm - sh.rt2r) + fabs(sh.rt2i) + fabs(h21);
        const double rs = 1 / s, h21s = h21 * rs;
        const double v0 = h21s * a[M][M + 1] + (hmm - sh.rt1r) * ((hmm - sh.rt2r) * rs) - sh.rt1i * (sh.rt2i * rs);
        const double v1 = h21s * (hmm + a[M + 1][M + 1] - sh.rt1r - sh.rt2r);
        const double v2 = h21s * a[M + 2][M + 1];
        const double h00 = fabs(a[M][M - 1]) * (fabs(v1) + fabs(v2));
        const double h01 = fabs(v0) * (fabs(a[M - 1][M - 1]) + fabs(a[M][M]) + fabs(a[M + 1][M + 1]));
        return h00 <= ulp * h01;
    }
    template <int M>
    __device__ void start_from(int l, int i, const batcheig::core::detail::DoubleShift<double> &sh, double ulp,
                               int &res) const {
        if constexpr (M + 2 < N) {
            if (M > l && M <= i - 2 && can_start<M>(sh, ulp)) res = M;
            start_from<M + 1>(l, i, sh, ulp, res);
        }
    }

    // One chase step at compile-time K of the sweep from m on [l, i].
    template <int K>
    __device__ void chase(int m, int l, int i, double &v0, double &v1, double &v2) {
        if (K < m || K > i - 1) return;
        const bool three = K <= i - 2;
        if (K > m) {
            v0 = a[K][K - 1];
            v1 = a[K + 1][K - 1];
            if constexpr (K + 2 < N) v2 = three ? a[K + 2][K - 1] : 0.0;
        }
        double t1;
        batcheig::core::larfg_small(three ? 3 : 2, v0, v1, v2, t1);
        const double vv2 = v1, vv3 = three ? v2 : 0.0, t2 = t1 * vv2, t3 = t1 * vv3;
        if constexpr (K > 0) {
            if (K > m) {
                a[K][K - 1] = v0;
                a[K + 1][K - 1] = 0;
                if constexpr (K + 2 < N)
                    if (three) a[K + 2][K - 1] = 0;
            } else if (m > l) {
                a[K][K - 1] *= 1 - t1;
            }
        }
        // Rows K..K+2, columns K..i.
#pragma unroll
        for (int j = K; j < N; ++j) {
            if (j > i) break;
            const double x0 = a[K][j], x1 = a[K + 1][j];
            double x2 = 0;
            if constexpr (K + 2 < N)
                if (three) x2 = a[K + 2][j];
            const double sum = x0 + vv2 * x1 + vv3 * x2;
            a[K][j] = x0 - sum * t1;
            a[K + 1][j] = x1 - sum * t2;
            if constexpr (K + 2 < N)
                if (three) a[K + 2][j] = x2 - sum * t3;
        }
        // Columns K..K+2, rows l..min(K+3, i).
#pragma unroll
        for (int r = 0; r < N && r <= K + 3; ++r) {
            if (r < l || r > i) continue;
            const double x0 = a[r][K], x1 = a[r][K + 1];
            double x2 = 0;
            if constexpr (K + 2 < N)
                if (three) x2 = a[r][K + 2];
            const double sum = x0 + vv2 * x1 + vv3 * x2;
            a[r][K] = x0 - sum * t1;
            a[r][K + 1] = x1 - sum * t2;
            if constexpr (K + 2 < N)
                if (three) a[r][K + 2] = x2 - sum * t3;
        }
    }
    template <int K>
    __device__ void sweep_from(int m, int l, int i, double &v0, double &v1, double &v2) {
        if constexpr (K < N - 1) {
            chase<K>(m, l, i, v0, v1, v2);
            sweep_from<K + 1>(m, l, i, v0, v1, v2);
        }
    }

    // xLAHQR without the Schur form; returns 0 or i + 1 (no convergence).
    __device__ int qr(double *wr, double *wi) {
        const double ulp = 0x1p-53, smlnum = 0x1p-1022 * (double(N) / ulp);
        const int itmax = batcheig::core::detail::default_itmax(N);
        int i = N - 1, l = 0, its = 0, kdefl = 0;
        while (i >= 0) {
            if (its > itmax) return i + 1;
            l = find_split(l, i, smlnum, ulp);
#pragma unroll
            for (int k = 1; k < N; ++k)
                if (k == l) a[k][k - 1] = 0;
            if (l >= i - 1) {
#pragma unroll
                for (int k = 0; k < N; ++k) {
                    if (k != i) continue;
                    if (l == i) {
                        wr[k] = a[k][k];
                        wi[k] = 0;
                    } else if (k >= 1) {
                        const int km = k >= 1 ? k - 1 : 0;  // (k = 0 never gets here)
                        double p = a[km][km], q = a[km][k], r = a[k][km], s = a[k][k];
                        double rt1r, rt1i, rt2r, rt2i, cs, sn;
                        batcheig::core::lanv2(p, q, r, s, rt1r, rt1i, rt2r, rt2i, cs, sn);
                        wr[km] = rt1r;
                        wi[km] = rt1i;
                        wr[k] = rt2r;
                        wi[k] = rt2i;
                    }
                }
                kdefl = 0;
                its = 0;
                i = l - 1;
                l = 0;
                continue;
            }
            ++kdefl;
            // Shifts (core::detail::francis_shifts) from the entries they read.
            double h11 = 0, h12 = 0, h21 = 0, h22 = 0, bot_s = 0, top_s = 0, top_h = 0, bot_h = 0;
#pragma unroll
            for (int k = 2; k < N; ++k)
                if (k == i) {
                    h11 = a[k - 1][k - 1];
                    h21 = a[k][k - 1];
                    h12 = a[k - 1][k];
                    h22 = a[k][k];
                    bot_s = fabs(a[k][k - 1]) + fabs(a[k - 1][k - 2]);
                    bot_h = a[k][k];
                }
#pragma unroll
            for (int k = 0; k + 2 < N; ++k)
                if (k == l) {
                    top_s = fabs(a[k + 1][k]) + fabs(a[k + 2][k + 1]);
                    top_h = a[k][k];
                }
            if (kdefl % (2 * batcheig::core::detail::kexsh) == 0) {
                h11 = 0.75 * bot_s + bot_h;
                h12 = -0.4375 * bot_s;
                h21 = bot_s;
                h22 = h11;
            } else if (kdefl % batcheig::core::detail::kexsh == 0) {
                h11 = 0.75 * top_s + top_h;
                h12 = -0.4375 * top_s;
                h21 = top_s;
                h22 = h11;
            }
            batcheig::core::detail::DoubleShift<double> sh;
            const double s = fabs(h11) + fabs(h12) + fabs(h21) + fabs(h22);
            if (s == 0) {
                sh.rt1r = sh.rt1i = sh.rt2r = sh.rt2i = 0;
            } else {
                const double rs = 1 / s;
                h11 *= rs;
                h21 *= rs;
                h12 *= rs;
                h22 *= rs;
                const double tr = (h11 + h22) / 2, det = (h11 - tr) * (h22 - tr) - h12 * h21;
                const double rtdisc = sqrt(fabs(det));
                if (det >= 0) {
                    sh.rt1r = sh.rt2r = tr * s;
                    sh.rt1i = rtdisc * s;
                    sh.rt2i = -sh.rt1i;
                } else {
                    sh.rt1r = tr + rtdisc;
                    sh.rt2r = tr - rtdisc;
                    if (fabs(sh.rt1r - h22) <= fabs(sh.rt2r - h22)) sh.rt2r = sh.rt1r = sh.rt1r * s;
                    else sh.rt1r = sh.rt2r = sh.rt2r * s;
                    sh.rt1i = sh.rt2i = 0;
                }
            }
            int m = l;
            start_from<1>(l, i, sh, ulp, m);
            double v0 = 0, v1 = 0, v2 = 0;
#pragma unroll
            for (int k = 0; k + 2 < N; ++k)
                if (k == m) {
                    const double hmm = a[k][k], hh21 = a[k + 1][k];
                    const double rs = 1 / (fabs(hmm - sh.rt2r) + fabs(sh.rt2i) + fabs(hh21)), h21s = hh21 * rs;
                    v0 = h21s * a[k][k + 1] + (hmm - sh.rt1r) * ((hmm - sh.rt2r) * rs) - sh.rt1i * (sh.rt2i * rs);
                    v1 = h21s * (hmm + a[k + 1][k + 1] - sh.rt1r - sh.rt2r);
                    v2 = h21s * a[k + 2][k + 1];
                    const double rv = 1 / (fabs(v0) + fabs(v1) + fabs(v2));
                    v0 *= rv;
                    v1 *= rv;
                    v2 *= rv;
                }
            sweep_from<0>(m, l, i, v0, v1, v2);
            ++its;
        }
        return 0;
    }
};

template <int N>
__global__ void tiny_kernel(const double *A, double *w, double *wi, int *info, std::int64_t batch) {
    const std::int64_t b = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (b >= batch) return;
    Tiny<N> t;
    const double *g = A + b * N * N;
#pragma unroll
    for (int c = 0; c < N; ++c)
#pragma unroll
        for (int r = 0; r < N; ++r) t.a[r][c] = g[r + c * N];
    int flag = 0;
    if (!t.balance()) flag = kNotBalanced;
    t.hessenberg();
    double wr_[N], wi_[N];
#pragma unroll
    for (int k = 0; k < N; ++k) wr_[k] = wi_[k] = 0;
    const int r = t.qr(wr_, wi_);
#pragma unroll
    for (int k = 0; k < N; ++k) {
        w[b * N + k] = wr_[k];
        wi[b * N + k] = wi_[k];
    }
    info[b] = r | flag;
}

template <int N>
int run(const std::vector<std::int64_t> &batches) {
    using bench::check_batcheig;
    using bench::cuda::check;
    const std::int64_t most = *std::max_element(batches.begin(), batches.end());
    std::vector<double> a0(std::size_t(most) * N * N);
    std::mt19937_64 gen(12345);
    std::uniform_real_distribution<double> u(-1, 1);
    for (double &v : a0) v = u(gen);
    double *a, *a_lib, *w, *wi, *w2, *wi2;
    int *info, *info2;
    const std::size_t nn = std::size_t(most) * N * N, nv = std::size_t(most) * N;
    check(cudaMalloc(&a, nn * sizeof(double)), "cudaMalloc");
    check(cudaMalloc(&a_lib, nn * sizeof(double)), "cudaMalloc");
    check(cudaMalloc(&w, nv * sizeof(double)), "cudaMalloc");
    check(cudaMalloc(&wi, nv * sizeof(double)), "cudaMalloc");
    check(cudaMalloc(&w2, nv * sizeof(double)), "cudaMalloc");
    check(cudaMalloc(&wi2, nv * sizeof(double)), "cudaMalloc");
    check(cudaMalloc(&info, std::size_t(most) * sizeof(int)), "cudaMalloc");
    check(cudaMalloc(&info2, std::size_t(most) * sizeof(int)), "cudaMalloc");
    check(cudaMemcpy(a, a0.data(), nn * sizeof(double), cudaMemcpyHostToDevice), "cudaMemcpy");
    batcheigHandle_t h = nullptr;
    check_batcheig(batcheigCreateWithBackend(&h, BATCHEIG_BACKEND_CUDA), "batcheigCreateWithBackend");
    std::size_t lw = 0;
    check_batcheig(batcheigDgeevBatched_bufferSize(h, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, N, a_lib,
                                                   N, w2, wi2, nullptr, 1, nullptr, 1, &lw, nullptr, int(most)),
                   "bufferSize");
    void *work = nullptr;
    check(cudaMalloc(&work, std::max<std::size_t>(lw, 1)), "cudaMalloc");
    cudaEvent_t e0, e1;
    check(cudaEventCreate(&e0), "event");
    check(cudaEventCreate(&e1), "event");
    std::printf("N = %d, double, eigenvalues only; ms, medians of 11 (CUDA events)\n", N);
    std::printf("%9s %10s %10s %8s %12s %10s %10s\n", "batch", "tiny", "library", "ratio", "max |dw|/|a|",
                "tiny info", "lib info");
    for (const std::int64_t batch : batches) {
        std::vector<double> tt, tl;
        for (int rep = 0; rep < 12; ++rep) {
            check(cudaEventRecord(e0), "record");
            const int threads = batch >= 32 * 132 * 4 ? 128 : 32;
            tiny_kernel<N><<<unsigned((batch + threads - 1) / threads), threads>>>(a, w, wi, info, batch);
            check(cudaEventRecord(e1), "record");
            check(cudaEventSynchronize(e1), "tiny kernel");
            float ms = 0;
            cudaEventElapsedTime(&ms, e0, e1);
            if (rep) tt.push_back(ms);
            check(cudaMemcpy(a_lib, a, std::size_t(batch) * N * N * sizeof(double), cudaMemcpyDeviceToDevice), "copy");
            check(cudaEventRecord(e0), "record");
            check_batcheig(batcheigDgeevBatched(h, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, N, a_lib, N, w2,
                                                wi2, nullptr, 1, nullptr, 1, work, lw, info2, nullptr, int(batch)),
                           "batcheigDgeevBatched");
            check(cudaEventRecord(e1), "record");
            check(cudaEventSynchronize(e1), "library");
            cudaEventElapsedTime(&ms, e0, e1);
            if (rep) tl.push_back(ms);
        }
        // Compare the eigenvalues, sorted, per matrix.
        const std::size_t m = std::size_t(batch);
        std::vector<double> hw(m * N), hwi(m * N), hw2(m * N), hwi2(m * N);
        std::vector<int> hi(m), hi2(m);
        check(cudaMemcpy(hw.data(), w, m * N * sizeof(double), cudaMemcpyDeviceToHost), "copy");
        check(cudaMemcpy(hwi.data(), wi, m * N * sizeof(double), cudaMemcpyDeviceToHost), "copy");
        check(cudaMemcpy(hw2.data(), w2, m * N * sizeof(double), cudaMemcpyDeviceToHost), "copy");
        check(cudaMemcpy(hwi2.data(), wi2, m * N * sizeof(double), cudaMemcpyDeviceToHost), "copy");
        check(cudaMemcpy(hi.data(), info, m * sizeof(int), cudaMemcpyDeviceToHost), "copy");
        check(cudaMemcpy(hi2.data(), info2, m * sizeof(int), cudaMemcpyDeviceToHost), "copy");
        double worst = 0;
        int bad = 0, bad2 = 0;
        for (std::size_t b = 0; b < m; ++b) {
            bad += hi[b] != 0;
            bad2 += hi2[b] != 0;
            if (hi[b] != 0 || hi2[b] != 0) continue;
            double amax = 0;
            for (int k = 0; k < N * N; ++k) amax = std::max(amax, std::fabs(a0[b * N * N + std::size_t(k)]));
            std::vector<std::complex<double>> x(N), y(N);
            for (int k = 0; k < N; ++k) {
                x[std::size_t(k)] = {hw[b * N + std::size_t(k)], hwi[b * N + std::size_t(k)]};
                y[std::size_t(k)] = {hw2[b * N + std::size_t(k)], hwi2[b * N + std::size_t(k)]};
            }
            auto less = [](std::complex<double> p, std::complex<double> q) {
                return p.real() < q.real() || (p.real() == q.real() && p.imag() < q.imag());
            };
            std::sort(x.begin(), x.end(), less);
            std::sort(y.begin(), y.end(), less);
            for (int k = 0; k < N; ++k)
                worst = std::max(worst, std::abs(x[std::size_t(k)] - y[std::size_t(k)]) / amax);
        }
        std::printf("%9lld %10.4f %10.4f %8.2f %12.3g %10d %10d\n", (long long)batch, bench::median(tt), bench::median(tl),
                    bench::median(tl) / bench::median(tt), worst, bad, bad2);
    }
    batcheigDestroy(h);
    return 0;
}

}  // namespace

int main(int argc, char **argv) try {
    const int n = argc > 1 ? std::atoi(argv[1]) : 5;
    std::vector<std::int64_t> batches{1, 32, 1024, 4096, 8192, 41667, 500000};
    if (argc > 2) {
        batches.clear();
        for (int v : bench::parse_list(argv[2], "BATCHES", 1)) batches.push_back(v);
    }
    switch (n) {
        case 4: return run<4>(batches);
        case 5: return run<5>(batches);
        case 6: return run<6>(batches);
        default: std::fprintf(stderr, "N: 4, 5 or 6\n"); return 2;
    }
} catch (const std::exception &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
}
