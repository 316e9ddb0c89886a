// Control-design parameter sweep used by the demo: closed-loop system
// matrices A_cl = A(p) - B K(a, b) over a grid of gains and a set of plant
// perturbations. Everything is deterministic in the seed.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstddef>
#include <vector>

namespace demo {

// Counter-based generator (SplitMix64): stream `s` of seed `seed` gives the
// same numbers whatever the thread that draws them.
class Rng {
public:
    Rng(std::uint64_t seed, std::uint64_t stream)
        : state_(seed * 0x9E3779B97F4A7C15ULL ^ (stream + 0x632BE59BD9B4E019ULL) * 0xBF58476D1CE4E5B9ULL) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    double uniform() { return (next() >> 11) * 0x1.0p-53; }  // [0, 1)
    double normal() {                                        // Box-Muller
        double u1 = uniform(), u2 = uniform();
        if (u1 < 1e-300) u1 = 1e-300;
        return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
    }

private:
    std::uint64_t state_;
};

// The design problem, all matrices column-major n x n unless noted.
//
// A stable "reference" dynamics S (spectral abscissa about -0.2) is made
// open-loop unstable by a feedback-like term: the plant is A0 = S + B K0 with
// B (n x m) the input matrix, so the nominal gain K0 exactly stabilises the
// nominal plant. The sweep detunes that design:
//     K(a, b) = a K0 + b K1         a in [a_min, a_max], b in [b_min, b_max]
// where K1 is a second gain direction (e.g. another tuning knob), and checks
// each gain against P perturbed plants A0 + delta E_p (E_p random,
// ||E_p|| ~ 1, the same P perturbations at every grid point):
//     A_cl(a, b, p) = S + delta E_p + (1 - a) B K0 - b B K1.
struct Sweep {
    int n = 15;               // states
    int m = 3;                // inputs
    int perturbations = 20;   // plant variants per grid point
    double delta = 0.10;      // size of the plant perturbation
    double a_min = -1.0, a_max = 3.0;
    double b_min = -3.5, b_max = 1.5;
    long long count = 0;      // number of closed-loop matrices
    long long grid_points = 0;
    int side_a = 0, side_b = 0;  // grid is side_a x side_b (a slow, b fast)

    std::vector<double> S, BK0, BK1, A0;  // n x n
    std::vector<std::vector<double>> E;   // perturbations, n x n each

    Sweep(int n_, long long count_, std::uint64_t seed) : n(n_), count(count_) {
        m = n < 3 ? n : 3;
        grid_points = (count + perturbations - 1) / perturbations;
        side_b = (int)std::ceil(std::sqrt((double)grid_points));
        if (side_b < 1) side_b = 1;
        side_a = (int)((grid_points + side_b - 1) / side_b);
        if (side_a < 1) side_a = 1;

        const std::size_t nn = (std::size_t)n * n;
        const double rs = 1.0 / std::sqrt((double)n);
        Rng r(seed, 0);
        S.assign(nn, 0.0);
        for (std::size_t k = 0; k < nn; ++k) S[k] = 0.8 * rs * r.normal();
        for (int i = 0; i < n; ++i) S[(std::size_t)i * n + i] -= 1.0;
        std::vector<double> B((std::size_t)n * m), K0((std::size_t)m * n), K1((std::size_t)m * n);
        for (auto &x : B) x = r.normal();
        for (auto &x : K0) x = 0.6 * rs * r.normal();
        for (auto &x : K1) x = 0.3 * rs * r.normal();
        BK0.assign(nn, 0.0);
        BK1.assign(nn, 0.0);
        for (int j = 0; j < n; ++j)
            for (int k = 0; k < m; ++k)
                for (int i = 0; i < n; ++i) {
                    BK0[(std::size_t)j * n + i] += B[(std::size_t)k * n + i] * K0[(std::size_t)j * m + k];
                    BK1[(std::size_t)j * n + i] += B[(std::size_t)k * n + i] * K1[(std::size_t)j * m + k];
                }
        A0.resize(nn);
        for (std::size_t k = 0; k < nn; ++k) A0[k] = S[k] + BK0[k];
        E.resize(perturbations);
        for (int p = 0; p < perturbations; ++p) {
            Rng rp(seed, 1 + (std::uint64_t)p);
            E[p].resize(nn);
            for (auto &x : E[p]) x = rs * rp.normal();
        }
    }

    // Grid coordinates of matrix `idx`.
    long long grid_index(long long idx) const { return idx / perturbations; }
    int perturbation(long long idx) const { return (int)(idx % perturbations); }
    int ia(long long g) const { return (int)(g / side_b); }
    int ib(long long g) const { return (int)(g % side_b); }
    double a_of(int ia_) const { return side_a > 1 ? a_min + (a_max - a_min) * ia_ / (side_a - 1) : 1.0; }
    double b_of(int ib_) const { return side_b > 1 ? b_min + (b_max - b_min) * ib_ / (side_b - 1) : 0.0; }

    // Write A_cl of matrix `idx` into `out` (column-major, leading dim n).
    void closed_loop(long long idx, double *out) const {
        const long long g = grid_index(idx);
        const double a = a_of(ia(g)), b = b_of(ib(g));
        const std::vector<double> &Ep = E[perturbation(idx)];
        const std::size_t nn = (std::size_t)n * n;
        for (std::size_t k = 0; k < nn; ++k)
            out[k] = S[k] + delta * Ep[k] + (1.0 - a) * BK0[k] - b * BK1[k];
    }
};

}  // namespace demo
