// batcheig demo: the control-design scenario.
//
// A parameter-space design study: a state-feedback gain K(a, b) = a K0 + b K1
// is swept over a grid of (a, b) and checked against a set of perturbed plants
// (model uncertainty). Every (grid point, perturbation) gives one closed-loop
// system matrix A - B K; the design question is which gains keep the closed
// loop stable (all eigenvalues in the open left half-plane) for every plant.
// That is one batched eigenvalue call on 200 000 real 15x15 matrices.
// For the sampled closed loops the demo also computes the numerical abscissa
// (largest eigenvalue of the symmetric part, batcheigDsyevjBatched), which
// tells which stable loops still amplify disturbances before they decay.
//
// Options: --count N (matrices, default 200000), --n N (states, default 15),
//          --seed S, --sample K (spot check size, default 100),
//          --backend auto|host|cuda, --no-map, --help.
// Exit status: 0 on success, 1 when the spot check against LAPACKE fails or
// a matrix did not converge, 2 on a usage or library error.

// LAPACKE's complex types as std::complex (layout-compatible with C99 complex).
#include <complex>
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

#include <batcheig.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "sweep.hpp"

namespace {

struct Options {
    long long count = 200000;
    int n = 15;
    unsigned long long seed = 20261121ULL;
    int sample = 100;
    batcheigBackend_t backend = BATCHEIG_BACKEND_AUTO;
    bool map = true;
};

void usage(const char *prog) {
    std::printf(
        "usage: %s [--count N] [--n N] [--seed S] [--sample K] [--backend auto|host|cuda] [--no-map]\n"
        "  --count N    number of closed-loop matrices (default 200000)\n"
        "  --n N        states per system, matrix size (default 15)\n"
        "  --seed S     random seed of plant, gains and perturbations (default 20261121)\n"
        "  --sample K   matrices spot-checked against LAPACKE_dgeev (default 100)\n"
        "  --backend B  batcheig backend (default auto: CUDA when a GPU is usable, else host)\n"
        "  --no-map     do not print the stability map\n",
        prog);
}

bool parse(int argc, char **argv, Options &o) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char *name) -> const char * {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", name);
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") {
            usage(argv[0]);
            std::exit(0);
        } else if (a == "--count") {
            o.count = std::atoll(value("--count"));
        } else if (a == "--n") {
            o.n = std::atoi(value("--n"));
        } else if (a == "--seed") {
            o.seed = std::strtoull(value("--seed"), nullptr, 10);
        } else if (a == "--sample") {
            o.sample = std::atoi(value("--sample"));
        } else if (a == "--backend") {
            const std::string b = value("--backend");
            if (b == "auto") o.backend = BATCHEIG_BACKEND_AUTO;
            else if (b == "host") o.backend = BATCHEIG_BACKEND_HOST;
            else if (b == "cuda") o.backend = BATCHEIG_BACKEND_CUDA;
            else { std::fprintf(stderr, "unknown backend '%s'\n", b.c_str()); return false; }
        } else if (a == "--no-map") {
            o.map = false;
        } else {
            std::fprintf(stderr, "unknown option '%s'\n", a.c_str());
            return false;
        }
    }
    if (o.n < 1 || o.n > 4096) { std::fprintf(stderr, "--n must be in 1..4096\n"); return false; }
    if (o.count < 1) { std::fprintf(stderr, "--count must be positive\n"); return false; }
    if (o.count > std::numeric_limits<int>::max()) { std::fprintf(stderr, "--count must fit in an int\n"); return false; }
    if (o.sample < 0) o.sample = 0;
    if (o.sample > o.count) o.sample = (int)o.count;
    return true;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

const char *backend_name(batcheigBackend_t b) {
    switch (b) {
    case BATCHEIG_BACKEND_HOST: return "host (CPU, OpenMP)";
    case BATCHEIG_BACKEND_CUDA: return "CUDA (GPU)";
    default: return "auto";
    }
}

#define BATCHEIG_CHECK(call)                                                          \
    do {                                                                              \
        batcheigStatus_t st_ = (call);                                                \
        if (st_ != BATCHEIG_STATUS_SUCCESS) {                                         \
            std::fprintf(stderr, "error: %s returned %s\n", #call, batcheigGetStatusString(st_)); \
            std::exit(2);                                                             \
        }                                                                             \
    } while (0)

// Spectral abscissa (largest real part); NaN when any eigenvalue is NaN.
double abscissa(const double *wr, int n) {
    double m = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i) {
        if (std::isnan(wr[i])) return std::numeric_limits<double>::quiet_NaN();
        m = std::max(m, wr[i]);
    }
    return m;
}

