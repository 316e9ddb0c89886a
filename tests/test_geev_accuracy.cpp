// geevBatched accuracy against LAPACKE ?geev on the matrix families of
// DESIGN.md section 5, all four precisions, every job combination.
//
// Per matrix (see support/geev_checks.hpp for each measure's rationale):
//  - the oracle passes the same vector criteria (validates the test itself);
//  - info == 0; eigenvalues written and finite; real types: LAPACK packing of
//    conjugate pairs;
//  - eigenvalues agree with LAPACKE's after a one-to-one pairing, within
//    20 * n u ||A|| kappa_j (Jordan families: within the Jordan perturbation
//    radius of the exact eigenvalue); sum of eigenvalues = trace(A);
//  - ||A VR - VR Lambda||_1 / (n ||A||_1 u) <= 20, the same for VL with A^H;
//    | ||v|| - 1 | / u <= 20; largest component of every vector real;
//    every vector entry written and finite, padding rows untouched;
//  - with jobvl/jobvr in {N,V}^2 the eigenvalues are bitwise identical to the
//    (V,V) call, and vector arrays passed with job N stay untouched.
#include <complex>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "catch_compat.hpp"
#include "support/backend.hpp"
#include "support/generators.hpp"
#include "support/geev_checks.hpp"
#include "support/geev_runner.hpp"
#include "support/lapacke_oracle.hpp"
#include "support/test_config.hpp"

using namespace bt;

#define BT_GEEV_TYPES float, double, std::complex<float>, std::complex<double>

