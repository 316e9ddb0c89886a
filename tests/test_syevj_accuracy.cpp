// syevjBatched / heevjBatched accuracy against LAPACKE ?syev/?heev on the
// Hermitian matrix families of DESIGN.md section 5, all four precisions,
// every Jacobi variant forced through the params, both uplo, with and
// without vectors.
//
// Per matrix (support/syevj_checks.hpp): info == 0; every eigenvalue written,
// finite and ascending; |lambda - lambda_LAPACKE| / (||A||_1 u) <= 60;
// with vectors ||A - V Lambda V^H||_1 / (n ||A||_1 u) <= 60 and
// ||I - V^H V||_1 / (n u) <= 60, every entry of V written; padding rows of A
// untouched; without vectors A unchanged. The library only sees the uplo
// triangle: the other one is NaN and complex diagonals carry junk imaginary
// parts. On the host backend eigenvalues without vectors are bitwise those
// with vectors (the CUDA kernels need not give that: each run is checked on
// its own). Forced CUDA variants run over the sizes they claim
// (syevj_variant_claims()); for the others the call must return
// NOT_SUPPORTED and write nothing.
#include <complex>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "catch_compat.hpp"
#include "support/backend.hpp"
#include "support/herm_generators.hpp"
#include "support/syevj_api.hpp"
#include "support/syevj_checks.hpp"
#include "support/test_config.hpp"

using namespace bt;

#define BT_SYEVJ_TYPES float, double, std::complex<float>, std::complex<double>

namespace {

/// Worst ratios per row (printed with BATCHEIG_TEST_VERBOSE=1).
struct SyevjTable {
  std::map<std::string, SyevjRatios> rows;
  void add(const std::string &key, const SyevjRatios &r) { rows[key].merge_max(r); }
  void print(const std::string &title) const {
    if (!syevj_verbose()) return;
    std::printf("\n%s\n%-44s %9s %9s %9s\n", title.c_str(), "case", "residual", "orth", "eig");
    for (const auto &kv : rows)
      std::printf("%-44s %9.3g %9.3g %9.3g\n", kv.first.c_str(), kv.second.residual, kv.second.orth, kv.second.eig);
    std::fflush(stdout);
  }
};

/// One matrix: with vectors (checked), then without. Each run only where the
/// variant claims n with that jobz; otherwise NOT_SUPPORTED, nothing
/// written. The eigenvalue-only run happens when asked for, or when the
/// variant does not claim n with vectors (it may still claim it without).
template <class T>
SyevjRatios accuracy_case(batcheigHandle_t h, const HermMatrix<T> &hm, batcheigParams_t params,
                          batcheigAlgorithm_t alg, batcheigFillMode_t uplo, bool also_novector) {
  const int n = hm.n;
  INFO(precision_name<T>() << " | " << hm.describe() << " | uplo " << uplo_name(uplo));
  const bool claims_v = syevj_variant_claims<T>(alg, n, true);
  const bool claims_n = syevj_variant_claims<T>(alg, n, false);
  SyevjOptions opt;
  opt.params = params;
  opt.uplo = uplo;
  SyevjRatios worst;
  if (!claims_v && !claims_n) {
    expect_syevj_not_claimed<T>(h, {&hm.a}, n, opt);
    opt.jobz = BATCHEIG_EIG_MODE_NOVECTOR;
    expect_syevj_not_claimed<T>(h, {&hm.a}, n, opt);
    return worst;
  }
  const std::vector<real_t<T>> oracle = oracle_heev(hm.a, n);
  SyevjRun<T> rv;
  if (claims_v) {
    rv = run_syevj_single(h, hm.a, n, opt);
    REQUIRE(rv.status == BATCHEIG_STATUS_SUCCESS);
    worst = check_syevj_matrix(hm.a, rv, 0, oracle);
  } else {
    expect_syevj_not_claimed<T>(h, {&hm.a}, n, opt);
  }
  if (also_novector || !claims_v) {
    opt.jobz = BATCHEIG_EIG_MODE_NOVECTOR;
    if (!claims_n) {
      expect_syevj_not_claimed<T>(h, {&hm.a}, n, opt);
      return worst;
    }
    const SyevjRun<T> rn = run_syevj_single(h, hm.a, n, opt);
    REQUIRE(rn.status == BATCHEIG_STATUS_SUCCESS);
    worst.merge_max(check_syevj_matrix(hm.a, rn, 0, oracle));
    if (claims_v && rn.backend == BATCHEIG_BACKEND_HOST) {
      INFO("host backend: eigenvalues must be bitwise identical whether or not vectors are computed");
      CHECK(std::memcmp(rn.W.data(), rv.W.data(), sizeof(real_t<T>) * n) == 0);
    }
  }
  return worst;
}

/// Sizes per variant: the block variant costs more on the host, so it runs
/// on fewer (but still every kind of) sizes. The CUDA variants run the
/// scalar variant's sizes (the shared-memory ones skip what they do not
/// claim, accuracy_case()).
std::vector<int> random_sizes(batcheigAlgorithm_t alg) {
  const bool quick = test_level() == TestLevel::Quick;
  if (alg == BATCHEIG_ALG_JACOBI_HOST_BLOCK) {
    if (quick) return {1, 2, 3, 5, 8, 17, 33};
    return {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 31, 32, 33, 48, 64, 65, 100, 128};
  }
  if (quick) return {1, 2, 3, 4, 5, 7, 8, 16, 17, 32, 33, 64};
  std::vector<int> v = range_sizes(1, 40);
  for (int n : {47, 48, 63, 64, 65, 96, 100, 127, 128}) v.push_back(n);
  return v;
}

std::vector<int> family_sizes(batcheigAlgorithm_t alg) {
  switch (test_level()) {
    case TestLevel::Quick: return {1, 2, 5, 16};
    case TestLevel::Default:
      if (alg == BATCHEIG_ALG_JACOBI_HOST_BLOCK) return {1, 2, 3, 5, 8, 13, 16, 33, 64};
      return {1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 31, 32, 33, 64, 100};
    case TestLevel::Full: {
      std::vector<int> v = range_sizes(1, 64);
      v.push_back(100);
      v.push_back(128);
      return v;
    }
  }
  return {};
}

}  // namespace