// Largest distance between the two eigenvalue lists after pairing each
// eigenvalue of `a` with the nearest unused one of `b` (greedy, closest pairs
// first), as a multiple of max(1, ...) scaled by ||A||_1 by the caller.
double paired_distance(int n, const double *ar, const double *ai, const double *br, const double *bi) {
    struct Cand { double d; int i, j; };
    std::vector<Cand> c;
    c.reserve((size_t)n * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) c.push_back({std::hypot(ar[i] - br[j], ai[i] - bi[j]), i, j});
    std::sort(c.begin(), c.end(), [](const Cand &x, const Cand &y) { return x.d < y.d; });
    std::vector<char> ua(n, 0), ub(n, 0);
    double worst = 0.0;
    int paired = 0;
    for (const Cand &x : c) {
        if (ua[x.i] || ub[x.j]) continue;
        ua[x.i] = ub[x.j] = 1;
        worst = std::max(worst, x.d);
        if (++paired == n) break;
    }
    return worst;
}

double norm1(int n, const double *A) {
    double best = 0.0;
    for (int j = 0; j < n; ++j) {
        double s = 0.0;
        for (int i = 0; i < n; ++i) s += std::fabs(A[(size_t)j * n + i]);
        best = std::max(best, s);
    }
    return best;
}

}  // namespace

