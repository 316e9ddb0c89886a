// batcheig_syevj_family_repro: one matrix of the tests' Hermitian families
// (tests/support/herm_generators.hpp) through syevjBatched / heevjBatched on
// a CUDA handle, with the variant, triangle and lda a test used, to study a
// case a test reported (its INFO message names family, n, magnitude and
// seed). Prints info, sweeps (updates for the mixed variants), the reported
// residual, and the largest |A v - lambda v| / (||A||_1 u) and
// |V^H V - I| / u of the result (computed here in long double).
//
// usage: batcheig_syevj_family_repro --family NAME --n N --seed S
//          [--magnitude unit|near-overflow|near-underflow] [--precision d|z]
//          [--upper] [--lda-pad P] [--algorithm K] [--copies C] [--trajectory K]
//   NAME as herm_family_name() prints it (e.g. orth-similar-cluster);
//   --copies C: the matrix C times in one batch (default 1);
//   --trajectory K: first the residual after 1, 2, ..., K updates (sweeps),
//   each a call with batcheigParamsSetMaxSweeps(k).
// Built on request: ninja -C build/release batcheig_syevj_family_repro.
#include <batcheig.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "support/herm_generators.hpp"

namespace {

template <class T>
int run(const std::string &family, const std::string &magnitude, int n, std::uint64_t seed, bool upper, int lda_pad,
        int algorithm, int copies, int trajectory) {
    using R = bt::real_t<T>;
    bt::HermFamily f = bt::HermFamily::Zero;
    bool found = false;
    for (const bt::HermFamily g : bt::all_herm_families())
        if (family == bt::herm_family_name(g)) f = g, found = true;
    if (!found) {
        std::fprintf(stderr, "unknown family %s\n", family.c_str());
        return 2;
    }
    bt::Magnitude m = bt::Magnitude::Unit;
    if (magnitude == "near-overflow") m = bt::Magnitude::NearOverflow;
    else if (magnitude == "near-underflow") m = bt::Magnitude::NearUnderflow;
    const bt::HermMatrix<T> hm = bt::make_herm_matrix<T>(f, m, n, seed);
    const int lda = n + lda_pad;
    std::vector<T> a(std::size_t(lda) * n * copies, T(0));
    for (int c = 0; c < copies; ++c)
        for (int j = 0; j < n; ++j)
            for (int i = 0; i < n; ++i) a[std::size_t(c) * lda * n + std::size_t(j) * lda + i] = hm.a[std::size_t(j) * n + i];
    std::vector<R> w(std::size_t(n) * copies);
    std::vector<int> info(copies), sweeps(copies);
    std::vector<double> resid(copies);
    batcheigHandle_t h = nullptr;
    batcheigParams_t p = nullptr;
    if (batcheigCreateWithBackend(&h, BATCHEIG_BACKEND_CUDA) != BATCHEIG_STATUS_SUCCESS ||
        batcheigCreateParams(&p) != BATCHEIG_STATUS_SUCCESS) {
        std::fprintf(stderr, "no CUDA handle\n");
        return 1;
    }
    batcheigParamsSetAlgorithm(p, static_cast<batcheigAlgorithm_t>(algorithm));
    batcheigParamsSetJacobiOutputs(p, sweeps.data(), resid.data());
    const batcheigFillMode_t uplo = upper ? BATCHEIG_FILL_MODE_UPPER : BATCHEIG_FILL_MODE_LOWER;
    auto call = [&](std::vector<T> &work_a) {
        if constexpr (bt::is_complex_v<T>)
            return batcheigZheevjBatched(h, BATCHEIG_EIG_MODE_VECTOR, uplo, n,
                                         reinterpret_cast<batcheigDoubleComplex *>(work_a.data()), lda, w.data(), nullptr,
                                         0, info.data(), p, copies);
        else
            return batcheigDsyevjBatched(h, BATCHEIG_EIG_MODE_VECTOR, uplo, n, work_a.data(), lda, w.data(), nullptr, 0,
                                         info.data(), p, copies);
    };
    // The residual after each of the first `trajectory` updates (the sweep
    // cap stops the mixed variants' finish there; for the other variants
    // it caps sweeps).
    for (int k = 1; k <= trajectory; ++k) {
        std::vector<T> ak = a;
        batcheigParamsSetMaxSweeps(p, k);
        const batcheigStatus_t sk = call(ak);
        std::printf("max sweeps %d: status %d, info %d, sweeps %d, residual %.3e\n", k, int(sk), info[0], sweeps[0],
                    resid[0]);
    }
    batcheigParamsSetMaxSweeps(p, 0);
    batcheigStatus_t st;
    st = call(a);
    std::printf("%s: status %d\n", hm.describe().c_str(), int(st));
    if (st != BATCHEIG_STATUS_SUCCESS) return 1;
    // ||A||_1 and the checks, in long double.
    using L = long double;
    using CL = std::conditional_t<bt::is_complex_v<T>, std::complex<L>, L>;
    auto A = [&](int i, int j) { return CL(hm.a[std::size_t(j) * n + i]); };
    L anorm = 0;
    for (int j = 0; j < n; ++j) {
        L s = 0;
        for (int i = 0; i < n; ++i) s += std::abs(A(i, j));
        anorm = std::max(anorm, s);
    }
    const L u = L(std::numeric_limits<R>::epsilon()) / 2;
    for (int c = 0; c < copies; ++c) {
        const T *v = a.data() + std::size_t(c) * lda * n;
        L worst_res = 0, worst_orth = 0;
        for (int j = 0; j < n; ++j) {
            L r2 = 0;
            for (int i = 0; i < n; ++i) {
                CL s = 0;
                for (int k = 0; k < n; ++k) s += A(i, k) * CL(v[std::size_t(j) * lda + k]);
                s -= L(w[std::size_t(c) * n + j]) * CL(v[std::size_t(j) * lda + i]);
                r2 += std::norm(std::complex<L>(s));
            }
            worst_res = std::max(worst_res, std::sqrt(r2));
            for (int k = 0; k <= j; ++k) {
                CL s = 0;
                for (int i = 0; i < n; ++i) {
                    if constexpr (bt::is_complex_v<T>) s += std::conj(CL(v[std::size_t(k) * lda + i])) * CL(v[std::size_t(j) * lda + i]);
                    else s += CL(v[std::size_t(k) * lda + i]) * CL(v[std::size_t(j) * lda + i]);
                }
                if (k == j) s -= L(1);
                worst_orth = std::max(worst_orth, std::abs(s));
            }
        }
        std::printf("copy %d: info %d, sweeps %d, residual %.3e, max ||A v - lambda v|| / (||A||_1 u) %.3Lg, "
                    "max |V^H V - I| / u %.3Lg\n",
                    c, info[c], sweeps[c], resid[c], worst_res / (anorm * u), worst_orth / u);
    }
    batcheigDestroyParams(p);
    batcheigDestroy(h);
    return 0;
}

}  // namespace