TEMPLATE_TEST_CASE("syevj accuracy: random Hermitian, n = 1..128, every variant, both uplo, with and without vectors",
                   "[syevj][accuracy]", BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : syevj_forced_variants(backend)) {
      ParamsGuard p;
      REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
      SyevjTable table;
      for (const int n : random_sizes(alg)) {
        const HermMatrix<T> hm = make_herm_matrix<T>(HermFamily::Random, Magnitude::Unit, n, make_seed(31, n));
        INFO("backend " << backend_name(backend) << ", algorithm " << syevj_variant_name(alg));
        // Both triangles for n <= 40, alternating above; the eigenvalue-only
        // run (bitwise equality) for n <= 40.
        for (const batcheigFillMode_t uplo : {BATCHEIG_FILL_MODE_LOWER, BATCHEIG_FILL_MODE_UPPER}) {
          if (n > 40 && (uplo == BATCHEIG_FILL_MODE_UPPER) != (n % 2 == 1)) continue;
          table.add(std::string("random ") + (n <= 32 ? "n<=32 " : n <= 64 ? "n<=64 " : "n>64 ") + uplo_name(uplo),
                    accuracy_case(h.h, hm, p, alg, uplo, n <= 40));
        }
      }
      table.print(std::string("random Hermitian | ") + precision_name<T>() + " | backend " + backend_name(backend) +
                  " | " + syevj_variant_name(alg));
    }
  }
}