namespace {

/// Worst ratios per family (printed with BATCHEIG_TEST_VERBOSE=1).
struct RatioTable {
  std::map<std::string, GeevRatios> rows;
  void add(const std::string &key, const GeevRatios &r) { rows[key].merge_max(r); }
  void print(const std::string &title) const {
    if (!verbose_tests()) return;
    std::printf("\n%s\n%-34s %9s %9s %9s %9s %9s %9s %9s\n", title.c_str(), "family/magnitude", "right", "left",
                "|vr|-1", "|vl|-1", "eig", "trace", "jordan");
    for (const auto &kv : rows) {
      const GeevRatios &r = kv.second;
      std::printf("%-34s %9.3g %9.3g %9.3g %9.3g %9.3g %9.3g %9.3g\n", kv.first.c_str(), r.right, r.left, r.vr_norm,
                  r.vl_norm, r.eig, r.trace, r.jordan);
    }
    std::fflush(stdout);
  }
};

/// The job combinations of one case: (V,V) alone; (V,V) and (N,N); or all
/// four.
enum class Jobs { VV, VVAndNN, All };

/// Oracle, (V,V) call with all checks, then the other job combinations
/// that `jobs` asks for (bitwise-equal eigenvalues, their own vector
/// checks).
template <class T>
GeevRatios accuracy_case(batcheigHandle_t h, const TestMatrix<T> &tm, batcheigParams_t params, Jobs jobs) {
  const int n = tm.n();
  const OracleGeev<T> o = oracle_geev(tm.a, n);
  check_oracle_self_consistency(tm, o);

  GeevOptions opt;
  opt.params = params;
  const GeevRun<T> full = run_geev_single(h, tm.a, n, opt);
  INFO(precision_name<T>() << " | " << tm.info.describe());
  REQUIRE(full.status == BATCHEIG_STATUS_SUCCESS);
  GeevRatios worst = check_geev_matrix(tm, full, 0, o);
  if (jobs == Jobs::VV) return worst;

  const std::vector<unsigned char> ref_eigs = full.eig_bytes(0);
  for (int k = 0; k < (jobs == Jobs::All ? 3 : 1); ++k) {
    GeevOptions oj = opt;
    oj.jobvl = (k == 1) ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
    oj.jobvr = (k == 2) ? BATCHEIG_EIG_MODE_VECTOR : BATCHEIG_EIG_MODE_NOVECTOR;
    // Alternate between NULL and sentinel-filled arrays for the unwanted vectors.
    oj.pass_unwanted_vectors = ((n + k) % 2 == 0);
    const GeevRun<T> r = run_geev_single(h, tm.a, n, oj);
    INFO("jobvl=" << job_name(oj.jobvl) << " jobvr=" << job_name(oj.jobvr));
    REQUIRE(r.status == BATCHEIG_STATUS_SUCCESS);
    CHECK(r.info[0] == 0);
    INFO("eigenvalues must be bitwise identical whether or not vectors are computed");
    CHECK(same_bytes(r.eig_bytes(0), ref_eigs));
    worst.merge_max(check_geev_matrix(tm, r, 0, o));
  }
  return worst;
}

// The cases of families x magnitudes x sizes (the zero matrix at unit
// scale only: scaling zero is zero) that variant alg claims, on one handle
// with params p (alg's), seeds from tag; worst ratios into table.
template <class T>
void family_cases(batcheigHandle_t h, batcheigBackend_t backend, batcheigParams_t p, batcheigAlgorithm_t alg,
                  const std::vector<Family> &families, const std::vector<Magnitude> &magnitudes,
                  const std::vector<int> &sizes, std::uint64_t tag, Jobs jobs, RatioTable &table) {
  for (const Family f : families)
    for (const Magnitude m : magnitudes) {
      if ((f == Family::Zero) && m != Magnitude::Unit) continue;
      for (const int n : sizes) {
        if (!geev_variant_claims<T>(alg, n, true, true)) continue;
        const auto seed = make_seed(static_cast<std::uint64_t>(f), static_cast<std::uint64_t>(m),
                                    static_cast<std::uint64_t>(n), tag);
        const TestMatrix<T> tm = make_matrix<T>(f, m, n, seed);
        INFO("backend " << backend_name(backend) << ", algorithm " << algorithm_name(alg));
        table.add(std::string(family_name(f)) + "/" + magnitude_name(m), accuracy_case(h, tm, p, jobs));
      }
    }
}

// Every forced variant of every backend under test (AUTO resolves to one of them).
template <class T>
void run_families(const std::vector<Family> &families, const std::vector<Magnitude> &magnitudes,
                  const std::vector<int> &sizes, const char *title) {
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : geev_forced_variants(backend)) {
      ParamsGuard p;
      REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
      RatioTable table;
      family_cases<T>(h.h, backend, p, alg, families, magnitudes, sizes, 2024, Jobs::All, table);
      table.print(std::string(title) + " | " + precision_name<T>() + " | backend " + backend_name(backend) +
                  " | algorithm " + algorithm_name(alg));
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("geev accuracy: random dense, n = 1..64, 100, 150, every algorithm variant",
                   "[geev][accuracy]", BT_GEEV_TYPES) {
  using T = TestType;
  for (const batcheigBackend_t backend : backends_under_test()) {
    HandleGuard h;
    BT_CREATE_HANDLE_OR_SKIP(h, backend);
    for (const batcheigAlgorithm_t alg : geev_variants(backend)) {
      ParamsGuard p;
      REQUIRE(batcheigParamsSetAlgorithm(p, alg) == BATCHEIG_STATUS_SUCCESS);
      RatioTable table;
      for (const int n : random_dense_sizes()) {
        if (!geev_variant_claims<T>(alg, n, true, true)) continue;  // refused: test_geev_cuda.cpp checks it
        const TestMatrix<T> tm = make_matrix<T>(Family::RandomDense, Magnitude::Unit, n, make_seed(1, n));
        INFO("backend " << backend_name(backend) << ", algorithm " << algorithm_name(alg));
        // The job combinations once (AUTO); forced variants with vectors.
        table.add(n <= 64 ? "random-dense n<=64" : "random-dense n>64",
                  accuracy_case(h.h, tm, p, alg == BATCHEIG_ALG_AUTO ? Jobs::All : Jobs::VV));
      }
      table.print(std::string("random dense | ") + precision_name<T>() + " | backend " + backend_name(backend) +
                  " | algorithm " + algorithm_name(alg));
    }
  }
}

TEMPLATE_TEST_CASE("geev accuracy: normal families (zero, identity, diagonal, orthogonal similarity, companion)",
                   "[geev][accuracy]", BT_GEEV_TYPES) {
  run_families<TestType>({Family::Zero, Family::Identity, Family::DiagArith, Family::DiagGeom, Family::DiagCluster,
                          Family::OrthArith, Family::OrthGeom, Family::OrthCluster, Family::Companion},
                         all_magnitudes(), structured_sizes(), "normal families");
}

TEMPLATE_TEST_CASE("geev accuracy: non-normal families (Jordan block, ill-conditioned similarity)",
                   "[geev][accuracy]", BT_GEEV_TYPES) {
  run_families<TestType>({Family::Jordan, Family::JordanOrth, Family::IllArith, Family::IllGeom, Family::IllCluster},
                         all_magnitudes(), structured_sizes(), "non-normal families");
}

TEMPLATE_TEST_CASE("geev accuracy: balancing families (triangular, zeroed rows/columns, graded) and scaled random",
                   "[geev][accuracy]", BT_GEEV_TYPES) {
  run_families<TestType>({Family::UpperTriangular, Family::ZeroRowsCols, Family::Graded}, all_magnitudes(),
                         structured_sizes(), "balancing families");
  run_families<TestType>({Family::RandomDense}, {Magnitude::NearOverflow, Magnitude::NearUnderflow},
                         structured_sizes(), "random dense, scaled");
}

// Large n under AUTO, where the CUDA backend runs its global-memory path:
// every family at every magnitude at n = 200 and 300 (to 512 at the full
// level), the (V,V) job, and the (N,N) job's eigenvalues bitwise those of
// (V,V) (on the CUDA backend eigenvalues alone take other launches, the QR
// iteration on the band, where the band fits in shared memory). The host backend runs it only at the full level
// (minutes on a CI machine); without a GPU at the default level the test
// reports skipped.
TEMPLATE_TEST_CASE("geev accuracy: every family and magnitude at large n (n = 200..512) under AUTO",
                   "[geev][accuracy][large]", BT_GEEV_TYPES) {
  using T = TestType;
  const bool full = test_level() == TestLevel::Full;
  std::vector<int> sizes;
  switch (test_level()) {
    case TestLevel::Quick: sizes = {200}; break;
    case TestLevel::Default: sizes = {200, 300}; break;
    case TestLevel::Full: sizes = {150, 200, 256, 300, 400, 512}; break;
  }
  // (BATCHEIG_TEST_SIZES may list none of them: then nothing is checked, so
  // the case says so rather than pass.)
  sizes = only_listed_sizes(sizes);
  if (sizes.empty()) BT_SKIP("BATCHEIG_TEST_SIZES lists none of this case's sizes at this test level");
  bool ran = false;
  for (const batcheigBackend_t backend : backends_under_test()) {
    if (backend == BATCHEIG_BACKEND_HOST && !full) continue;
    HandleGuard h;
    if (batcheigCreateWithBackend(&h.h, backend) != BATCHEIG_STATUS_SUCCESS) continue;
    ran = true;
    RatioTable table;
    family_cases<T>(h.h, backend, nullptr, BATCHEIG_ALG_AUTO, all_families(), all_magnitudes(), sizes, 4096,
                    Jobs::VVAndNN, table);
    table.print(std::string("large n | ") + precision_name<T>() + " | backend " + backend_name(backend));
  }
  if (!ran) BT_SKIP("no CUDA backend here, and the host backend runs this test only at BATCHEIG_TEST_LEVEL=full");
}