int main(int argc, char **argv) {
    std::string family = "orth-similar-cluster", magnitude = "unit", precision = "z";
    int n = 512, lda_pad = 0, algorithm = BATCHEIG_ALG_JACOBI_CUDA_MIXED_TRIDIAG, copies = 1, trajectory = 0;
    std::uint64_t seed = 1;
    bool upper = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto val = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
        if (a == "--family") family = val();
        else if (a == "--magnitude") magnitude = val();
        else if (a == "--precision") precision = val();
        else if (a == "--n") n = std::atoi(val().c_str());
        else if (a == "--seed") seed = std::strtoull(val().c_str(), nullptr, 10);
        else if (a == "--upper") upper = true;
        else if (a == "--lda-pad") lda_pad = std::atoi(val().c_str());
        else if (a == "--algorithm") algorithm = std::atoi(val().c_str());
        else if (a == "--copies") copies = std::atoi(val().c_str());
        else if (a == "--trajectory") trajectory = std::atoi(val().c_str());
        else {
            std::fprintf(stderr, "unknown option %s (see the header of syevj_family_repro.cpp)\n", a.c_str());
            return 2;
        }
    }
    return precision == "d" ? run<double>(family, magnitude, n, seed, upper, lda_pad, algorithm, copies, trajectory)
                            : run<std::complex<double>>(family, magnitude, n, seed, upper, lda_pad, algorithm, copies, trajectory);
}