int main(int argc, char **argv) {
    Options opt;
    if (!parse(argc, argv, opt)) {
        usage(argv[0]);
        return 2;
    }
    const int n = opt.n;
    const int batch = (int)opt.count;
    const size_t nn = (size_t)n * n;

    int version = 0;
    BATCHEIG_CHECK(batcheigGetVersion(&version));
    batcheigHandle_t handle = nullptr;
    BATCHEIG_CHECK(batcheigCreateWithBackend(&handle, opt.backend));
    batcheigBackend_t backend = BATCHEIG_BACKEND_AUTO;
    BATCHEIG_CHECK(batcheigGetBackend(handle, &backend));
    int threads = 1;
#ifdef _OPENMP
    threads = omp_get_max_threads();
#endif

    std::printf("batcheig demo: control-design parameter sweep\n");
    std::printf("  library   batcheig %d.%d.%d, backend %s%s\n", version / 10000, version / 100 % 100,
                version % 100, backend_name(backend),
                opt.backend == BATCHEIG_BACKEND_AUTO ? " (chosen by BATCHEIG_BACKEND_AUTO)" : "");
    if (backend == BATCHEIG_BACKEND_HOST) std::printf("  cpu       %d OpenMP threads\n", threads);

    // ---- the design problem --------------------------------------------------
    auto t0 = std::chrono::steady_clock::now();
    demo::Sweep sw(n, opt.count, opt.seed);
    std::vector<double> ev(n), evi(n);
    auto nominal_abscissa = [&](const std::vector<double> &M) {
        std::vector<double> a(M);
        LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', n, a.data(), n, ev.data(), evi.data(), nullptr, 1, nullptr, 1);
        return abscissa(ev.data(), n);
    };
    std::printf("  plant     n = %d states, m = %d inputs; open-loop spectral abscissa %+.3f (%s)\n", n, sw.m,
                nominal_abscissa(sw.A0), nominal_abscissa(sw.A0) < 0 ? "stable" : "unstable");
    std::printf("  gains     K(a,b) = a*K0 + b*K1, a in [%g, %g] x b in [%g, %g] on a %d x %d grid\n", sw.a_min,
                sw.a_max, sw.b_min, sw.b_max, sw.side_a, sw.side_b);
    std::printf("  plants    %d perturbed plants A0 + %.2f*E_p per gain (model uncertainty)\n", sw.perturbations,
                sw.delta);
    std::printf("  batch     %d closed-loop matrices A_cl = A0 + %.2f*E_p - B*K(a,b), %d x %d, double\n", batch,
                sw.delta, n, n);

    std::vector<double> A(nn * (size_t)batch);
#pragma omp parallel for schedule(static)
    for (long long i = 0; i < (long long)batch; ++i) sw.closed_loop(i, A.data() + (size_t)i * nn);
    const double t_gen = seconds_since(t0);

    // Keep a copy of the spot-check sample: geev overwrites A.
    std::vector<long long> sample_idx(opt.sample);
    for (int s = 0; s < opt.sample; ++s) sample_idx[s] = (long long)((double)s * opt.count / opt.sample);
    std::vector<double> sample_A(nn * (size_t)opt.sample);
    for (int s = 0; s < opt.sample; ++s)
        std::memcpy(&sample_A[(size_t)s * nn], &A[(size_t)sample_idx[s] * nn], nn * sizeof(double));

    // ---- eigenvalues of the whole batch: one call -----------------------------
    std::vector<double> wr((size_t)n * batch), wi(wr.size());
    std::vector<int> info(batch);
    size_t lwork = 0;
    BATCHEIG_CHECK(batcheigDgeevBatched_bufferSize(handle, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR,
                                                   n, A.data(), n, wr.data(), wi.data(), nullptr, 1, nullptr, 1,
                                                   &lwork, nullptr, batch));
    t0 = std::chrono::steady_clock::now();
    BATCHEIG_CHECK(batcheigDgeevBatched(handle, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_EIG_MODE_NOVECTOR, n, A.data(),
                                        n, wr.data(), wi.data(), nullptr, 1, nullptr, 1, nullptr, 0, info.data(),
                                        nullptr, batch));
    const double t_eig = seconds_since(t0);

    // ---- analysis ---------------------------------------------------------------
    long long stable = 0, failed = 0;
    std::vector<int> stable_per_gain(sw.grid_points, 0), plants_per_gain(sw.grid_points, 0);
    std::vector<double> worst_abscissa(sw.grid_points, -std::numeric_limits<double>::infinity());
    for (long long i = 0; i < (long long)batch; ++i) {
        const long long g = sw.grid_index(i);
        ++plants_per_gain[g];
        if (info[i] != 0) {
            ++failed;
            worst_abscissa[g] = std::numeric_limits<double>::infinity();
            continue;
        }
        const double s = abscissa(&wr[(size_t)i * n], n);
        worst_abscissa[g] = std::max(worst_abscissa[g], s);
        if (s < 0.0) {
            ++stable;
            ++stable_per_gain[g];
        }
    }
    long long robust = 0, best_g = -1;
    for (long long g = 0; g < sw.grid_points; ++g) {
        if (plants_per_gain[g] == sw.perturbations && stable_per_gain[g] == sw.perturbations) ++robust;
        if (plants_per_gain[g] == sw.perturbations && (best_g < 0 || worst_abscissa[g] < worst_abscissa[best_g]))
            best_g = g;
    }

    std::printf("\nresults\n");
    std::printf("  generate          %8.3f s\n", t_gen);
    std::printf("  eigenvalues       %8.3f s  (batcheigDgeevBatched, eigenvalues only, handle workspace %.1f KiB)\n",
                t_eig, lwork / 1024.0);
    std::printf("  throughput        %8.0f matrices/s  (%.2f us per matrix)\n", batch / t_eig, 1e6 * t_eig / batch);
    if (failed == 0)
        std::printf("  convergence       all %d matrices converged (info == 0)\n", batch);
    else
        std::printf("  convergence       %lld of %d matrices with info != 0\n", failed, batch);
    std::printf("  stable            %lld / %d closed loops = %.2f %%  (all Re(lambda) < 0)\n", stable, batch,
                100.0 * stable / batch);
    std::printf("  robust gains      %lld / %lld grid points stable for all %d plants\n", robust, sw.grid_points,
                sw.perturbations);
    if (best_g >= 0)
        std::printf("  most robust gain  a = %.3f, b = %.3f: worst-case spectral abscissa %+.4f\n",
                    sw.a_of(sw.ia(best_g)), sw.b_of(sw.ib(best_g)), worst_abscissa[best_g]);

    // Coarse stability map: share of stable closed loops per cell.
    if (opt.map && sw.grid_points >= 4) {
        const int rows = std::min(sw.side_a, 16), cols = std::min(sw.side_b, 50);
        std::vector<long long> st(rows * cols, 0), tot(rows * cols, 0);
        for (long long g = 0; g < sw.grid_points; ++g) {
            const int r = (int)((long long)sw.ia(g) * rows / sw.side_a), c = (int)((long long)sw.ib(g) * cols / sw.side_b);
            st[r * cols + c] += stable_per_gain[g];
            tot[r * cols + c] += plants_per_gain[g];
        }
        static const char shade[] = " .:-=+*#%@";
        std::printf("\n  stability map: share of stable plants per gain cell (' ' none .. '@' all)\n");
        std::printf("  rows: a from %g (top) to %g; columns: b from %g (left) to %g (right)\n", sw.a_min, sw.a_max,
                    sw.b_min, sw.b_max);
        for (int r = 0; r < rows; ++r) {
            std::string line;
            for (int c = 0; c < cols; ++c) {
                const long long t = tot[r * cols + c];
                line += t ? shade[(int)(9.0 * st[r * cols + c] / t + 0.5)] : ' ';
            }
            const double a_lo = sw.a_of((int)((long long)r * sw.side_a / rows));
            std::printf("  a=%+6.2f |%s|\n", a_lo, line.c_str());
        }
    }

    int ok = 1;
    // ---- transient growth: numerical abscissa by syevjBatched ------------------
    // A stable closed loop can still amplify disturbances for a while:
    // ||exp(At)|| grows initially iff the numerical abscissa
    // omega(A) = lambda_max((A + A^T) / 2) is positive. The symmetric parts of
    // the sampled matrices go through batcheigDsyevjBatched (Jacobi), checked
    // against LAPACKE_dsyev.
    if (opt.sample > 0) {
        const int k = opt.sample;
        std::vector<double> S(nn * (size_t)k), S0, ws((size_t)n * k);
        std::vector<int> sinfo(k);
        for (int s = 0; s < k; ++s)
            for (int j = 0; j < n; ++j)
                for (int r = 0; r < n; ++r) {
                    const double *M = &sample_A[(size_t)s * nn];
                    S[(size_t)s * nn + r + (size_t)j * n] = 0.5 * (M[r + (size_t)j * n] + M[j + (size_t)r * n]);
                }
        S0 = S;
        BATCHEIG_CHECK(batcheigDsyevjBatched(handle, BATCHEIG_EIG_MODE_NOVECTOR, BATCHEIG_FILL_MODE_LOWER, n, S.data(),
                                             n, ws.data(), nullptr, 0, sinfo.data(), nullptr, k));
        int growth = 0, stable_growth = 0;
        double worst = 0.0;
        std::vector<double> lw(n);
        for (int s = 0; s < k; ++s) {
            const double omega = ws[(size_t)s * n + n - 1];  // ascending: the last is the largest
            const long long i = sample_idx[s];
            if (omega > 0) {
                ++growth;
                if (abscissa(&wr[(size_t)i * n], n) < 0) ++stable_growth;
            }
            double *M = &S0[(size_t)s * nn];
            const double anorm = norm1(n, M);
            if (LAPACKE_dsyev(LAPACK_COL_MAJOR, 'N', 'L', n, M, n, lw.data()) != 0 || sinfo[s] != 0) {
                ok = 0;
                continue;
            }
            for (int j = 0; j < n; ++j)
                worst = std::max(worst, std::fabs(lw[j] - ws[(size_t)s * n + j]) / (anorm > 0 ? anorm : 1.0));
        }
        const double u = std::numeric_limits<double>::epsilon() / 2;
        const bool sym_ok = worst <= 1e-12;
        ok = ok && sym_ok;
        std::printf("\ntransient growth on the %d sampled closed loops (batcheigDsyevjBatched on (A + A^T)/2)\n", k);
        std::printf("  numerical abscissa > 0   %d / %d (of which stable: %d -- they decay, but only after growing)\n",
                    growth, k, stable_growth);
        std::printf("  vs LAPACKE_dsyev: max |dlambda| / ||S||_1 = %.2e (%.1f u)  %s\n", worst, worst / u,
                    sym_ok ? "PASS" : "FAIL");
    }

    // ---- spot check against LAPACKE_dgeev --------------------------------------
    if (opt.sample > 0) {
        double worst_rel = 0.0;
        int agree = 0, skipped = 0;
        std::vector<double> lr(n), li(n);
        for (int s = 0; s < opt.sample; ++s) {
            const long long i = sample_idx[s];
            double *M = &sample_A[(size_t)s * nn];
            const double anorm = norm1(n, M);
            const lapack_int linfo = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', 'N', n, M, n, lr.data(), li.data(),
                                                   nullptr, 1, nullptr, 1);
            if (linfo != 0 || info[i] != 0) {
                ++skipped;
                if ((linfo == 0) != (info[i] == 0)) ok = 0;
                continue;
            }
            const double d = paired_distance(n, &wr[(size_t)i * n], &wi[(size_t)i * n], lr.data(), li.data());
            worst_rel = std::max(worst_rel, d / (anorm > 0 ? anorm : 1.0));
            if ((abscissa(&wr[(size_t)i * n], n) < 0) == (abscissa(lr.data(), n) < 0)) ++agree;
        }
        const double u = std::numeric_limits<double>::epsilon() / 2;
        const double tol = 1e-10;  // random closed loops are well conditioned; errors are ~1e-15 relative
        ok = ok && worst_rel <= tol && agree == opt.sample - skipped;
        std::printf("\nspot check vs LAPACKE_dgeev on %d matrices (evenly spaced over the batch)\n", opt.sample);
        std::printf("  max |lambda_batcheig - lambda_lapacke| / ||A||_1 = %.2e  (%.1f u, tolerance %.0e)\n", worst_rel,
                    worst_rel / u, tol);
        std::printf("  stability verdict agrees on %d / %d%s\n", agree, opt.sample - skipped,
                    skipped ? " (matrices with info != 0 left out)" : "");
        std::printf("  %s\n", ok ? "PASS" : "FAIL");
    }
    if (failed != 0) ok = 0;

    BATCHEIG_CHECK(batcheigDestroy(handle));
    return ok ? 0 : 1;
}