TEMPLATE_TEST_CASE("syevj accuracy: structured families x magnitudes (zero, identity, diagonal, repeated, "
                   "orthogonal similarity, graded, random phases), every variant",
                   "[syevj][accuracy]", BT_SYEVJ_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : syevj_forced_variants(backend)) {
      ParamsGuard p;
      REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
      SyevjTable table;
      int k = 0;
      for (const auto &[f, m] : herm_family_magnitudes())
        for (const int n : family_sizes(alg)) {
          const auto seed = make_seed(static_cast<std::uint64_t>(f), static_cast<std::uint64_t>(m),
                                      static_cast<std::uint64_t>(n), 2026);
          const HermMatrix<T> hm = make_herm_matrix<T>(f, m, n, seed);
          const batcheigFillMode_t uplo = (k++ % 2) ? BATCHEIG_FILL_MODE_UPPER : BATCHEIG_FILL_MODE_LOWER;
          INFO("backend " << backend_name(backend) << ", algorithm " << syevj_variant_name(alg));
          table.add(std::string(herm_family_name(f)) + "/" + magnitude_name(m),
                    accuracy_case(h.h, hm, p, alg, uplo, n <= 16));
        }
      table.print(std::string("structured families | ") + precision_name<T>() + " | backend " +
                  backend_name(backend) + " | " + syevj_variant_name(alg));
    }
  }
}

TEMPLATE_TEST_CASE("syevj accuracy: larger sizes (n = 150, 200), the default variant", "[syevj][accuracy][large]",
                   BT_SYEVJ_TYPES) {
  using T = TestType;
  if (test_level() == TestLevel::Quick) BT_SKIP("BATCHEIG_TEST_LEVEL=quick");
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    SyevjTable table;
    const std::vector<std::pair<HermFamily, int>> cases = {
        {HermFamily::Random, 150}, {HermFamily::Graded, 150}, {HermFamily::OrthGeom, 200}};
    int k = 0;
    for (const auto &c : cases) {
      const HermMatrix<T> hm = make_herm_matrix<T>(c.first, Magnitude::Unit, c.second, make_seed(57, c.second));
      const batcheigFillMode_t uplo = (k++ % 2) ? BATCHEIG_FILL_MODE_UPPER : BATCHEIG_FILL_MODE_LOWER;
      table.add(std::string(herm_family_name(c.first)) + " n=" + std::to_string(c.second),
                accuracy_case(h.h, hm, nullptr, BATCHEIG_ALG_AUTO, uplo, false));
    }
    table.print(std::string("larger sizes | ") + precision_name<T>() + " | backend " + backend_name(backend));
  }
}

// Large n under AUTO on every backend: every family at every magnitude at
// n = 256 and 512 (the block variant on the host; the grid variant on the
// CUDA backend, which test_syevj_cuda also covers at the default level).
// Full level only: the host's Jacobi takes minutes at these orders.
// It found (session 45, docs/performance.md) that at n = 512 the host's
// scalar variant, then AUTO's at every n, missed the eigenvalue ratio on
// the clustered spectrum under orthogonal similarity (64 in double, 69-78
// in complex double, limit 60); AUTO takes the block variant beyond
// n = 256 since.
TEMPLATE_TEST_CASE("syevj accuracy: every family and magnitude at large n (n = 256 and 512) under AUTO",
                   "[syevj][accuracy][large]", BT_SYEVJ_TYPES) {
  using T = TestType;
  if (test_level() != TestLevel::Full) BT_SKIP("BATCHEIG_TEST_LEVEL=full only");
  const std::vector<int> sizes = only_listed_sizes({256, 512});
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    SyevjTable table;
    int k = 0;
    for (const int n : sizes)
      for (const auto &[f, m] : herm_family_magnitudes()) {
        const auto seed = make_seed(static_cast<std::uint64_t>(f), static_cast<std::uint64_t>(m),
                                    static_cast<std::uint64_t>(n), 2048);
        const HermMatrix<T> hm = make_herm_matrix<T>(f, m, n, seed);
        const batcheigFillMode_t uplo = (k++ % 2) ? BATCHEIG_FILL_MODE_UPPER : BATCHEIG_FILL_MODE_LOWER;
        INFO("backend " << backend_name(backend) << ", AUTO, n = " << n);
        table.add(std::string(herm_family_name(f)) + "/" + magnitude_name(m) + " n=" + std::to_string(n),
                  accuracy_case(h.h, hm, nullptr, BATCHEIG_ALG_AUTO, uplo, false));
      }
    table.print(std::string("large n | ") + precision_name<T>() + " | backend " + backend_name(backend));
  }
}
